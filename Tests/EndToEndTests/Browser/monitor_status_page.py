#!/usr/bin/python3
"""What PauseCam's monitor page makes of hand-written statuses (MonitorStatusPageTests' fake rig), in headless
Chromium (Selenium): the title with the machine; tiles coloured by each lens's `tally` and, without tally, the active
lens marked; "holding last picture" after `lens_holding`, gone after `lens_live`; time left and its warning style;
the EV slider only on a camera's lens; the microphone's clipping light when the clipped samples grow, and its
silence warning after 10 s without sound.

The fake answers `phase NAME` (tally, offair, plain, camera, quiet) by serving that phase's status, and `holding LENS` / `live LENS`
by publishing the lens's event.

Usage: /usr/bin/python3 monitor_status_page.py URL OUTDIR   (exit status 0 when every check passed). Prints a JSON
report.
"""
import json
import os
import sys
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monitor_page import start_driver  # noqa: E402

DEADLINE = 30


def main(url, outdir):
    processes, driver = start_driver(["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                                      "--user-data-dir=" + tempfile.mkdtemp(prefix="pausecam-chromium-"),
                                      "--window-size=1024,768"])
    report = {}
    try:
        wait = WebDriverWait(driver, DEADLINE, poll_frequency=0.05)
        text = lambda element_id: driver.find_element(By.ID, element_id).text
        statuses = lambda: int(driver.find_element(By.ID, "app").get_attribute("data-statuses") or "0")
        send = lambda line: driver.execute_script(
            "return fetch('/command', {method: 'POST', body: arguments[0]}).then((r) => r.json())", line)

        def phase(name):
            assert send("phase " + name)["ok"], name
            seen = statuses()
            wait.until(lambda d: statuses() > seen + 1)

        def tile(name):
            return driver.find_element(By.CSS_SELECTOR, '.tile[data-role="%s"]' % name)

        def tally_classes():
            return {t.get_attribute("data-role"): " ".join(c for c in ["program", "preview"]
                                                            if c in t.get_attribute("class").split())
                    for t in driver.find_elements(By.CSS_SELECTOR, ".tile")}

        driver.get(url)
        wait.until(lambda d: statuses() > 0 and len(d.find_elements(By.CSS_SELECTOR, ".tile")) == 3)
        report["title"] = driver.title
        phase("tally")
        # Program red, preview green, and the colours are the tiles' frames.
        report["tally"] = tally_classes()
        colours = {name: driver.execute_script("return getComputedStyle(arguments[0]).borderTopColor", tile(name))
                   for name in ["wide", "main", "desk"]}
        report["tally_colours"] = colours
        assert colours["main"] == "rgb(238, 17, 17)" and colours["wide"] == "rgb(17, 204, 68)", colours
        report["time_left"] = [text("timeleft")]
        assert "warning" not in driver.find_element(By.ID, "timeleft").get_attribute("class").split()
        driver.save_screenshot(os.path.join(outdir, "tally.png"))

        # A lens holding its last picture says so until it is live again.
        send("holding wide")
        wait.until(lambda d: tile("wide").find_element(By.CSS_SELECTOR, ".tilenote").text != "")
        report["holding"] = [tile("wide").find_element(By.CSS_SELECTOR, ".tilenote").text]
        send("live wide")
        wait.until(lambda d: tile("wide").find_element(By.CSS_SELECTOR, ".tilenote").text == "")
        report["holding"].append(tile("wide").find_element(By.CSS_SELECTOR, ".tilenote").text)

        # No lens on air (idle): the active lens is framed white, not in the tally's red.
        phase("offair")
        report["off_air_active"] = driver.execute_script("return getComputedStyle(arguments[0]).borderTopColor",
                                                         tile("main"))
        assert tally_classes() == {"wide": "", "main": "", "desk": ""}, tally_classes()

        # Without tally, the active lens is still unmistakable (red); 9 minutes left is a warning; "desk" has no camera.
        phase("plain")
        assert tally_classes() == {"wide": "", "main": "", "desk": ""}, tally_classes()
        active = [t.get_attribute("data-role") for t in driver.find_elements(By.CSS_SELECTOR, ".tile.active")]
        assert active == ["wide"], active
        report["plain_active"] = driver.execute_script("return getComputedStyle(arguments[0]).borderTopColor",
                                                       tile("wide"))
        assert report["plain_active"] == "rgb(238, 17, 17)", report["plain_active"]
        assert tile("wide").find_element(By.CSS_SELECTOR, ".onair").is_displayed()
        report["time_left"].append(text("timeleft"))
        assert "warning" in driver.find_element(By.ID, "timeleft").get_attribute("class").split()
        assert tile("desk").find_element(By.CSS_SELECTOR, ".tilenote").text == "no camera"

        # The EV slider: not on the virtual wide lens, on the camera's desk lens.
        report["ev"] = []
        driver.find_element(By.ID, "picture").click()
        report["ev"].append(driver.find_element(By.ID, "ev").is_displayed())
        phase("camera")
        driver.find_element(By.ID, "picture").click()
        wait.until(lambda d: d.find_element(By.ID, "ev").is_displayed())
        report["ev"].append(driver.find_element(By.ID, "ev").is_displayed())

        # The clip's clipped samples went from none to 48: the microphone's clipping light.
        wait.until(lambda d: "on" in d.find_element(By.CSS_SELECTOR, ".mic .clip").get_attribute("class").split())
        report["clipping"] = driver.find_element(By.CSS_SELECTOR, ".mic .micstate").text
        assert report["clipping"].startswith("clipping"), report["clipping"]
        assert text("timeleft") == "" and not driver.find_element(By.ID, "timeleft").is_displayed()
        driver.save_screenshot(os.path.join(outdir, "camera.png"))

        # No sound for 10 s: the microphone is marked silent (and the clipping light goes out).
        phase("quiet")
        WebDriverWait(driver, 30, poll_frequency=0.1).until(
            lambda d: d.find_element(By.CSS_SELECTOR, ".mic .micstate").text.startswith("silent"))
        report["silent"] = driver.find_element(By.CSS_SELECTOR, ".mic .micstate").text
        assert "silent" in driver.find_element(By.CSS_SELECTOR, ".mic").get_attribute("class").split()
    finally:
        driver.quit()
        for process in reversed(processes):
            process.terminate()
            process.wait(timeout=30)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: monitor_status_page.py URL OUTDIR")
    try:
        main(sys.argv[1], sys.argv[2])
    except AssertionError as error:
        sys.exit("check failed: %r" % (error,))
