#!/usr/bin/python3
"""Drives the voice controls of PauseCam's browser monitor in headless Chromium (Selenium): a strip per voice with a
meter (role=meter) that moves, its hold mark, clipping light and speaking dot; Mute sending `voice NAME mute` and the
strip showing the voice muted once /status.json says so (and Unmute back); gain + sending `voice NAME gain +3dB`;
a refused mute leaving the strip unmuted (the page shows the status, not the click); the follow toggle flipping
`follow` both ways; on a phone's width, every strip's controls on the screen. Every check reads the page and then /status.json, the object the page itself polls.

Usage: /usr/bin/python3 monitor_voices.py URL OUTDIR CONFIG
  CONFIG is JSON: {"voices": ["host", "guest"], "mute": "guest", "refused": null or a voice whose mute the rig
  refuses, "follow": true when the rig has follow:, "gain": the voice whose gain + is clicked}.
Exit status 0 when every check passed; the reason otherwise. Prints a JSON report.
"""
import json
import os
import sys
import time
import tempfile
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monitor_page import start_driver  # noqa: E402  (the same headless Chromium, reached by address)

DEADLINE = 60


def status(url):
    """The rig's status from the page's own server, as the page reads it."""
    with urllib.request.urlopen(url.rstrip("/") + "/status.json", timeout=10) as response:
        return json.load(response)


def voice_status(url, name):
    return next(v for v in status(url)["voices"] if v["name"] == name)


def strip(driver, name):
    return driver.find_element(By.CSS_SELECTOR, '.voice[data-voice="%s"]' % name)


