#!/usr/bin/python3
"""Drives the live destinations of PauseCam's browser monitor in headless Chromium (Selenium): a row per destination
with a badge (LIVE, lost, connecting or off), its bitrate and its dropped frames, and a toggle. The row starts as
/status.json has it (off); the toggle sends `live on NAME` and the row then shows the state the rig reports (and,
when asked, waits until it reaches one, such as LIVE with its bitrate); the toggle again sends `live off NAME` and
the row shows off. On a phone's width the row stays on the screen. Every check compares the page with /status.json,
the object the page itself polls.

Usage: /usr/bin/python3 monitor_live.py URL OUTDIR CONFIG
  CONFIG is JSON: {"name": "studio", "reach": null or a state the row must come to once on ("live", "lost")}.
Exit status 0 when every check passed; the reason otherwise. Prints a JSON report.
"""
import json
import os
import sys
import tempfile
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monitor_page import start_driver  # noqa: E402  (the same headless Chromium, reached by address)

DEADLINE = 60


def sink_status(url, name):
    """The destination as /status.json has it, as the page reads it."""
    with urllib.request.urlopen(url.rstrip("/") + "/status.json", timeout=10) as response:
        return next(s for s in json.load(response).get("live", []) if s["name"] == name)


def state_of(sink):
    """The state the page is meant to show for a destination of the status."""
    if not sink["on"]:
        return "off"
    if sink["live"]:
        return "live"
    return "lost" if sink["outages"] > 0 else "connecting"


def row_view(driver, name):
    row = driver.find_element(By.CSS_SELECTOR, '.dest[data-live="%s"]' % name)
    part = lambda css: row.find_element(By.CSS_SELECTOR, css)
    return {
        "state": row.get_attribute("data-state"),
        "badge": part(".livebadge").text,
        "badge_label": part(".livebadge").get_attribute("aria-label"),
        "rate": part(".rate").text,
        "drops": part(".drops").text,
        "pressed": part(".livetoggle").get_attribute("aria-pressed"),
        "toggle": part(".livetoggle").text,
        "toggle_label": part(".livetoggle").get_attribute("aria-label"),
        "group_label": row.get_attribute("aria-label"),
    }


def agrees(driver, url, name):
    """The row as the page shows it, when it matches the status read just before and just after; else None."""
    before = state_of(sink_status(url, name))
    view = row_view(driver, name)
    after = state_of(sink_status(url, name))
    return view if view["state"] == before == after else None


def main(url, outdir, config):
    processes, driver = start_driver(["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                                      "--user-data-dir=" + tempfile.mkdtemp(prefix="pausecam-chromium-"),
                                      "--window-size=1024,768"])
    report = {}
    name = config["name"]
    try:
        wait = WebDriverWait(driver, DEADLINE, poll_frequency=0.05)
        driver.get(url)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '.dest[data-live="%s"]' % name))
        assert driver.find_element(By.ID, "live").is_displayed(), "the live destinations are hidden"
        assert sink_status(url, name)["on"] is False, "the destination is on before the test"
        start = wait.until(lambda d: agrees(d, url, name))
        assert start["badge"] == "off" and start["pressed"] == "false", start
        for key in ("badge_label", "toggle_label", "group_label"):
            assert name in start[key], (key, start)
        report["start"] = start
        driver.save_screenshot(os.path.join(outdir, "live-off.png"))

        # On: the line goes out, and the row shows what the status then says.
        toggle = lambda: driver.find_element(By.CSS_SELECTOR, '.dest[data-live="%s"] .livetoggle' % name)
        toggle().click()
        wait.until(lambda d: sink_status(url, name)["on"] is True)
        on = wait.until(lambda d: (lambda view: view if view and view["pressed"] == "true" else None)(
            agrees(d, url, name)))
        assert on["state"] in ("live", "lost", "connecting"), on
        assert on["toggle"] == "Stop live", on
        report["on"] = on
        reach = config.get("reach")
        if reach:
            # Live is reached once the rig measures a bitrate too (the first second of a stream has none yet).
            done = lambda view: view and view["state"] == reach and (reach != "live" or view["rate"].endswith("bit/s"))
            reached = wait.until(lambda d: (lambda view: view if done(view) else None)(agrees(d, url, name)))
            if reach == "live":
                assert reached["badge"] == "LIVE", reached
            report["reached"] = reached
        driver.save_screenshot(os.path.join(outdir, "live-on.png"))

        # On a phone held upright the row stays on the screen, without scrolling sideways.
        driver.set_window_size(390, 844)
        wait.until(lambda d: d.execute_script("return window.innerWidth") <= 390)
        inner = driver.execute_script("return window.innerWidth")
        overflow = driver.execute_script("return document.documentElement.scrollWidth")
        box = toggle().rect
        assert box["x"] + box["width"] <= inner + 1, (box, inner)
        assert overflow <= inner + 1, ("the page scrolls sideways", overflow, inner)
        driver.save_screenshot(os.path.join(outdir, "live-phone.png"))
        report["phone"] = {"window": inner, "scroll_width": overflow}

        # Off again.
        toggle().click()
        wait.until(lambda d: sink_status(url, name)["on"] is False)
        off = wait.until(lambda d: (lambda view: view if view and view["state"] == "off" else None)(
            agrees(d, url, name)))
        assert off["badge"] == "off" and off["pressed"] == "false" and off["toggle"] == "Go live", off
        report["off"] = off
    finally:
        driver.quit()
        for process in reversed(processes):
            process.terminate()
            process.wait(timeout=30)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: monitor_live.py URL OUTDIR CONFIG")
    try:
        main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]))
    except AssertionError as error:
        sys.exit("check failed: %r" % (error,))
