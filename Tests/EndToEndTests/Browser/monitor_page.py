#!/usr/bin/python3
"""Drives PauseCam's browser monitor in headless Chromium (Selenium): the program picture's centre in the active
lens's colour, the wheel and a two-finger pinch zooming within the digital zoom limit, record, the timer advancing, a
lens tile switching the picture, pause freezing the timer, retake sending the timer back, stop naming
the saved clip, its thumbnail, a tap on it playing the movie in the page, and the layout in portrait (768x1024) and landscape (1024x768) with screenshots.

Usage: /usr/bin/python3 monitor_page.py URL OUTDIR   (exit status 0 when every check passed; the reason otherwise)
"""
import json
import os
import socket
import subprocess
import urllib.request
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

DEADLINE = 60
# The virtual lenses' colours (Tests/EndToEndTests/Rigs/e2e.yaml), and the one channel that dominates each.
DOMINANT = {"wide": 0, "main": 1, "tele": 2}

CENTRE_JS = """
const img = document.getElementById('program');
if (!img || !img.naturalWidth || !img.complete) return null;
const c = document.createElement('canvas');
c.width = img.naturalWidth; c.height = img.naturalHeight;
const g = c.getContext('2d');
g.drawImage(img, 0, 0);
const d = g.getImageData(Math.floor(c.width / 2), Math.floor(c.height / 2), 1, 1).data;
return [d[0], d[1], d[2]];
"""

# A two-finger pinch on the picture: touchstart with two touches `start` px apart around the centre, touchmove to
# `end` px apart, touchend; the page's own touch handlers do the rest.
PINCH_JS = """
const [start, end] = arguments;
const target = document.getElementById('picture');
const box = target.getBoundingClientRect();
const cx = box.left + box.width / 2, cy = box.top + box.height / 2;
const touches = (gap) => [0, 1].map((i) => new Touch({identifier: i, target: target,
    clientX: cx + (i ? gap : -gap) / 2, clientY: cy}));
const send = (type, list) => target.dispatchEvent(new TouchEvent(type, {touches: list, targetTouches: list,
    changedTouches: list, bubbles: true, cancelable: true}));
send('touchstart', touches(start));
send('touchmove', touches((start + end) / 2));
send('touchmove', touches(end));
send('touchend', []);
"""


def shows(driver, lens):
    """True when the program picture's centre is in `lens`'s colour: its channel leads the others by 60."""
    rgb = driver.execute_script(CENTRE_JS)
    if not rgb:
        return False
    lead = DOMINANT[lens]
    return all(rgb[lead] >= rgb[other] + 60 for other in range(3) if other != lead)


def status(url):
    """The rig's status from the page's own server, as the page reads it."""
    with urllib.request.urlopen(url.rstrip("/") + "/status.json", timeout=10) as response:
        return json.load(response)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port, process, what):
    deadline = time.monotonic() + DEADLINE
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("%s did not start listening on 127.0.0.1:%d" % (what, port))
            time.sleep(0.05)