def main(url, outdir, config):
    processes, driver = start_driver(["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                                      "--user-data-dir=" + tempfile.mkdtemp(prefix="pausecam-chromium-"),
                                      "--window-size=1024,768"])
    report = {}
    try:
        wait = WebDriverWait(driver, DEADLINE, poll_frequency=0.05)
        driver.get(url)
        names = config["voices"]
        wait.until(lambda d: [e.get_attribute("data-voice") for e in d.find_elements(By.CSS_SELECTOR, ".voice")]
                   == names)
        assert driver.find_element(By.ID, "voices").is_displayed(), "the voices are hidden"

        # Every strip has its parts, each with a name a screen reader says.
        labels = {}
        for name in names:
            element = strip(driver, name)
            meter = element.find_element(By.CSS_SELECTOR, '[role="meter"]')
            parts = {
                "meter": meter.get_attribute("aria-label"),
                "mute": element.find_element(By.CSS_SELECTOR, "button.mute").get_attribute("aria-label"),
                "down": element.find_element(By.CSS_SELECTOR, "button.gaindown").get_attribute("aria-label"),
                "up": element.find_element(By.CSS_SELECTOR, "button.gainup").get_attribute("aria-label"),
                "clip": element.find_element(By.CSS_SELECTOR, ".clip").get_attribute("aria-label"),
                "speaking": element.find_element(By.CSS_SELECTOR, ".speaking").get_attribute("aria-label"),
            }
            assert all(parts.values()), (name, parts)
            assert all(name in label for label in parts.values()), (name, parts)
            assert element.find_elements(By.CSS_SELECTOR, ".meter .hold"), (name, "no hold mark")
            labels[name] = parts
        report["labels"] = labels

        # The meters move: each takes at least two levels, and shows sound at least once.
        seen = {name: set() for name in names}
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            for name in names:
                meter = strip(driver, name).find_element(By.CSS_SELECTOR, '[role="meter"]')
                seen[name].add(float(meter.get_attribute("aria-valuenow")))
            if all(len(values) >= 2 and max(values) > -60 for values in seen.values()):
                break
            time.sleep(0.1)
        report["meter_levels"] = {name: sorted(values) for name, values in seen.items()}
        for name, values in seen.items():
            assert len(values) >= 2 and max(values) > -60, ("the meter of %s did not move" % name, sorted(values))
        width = driver.execute_script(
            "return document.querySelector('.voice[data-voice=\"%s\"] .level').style.width" % names[0])
        report["level_width"] = width

        # A refused mute leaves the strip as the status has it.
        refused = config.get("refused")
        if refused:
            strip(driver, refused).find_element(By.CSS_SELECTOR, "button.mute").click()
            wait.until(lambda d: any(("voice %s mute" % refused) in e.text
                                     for e in d.find_elements(By.CSS_SELECTOR, "#log li.refused")))
            # Two statuses shown after the refusal: the page has had its chance to show what the rig says.
            shown = int(driver.find_element(By.ID, "app").get_attribute("data-statuses"))
            wait.until(lambda d: int(d.find_element(By.ID, "app").get_attribute("data-statuses")) >= shown + 2)
            assert strip(driver, refused).get_attribute("class").split().count("muted") == 0, "refused, yet shown muted"
            assert strip(driver, refused).find_element(By.CSS_SELECTOR, "button.mute").get_attribute(
                "aria-pressed") == "false"
            assert voice_status(url, refused)["muted"] is False
            report["refused"] = refused

        # Mute: the command goes out, the status says muted, and the strip shows it; then unmute.
        muted = config["mute"]
        button = lambda: strip(driver, muted).find_element(By.CSS_SELECTOR, "button.mute")
        assert voice_status(url, muted)["muted"] is False
        button().click()
        wait.until(lambda d: button().get_attribute("aria-pressed") == "true"
                   and "muted" in strip(d, muted).get_attribute("class").split())
        assert voice_status(url, muted)["muted"] is True, "the page shows muted, the status does not"
        report["muted_text"] = button().text
        driver.save_screenshot(os.path.join(outdir, "voices-muted.png"))
        button().click()
        wait.until(lambda d: button().get_attribute("aria-pressed") == "false")
        assert voice_status(url, muted)["muted"] is False
        report["unmuted"] = True

        # Gain +: one step of 3 dB from where the status has it.
        gained = config.get("gain") or names[0]
        before = voice_status(url, gained)["gain_db"]
        strip(driver, gained).find_element(By.CSS_SELECTOR, "button.gainup").click()
        wait.until(lambda d: abs(voice_status(url, gained)["gain_db"] - (before + 3)) < 0.05)
        wait.until(lambda d: strip(d, gained).find_element(By.CSS_SELECTOR, ".gain").text
                   == ("+%gdB" % (before + 3) if before + 3 > 0 else "%gdB" % (before + 3)))
        report["gain"] = [before, voice_status(url, gained)["gain_db"]]

        # Follow: the toggle flips it both ways, as the status says.
        box = driver.find_element(By.ID, "follow")
        if config.get("follow"):
            assert box.is_displayed(), "a rig with follow: shows no follow toggle"
            toggle = driver.find_element(By.ID, "followtoggle")
            start = status(url)["follow"]
            assert toggle.get_attribute("aria-pressed") == ("true" if start else "false")
            flips = []
            for expected in (not start, start):
                toggle.click()
                wait.until(lambda d: status(url)["follow"] is expected
                           and toggle.get_attribute("aria-pressed") == ("true" if expected else "false"))
                flips.append(toggle.text)
            report["follow"] = {"start": start, "texts": flips}
        else:
            assert not box.is_displayed(), "a rig without follow: shows a follow toggle"
            assert "follow" not in status(url)
        driver.save_screenshot(os.path.join(outdir, "voices.png"))

        # On a phone held upright every voice's controls stay on the screen, without scrolling sideways.
        driver.set_window_size(390, 844)
        wait.until(lambda d: d.execute_script("return window.innerWidth") <= 390)
        inner = driver.execute_script("return window.innerWidth")
        overflow = driver.execute_script("return document.documentElement.scrollWidth")
        for name in names:
            up = strip(driver, name).find_element(By.CSS_SELECTOR, "button.gainup").rect
            assert up["x"] + up["width"] <= inner + 1, (name, up, inner)
        assert overflow <= inner + 1, ("the page scrolls sideways", overflow, inner)
        driver.save_screenshot(os.path.join(outdir, "voices-phone.png"))
        report["phone"] = {"window": inner, "scroll_width": overflow}
    finally:
        driver.quit()
        for process in reversed(processes):
            process.terminate()
            process.wait(timeout=30)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: monitor_voices.py URL OUTDIR CONFIG")
    try:
        main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]))
    except AssertionError as error:
        sys.exit("check failed: %r" % (error,))
