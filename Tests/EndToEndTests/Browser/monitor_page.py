#!/usr/bin/python3
"""Drives PauseCam's browser monitor in headless Chromium (Selenium): record, the timer advancing, pause freezing
it, stop naming the saved clip, and the layout in portrait (768x1024) and landscape (1024x768) with screenshots.

Usage: /usr/bin/python3 monitor_page.py URL OUTDIR   (exit status 0 when every check passed; the reason otherwise)
"""
import json
import os
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

DEADLINE = 60


def main(url, outdir):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--user-data-dir=" + tempfile.mkdtemp(prefix="pausecam-chromium-"), "--window-size=1024,768"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    report = {}
    try:
        wait = WebDriverWait(driver, DEADLINE, poll_frequency=0.05)
        text = lambda element_id: driver.find_element(By.ID, element_id).text
        seconds = lambda: float(driver.find_element(By.ID, "timer").get_attribute("data-seconds") or "-1")

        driver.get(url)
        wait.until(lambda d: text("rigname") == "E2E rig")
        wait.until(lambda d: text("state") == "IDLE" and seconds() == 0)
        report["pills"] = [p.text for p in driver.find_elements(By.CSS_SELECTOR, ".pill")]
        report["tiles"] = [t.get_attribute("data-role") for t in driver.find_elements(By.CSS_SELECTOR, ".tile")]
        assert report["pills"] == ["1x", "2x"], report["pills"]
        assert report["tiles"] == ["wide", "main", "tele"], report["tiles"]

        driver.find_element(By.ID, "toggle").click()
        wait.until(lambda d: text("state") == "REC")
        wait.until(lambda d: seconds() > 0)
        first = seconds()
        wait.until(lambda d: seconds() >= first + 0.5)
        report["timer_advanced"] = [first, seconds()]

        driver.find_element(By.ID, "toggle").click()
        wait.until(lambda d: text("state") == "PAUSED")
        frozen = seconds()
        frozen_text = text("timer")
        # A pause must hold the timer still for as long as it lasts: watch it for one second of wall time.
        time.sleep(1.0)
        assert seconds() == frozen and text("timer") == frozen_text, (frozen, seconds())
        report["timer_frozen"] = frozen_text

        driver.find_element(By.CSS_SELECTOR, '.tile[data-role="wide"]').click()
        wait.until(lambda d: "active" in d.find_element(By.CSS_SELECTOR, '.tile[data-role="wide"]').get_attribute("class"))
        driver.find_element(By.ID, "stop").click()
        wait.until(lambda d: text("state") == "IDLE")
        wait.until(lambda d: text("lastclip").endswith(".mov"))
        report["last_clip"] = text("lastclip")
        report["events"] = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#log li")][:6]

        if driver.execute_script("return document.getElementById('nopicture').classList.contains('hidden')"):
            report["picture"] = "a picture is shown"
        else:
            assert text("nopicture") == "no picture yet"
            report["picture"] = "no picture yet (colour not checked: this build makes no monitor pictures)"

        for name, width, height in [("portrait", 768, 1024), ("landscape", 1024, 768)]:
            driver.set_window_size(width, height)
            wait.until(lambda d: d.execute_script("return window.innerWidth") > 0)
            driver.get(url)
            wait.until(lambda d: text("rigname") == "E2E rig")
            picture = driver.find_element(By.ID, "picture").rect
            controls = driver.find_element(By.ID, "controls").rect
            inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
            if inner[0] < inner[1]:
                assert controls["y"] >= picture["y"] + picture["height"] - 1, (name, picture, controls)
            else:
                assert controls["x"] >= picture["x"] + picture["width"] - 1, (name, picture, controls)
            toggle = driver.find_element(By.ID, "toggle").rect
            assert toggle["x"] + toggle["width"] <= inner[0] + 1, (name, toggle, inner)
            path = os.path.join(outdir, name + ".png")
            driver.save_screenshot(path)
            report[name] = {"window": inner, "picture": picture, "controls": controls, "screenshot": path}
    finally:
        driver.quit()
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: monitor_page.py URL OUTDIR")
    try:
        main(sys.argv[1], sys.argv[2])
    except AssertionError as error:
        sys.exit("check failed: %r" % (error,))