def start_driver(arguments):
    """Headless Chromium with its DevTools on a loopback address, and chromedriver attached to it by address.
    Everything is reached as 127.0.0.1: Selenium's Service and chromedriver's own launch wait for "localhost",
    which a machine without /etc/hosts (a fresh minimal root) cannot resolve. Returns the processes and the driver."""
    devtools = free_port()
    browser = subprocess.Popen(["/usr/bin/chromium", "--remote-debugging-address=127.0.0.1",
                                "--remote-debugging-port=%d" % devtools] + arguments + ["about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes = [browser]
    try:
        wait_for_port(devtools, browser, "chromium's DevTools")
        port = free_port()
        chromedriver = subprocess.Popen(["/usr/bin/chromedriver", "--port=%d" % port],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(chromedriver)
        wait_for_port(port, chromedriver, "chromedriver")
        options = webdriver.ChromeOptions()
        options.debugger_address = "127.0.0.1:%d" % devtools
        return processes, webdriver.Remote(command_executor="http://127.0.0.1:%d" % port, options=options)
    except BaseException:
        for process in processes:
            process.kill()
        raise


def main(url, outdir):
    processes, driver = start_driver(["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                                      "--user-data-dir=" + tempfile.mkdtemp(prefix="pausecam-chromium-"),
                                      "--window-size=1024,768"])
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
        # Framing before recording: the idle rig's program picture is the default lens, main.
        wait.until(lambda d: shows(d, "main"))
        report["idle_centre"] = driver.execute_script(CENTRE_JS)

        # Zoom: the wheel on the picture zooms in smoothly; the pills choose a preset and light up.
        driver.execute_script("document.getElementById('picture').dispatchEvent(new WheelEvent('wheel', "
                              "{deltaY: -100, bubbles: true, cancelable: true}))")
        wait.until(lambda d: status(url)["zoom"] > 1.05)
        report["wheel_zoom"] = status(url)["zoom"]
        driver.find_element(By.CSS_SELECTOR, '.pill').click()  # "1x"
        wait.until(lambda d: status(url)["zoom"] == 1)
        # Pinch: two touches on the picture moving apart zoom in, never past the rig's digital zoom limit.
        limit = driver.execute_script("return fetch('/rig.json').then((r) => r.json()).then((r) => r.max_digital_zoom)")
        # Fingers 100 px apart moving to 150 px: the page sends the gesture's last factor, 1.5, even when it comes
        # within the page's 150 ms between zoom commands (the wheel's command just before, or the pinch's own first).
        driver.execute_script(PINCH_JS, 100, 150)
        wait.until(lambda d: abs(status(url)["zoom"] - 1.5) < 0.01)
        report["pinch_zoom"] = status(url)["zoom"]
        assert report["pinch_zoom"] <= limit + 1e-9, (report["pinch_zoom"], limit)
        report["max_digital_zoom"] = limit
        driver.find_element(By.CSS_SELECTOR, '.pill').click()  # back to "1x"
        wait.until(lambda d: status(url)["zoom"] == 1)
        pills = driver.find_elements(By.CSS_SELECTOR, '.pill')
        pills[1].click()  # "2x": main with 2x digital zoom
        wait.until(lambda d: status(url)["zoom"] == 2 and "active" in pills[1].get_attribute("class"))
        pills[0].click()
        wait.until(lambda d: status(url)["zoom"] == 1 and "active" in pills[0].get_attribute("class"))

        # Tap to focus and expose: the tap point goes out as `focus at X Y` (the centre of the picture here), the
        # EV slider appears beside the tap, and a lens without the controls says which of them it lacks.
        driver.find_element(By.ID, "program").click()
        wait.until(lambda d: "focus" in text("focusnote"))
        report["tap_note"] = text("focusnote")
        wait.until(lambda d: any("focus" in li.text for li in d.find_elements(By.CSS_SELECTOR, "#log li")))
        report["tap_log"] = next(li.text for li in driver.find_elements(By.CSS_SELECTOR, "#log li")
                                 if "focus" in li.text)
        # A virtual lens has no exposure control: no EV slider is offered on it.
        report["ev_shown"] = driver.find_element(By.ID, "ev").is_displayed()
        assert not report["ev_shown"], "the EV slider shows on a lens without an exposure control"

        driver.find_element(By.ID, "toggle").click()
        wait.until(lambda d: text("state") == "REC")
        wait.until(lambda d: seconds() > 0)
        first = seconds()
        wait.until(lambda d: seconds() >= first + 0.5)
        report["timer_advanced"] = [first, seconds()]

        # A tap on the tele tile switches the program lens; the picture follows.
        asked = time.monotonic()
        driver.find_element(By.CSS_SELECTOR, '.tile[data-role="tele"]').click()
        WebDriverWait(driver, 5, poll_frequency=0.05).until(lambda d: shows(d, "tele"))
        report["tele_seconds"] = round(time.monotonic() - asked, 3)
        report["tele_centre"] = driver.execute_script(CENTRE_JS)

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
        # Reframing while paused: the monitor shows the new lens although nothing is recorded.
        WebDriverWait(driver, 5, poll_frequency=0.05).until(lambda d: shows(d, "wide"))
        driver.find_element(By.ID, "toggle").click()
        wait.until(lambda d: text("state") == "REC")
        resumed = seconds()
        wait.until(lambda d: seconds() >= resumed + 0.5)
        report["resumed_scene"] = text("scene")
        # Retake: the scene being recorded is thrown away and begins again, so the timer goes back.
        before = status(url)["timer"]
        driver.find_element(By.ID, "retake").click()
        wait.until(lambda d: status(url)["timer"] < before)
        wait.until(lambda d: any("retake" in li.text for li in d.find_elements(By.CSS_SELECTOR, "#log li")))
        report["retake"] = {"before": before, "after": status(url)["timer"], "scene": text("scene"),
                            "log": next(li.text for li in driver.find_elements(By.CSS_SELECTOR, "#log li")
                                        if "retake" in li.text)}
        again = seconds()
        wait.until(lambda d: seconds() >= again + 0.5)
        driver.find_element(By.ID, "stop").click()
        wait.until(lambda d: text("state") == "IDLE")
        wait.until(lambda d: text("lastclip").endswith(".mov"))
        report["last_clip"] = text("lastclip")
        # The saved clip's thumbnail appears; a tap plays the movie in the page.
        wait.until(lambda d: d.execute_script(
            "const i = document.getElementById('lastthumb'); return i.complete && i.naturalWidth > 0"))
        report["thumbnail_width"] = driver.execute_script("return document.getElementById('lastthumb').naturalWidth")
        driver.find_element(By.ID, "lastthumb").click()
        wait.until(lambda d: d.execute_script(
            "const v = document.getElementById('lastvideo'); return v.error !== null || v.readyState >= 1"))
        video = driver.execute_script(
            "const v = document.getElementById('lastvideo');"
            "return {error: v.error && v.error.code, message: v.error && v.error.message, ready: v.readyState,"
            " duration: v.duration, hidden: v.hidden, width: v.videoWidth}")
        report["last_video"] = video
        assert video["error"] is None, video
        assert not video["hidden"] and video["ready"] >= 1 and video["duration"] > 0 and video["width"] > 0, video
        report["events"] = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#log li")][:6]

        assert driver.execute_script("return document.getElementById('nopicture').classList.contains('hidden')")

        for name, width, height in [("portrait", 768, 1024), ("landscape", 1024, 768)]:
            driver.set_window_size(width, height)
            wait.until(lambda d: d.execute_script("return window.innerWidth") > 0)
            driver.get(url)
            wait.until(lambda d: text("rigname") == "E2E rig")
            picture = driver.find_element(By.ID, "picture").rect
            controls = driver.find_element(By.ID, "controls").rect
            inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
            # The lens tiles and the buttons come under the picture, or beside it on a screen at least 3:2 wide.
            strip = driver.find_element(By.ID, "strip").rect
            if inner[0] * 2 >= inner[1] * 3:
                assert strip["x"] >= picture["x"] + picture["width"] - 1, (name, inner, picture, strip)
            else:
                assert strip["y"] >= picture["y"] + picture["height"] - 1, (name, inner, picture, strip)
            toggle = driver.find_element(By.ID, "toggle").rect
            assert toggle["x"] + toggle["width"] <= inner[0] + 1, (name, toggle, inner)
            path = os.path.join(outdir, name + ".png")
            driver.save_screenshot(path)
            report[name] = {"window": inner, "picture": picture, "controls": controls, "screenshot": path}
    finally:
        driver.quit()
        for process in reversed(processes):
            process.terminate()
            process.wait(timeout=30)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: monitor_page.py URL OUTDIR")
    try:
        main(sys.argv[1], sys.argv[2])
    except AssertionError as error:
        sys.exit("check failed: %r" % (error,))
