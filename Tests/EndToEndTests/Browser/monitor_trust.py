#!/usr/bin/python3
"""The monitor page a person can trust from across the room, in headless Chromium (Selenium) against a real
`pausecam shell` that this script starts, quits and starts again on the same port:

- the rig's name and the machine in the header and the tab's title;
- controls that cannot act are disabled (Stop, Chapter, Mark, Retake while idle; Chapter and Retake paused);
- a lens without a camera says "no camera" on its tile; no EV slider on a lens without an exposure control;
- the lit zoom pill is the preset whose lens zoom × digital zoom equals the status's `zoom`, after every preset, and
  none after `zoom 0.5x` and `zoom 3x`;
- the microphone's meter moves with the virtual microphone's beeps;
- Mark marks at once (`mark` with no text) and offers to name the marker (`mark rename N TEXT`), when the engine
  numbers bare marks (CONFIG "expect_numbered_mark");
- recording time left in the header once the recording clip's rate gives the status its `time_left_s`
  (CONFIG "expect_time_left");
- the saved file name never breaks inside a word; the last clip's thumbnail and the recent clips on load;
- screenshots at phone 390x844, tablet 1024x768 and desktop 1440x900, portrait and landscape, with the picture's
  share of the viewport and every control inside the phone's viewport;
- PauseCam quits: within 2 s the page says "disconnected — reconnecting…" with every control disabled and no
  browser error shown; PauseCam starts again on the same port: the page comes back by itself.

Usage: /usr/bin/python3 monitor_trust.py CONFIG
  CONFIG is JSON: {"pausecam": binary, "rig": rig file, "output": folder, "runtime": XDG_RUNTIME_DIR,
  "screenshots": folder, "expect_numbered_mark": bool}
Exit status 0 when every check passed; the reason otherwise. Prints a JSON report.
"""
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monitor_page import start_driver, free_port, shows  # noqa: E402

DEADLINE = 60
SIZES = [("phone-portrait", 390, 844), ("phone-landscape", 844, 390),
         ("tablet-portrait", 768, 1024), ("tablet-landscape", 1024, 768),
         ("desktop-portrait", 900, 1440), ("desktop-landscape", 1440, 900)]
CONTROLS = "#toggle, #stop, #chapter, #mark, #retake, .pill, .tile, #sumlevel"

# The layout measured in the page: the picture box's and the shown image's share of the viewport, and every control
# (buttons, pills, tiles) with its rectangle.
LAYOUT_JS = """
const w = window.innerWidth, h = window.innerHeight;
const box = document.getElementById('picture').getBoundingClientRect();
const img = document.getElementById('program');
const nw = img.naturalWidth || 16, nh = img.naturalHeight || 9;
const scale = Math.min(box.width / nw, box.height / nh);
const controls = Array.from(document.querySelectorAll(arguments[0])).filter((e) => e.offsetParent !== null)
  .map((e) => { const r = e.getBoundingClientRect();
                return {id: e.id || e.dataset.role || e.textContent.trim(), left: r.left, top: r.top,
                        right: r.right, bottom: r.bottom}; });
return {viewport: [w, h], picture: [box.left, box.top, box.width, box.height],
        picture_share: box.width * box.height / (w * h), image_share: nw * scale * nh * scale / (w * h),
        controls: controls, scroll_height: document.documentElement.scrollHeight};
"""

# Where a file name's text wraps: the characters just before each line break. None must be inside a word.
WRAPS_JS = """
const element = arguments[0];
const text = element.textContent;
const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
const before = [];
let lastTop = null, previous = '';
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  for (let i = 0; i < node.length; i++) {
    const range = document.createRange();
    range.setStart(node, i); range.setEnd(node, i + 1);
    const rect = range.getClientRects()[0];
    if (!rect) continue;
    if (lastTop !== null && rect.top > lastTop + 2) before.push([previous, node.data[i]]);
    lastTop = rect.top; previous = node.data[i];
  }
}
return {text: text, breaks: before, width: element.getBoundingClientRect().width};
"""


def get(url, path):
    with urllib.request.urlopen(url.rstrip("/") + path, timeout=10) as response:
        return json.load(response)


def post(driver, line):
    """Sends one command line from the page (the monitor takes commands from its own origin only)."""
    return driver.execute_script("return fetch('/command', {method: 'POST', body: arguments[0]})"
                                 ".then((r) => r.json())", line)


class Shell:
    """`pausecam shell RIG --web 127.0.0.1:PORT` with its standard input kept open; closing it quits the shell."""

    def __init__(self, config, port):
        self.config, self.port, self.process = config, port, None

    def start(self):
        environment = dict(os.environ, XDG_RUNTIME_DIR=self.config["runtime"])
        self.log = open(os.path.join(self.config["screenshots"], "shell-%d.log" % time.monotonic_ns()), "w")
        self.process = subprocess.Popen([self.config["pausecam"], "shell", self.config["rig"], "--output",
                                         self.config["output"], "--web", "127.0.0.1:%d" % self.port],
                                        stdin=subprocess.PIPE, stdout=self.log, stderr=subprocess.STDOUT,
                                        env=environment)
        deadline = time.monotonic() + DEADLINE
        while True:
            try:
                return get(self.url, "/status.json")
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("pausecam shell did not serve 127.0.0.1:%d" % self.port)
                time.sleep(0.1)

    @property
    def url(self):
        return "http://127.0.0.1:%d/" % self.port

    def quit(self):
        """Ends standard input (the shell stops any clip and exits); returns when the process has exited."""
        self.process.stdin.close()
        self.process.wait(timeout=DEADLINE)
        self.log.close()
        return self.process.returncode

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def lit_pills(driver):
    return [p.text for p in driver.find_elements(By.CSS_SELECTOR, ".pill.active")]


def expected_pills(rig, zoom):
    """The presets whose lens zoom × digital zoom is `zoom` (the status's effective zoom, to two decimals)."""
    zooms = {lens["name"]: lens["zoom"] for lens in rig["lenses"]}
    return [p["name"] for p in rig["zoom_presets"] if abs(zooms[p["lens"]] * p["digital"] - zoom) < 0.006]


def enabled(driver, element_id):
    return driver.find_element(By.ID, element_id).is_enabled()


def set_viewport(driver, width, height):
    """Makes the page's viewport exactly width × height with Chromium's device metrics override (DevTools, through
    chromedriver), which, unlike resizing the headless window, takes effect at once and at any size."""
    driver.command_executor._commands["executeCdpCommand"] = ("POST", "/session/$sessionId/goog/cdp/execute")
    driver.execute("executeCdpCommand", {"cmd": "Emulation.setDeviceMetricsOverride",
                                         "params": {"width": width, "height": height, "deviceScaleFactor": 1,
                                                    "mobile": False}})
    WebDriverWait(driver, 10, poll_frequency=0.05).until(
        lambda d: d.execute_script("return [window.innerWidth, window.innerHeight]") == [width, height])


def main(config):
    report = {}
    port = free_port()
    shell = Shell(config, port)
    shell.start()
    url = shell.url
    processes, driver = start_driver(["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                                      "--user-data-dir=" + tempfile.mkdtemp(prefix="pausecam-chromium-"),
                                      "--window-size=1024,768", "--hide-scrollbars"])
    try:
        wait = WebDriverWait(driver, DEADLINE, poll_frequency=0.05)
        text = lambda element_id: driver.find_element(By.ID, element_id).text
        statuses = lambda: int(driver.find_element(By.ID, "app").get_attribute("data-statuses") or "0")
        rig = get(url, "/rig.json")

        driver.get(url)
        wait.until(lambda d: text("rigname") == "E2E page" and statuses() > 0)
        # Which PauseCam this is: the rig and the machine, in the header and in the tab.
        machine = get(url, "/status.json").get("host")
        report["machine"] = machine
        assert machine and machine == socket.gethostname(), (machine, socket.gethostname())
        report["title"] = driver.title
        report["header"] = driver.find_element(By.ID, "header").text
        assert "E2E page" in driver.title and machine in driver.title, driver.title
        assert machine in report["header"], report["header"]

        # Idle: only the shutter (record), the pills and the tiles can act.
        wait.until(lambda d: text("state") == "IDLE")
        report["idle_enabled"] = {i: enabled(driver, i) for i in ["toggle", "stop", "chapter", "mark", "retake"]}
        assert report["idle_enabled"] == {"toggle": True, "stop": False, "chapter": False, "mark": False,
                                          "retake": False}, report["idle_enabled"]

        # The lens without a camera says so on its tile; the others do not.
        notes = lambda: {t.get_attribute("data-role"): t.find_element(By.CSS_SELECTOR, ".tilenote").text
                         for t in driver.find_elements(By.CSS_SELECTOR, ".tile")}
        wait.until(lambda d: notes().get("far") == "no camera")
        report["tile_notes"] = notes()
        assert all(note == "" for name, note in report["tile_notes"].items() if name != "far"), report["tile_notes"]
        active = [t.get_attribute("data-role") for t in driver.find_elements(By.CSS_SELECTOR, ".tile.active")]
        assert active == ["main"], active

        # A virtual lens has no exposure control: a tap focuses (the reply says what) and no EV slider appears.
        wait.until(lambda d: shows(d, "main"))
        driver.find_element(By.ID, "program").click()
        wait.until(lambda d: "focus" in text("focusnote"))
        report["tap_note"] = text("focusnote")
        assert not driver.find_element(By.ID, "ev").is_displayed(), "EV slider on a lens without exposure control"

        # Zoom pills: after every preset, the lit pills are the presets matching the status's zoom.
        report["pills"] = []
        for index, preset in enumerate(rig["zoom_presets"]):
            driver.find_elements(By.CSS_SELECTOR, ".pill")[index].click()
            wanted = {lens["name"]: lens["zoom"] for lens in rig["lenses"]}[preset["lens"]] * preset["digital"]
            wait.until(lambda d: abs(get(url, "/status.json")["zoom"] - wanted) < 0.006)
            zoom = get(url, "/status.json")["zoom"]
            seen = statuses()
            wait.until(lambda d: statuses() > seen + 1)
            expected = expected_pills(rig, zoom)
            report["pills"].append({"preset": preset["name"], "zoom": zoom, "lit": lit_pills(driver),
                                    "expected": expected})
            assert expected and lit_pills(driver) == expected, report["pills"]
        for factor, value in [("0.5x", 0.5), ("3x", 3)]:
            reply = post(driver, "zoom " + factor)
            assert reply["ok"], reply
            wait.until(lambda d: abs(get(url, "/status.json")["zoom"] - value) < 0.006)
            seen = statuses()
            wait.until(lambda d: statuses() > seen + 1)
            report["pills"].append({"zoom": value, "lit": lit_pills(driver), "expected": []})
            assert lit_pills(driver) == [] and expected_pills(rig, value) == [], report["pills"]
        driver.find_elements(By.CSS_SELECTOR, ".pill")[0].click()
        wait.until(lambda d: lit_pills(d) == ["1x"])

        # Record: Stop, Chapter, Mark and Retake can act now.
        driver.find_element(By.ID, "toggle").click()
        wait.until(lambda d: text("state") == "REC")
        wait.until(lambda d: all(enabled(d, i) for i in ["toggle", "stop", "chapter", "mark", "retake"]))
        driver.save_screenshot(os.path.join(config["screenshots"], "recording.png"))

        # The microphone's meter moves with the virtual microphone's beeps (one a second).
        # The level on the picture (the loudest microphone) moves with them too.
        for key, selector in (("meter_values", '.mic [role="meter"]'), ("picture_level_values", "#sumlevel")):
            meter = driver.find_element(By.CSS_SELECTOR, selector)
            values = set()
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not (max(values, default=-60) > -30
                                                       and min(values, default=0) <= -59):
                values.add(float(meter.get_attribute("aria-valuenow")))
                time.sleep(0.05)
            report[key] = sorted(values)
            assert max(values) > -30 and min(values) <= -59, (key, report[key])

        # Mark: at once, without words; then the page offers to name it.
        driver.find_element(By.ID, "mark").click()
        if config.get("expect_numbered_mark"):
            wait.until(lambda d: d.find_element(By.ID, "markname").is_displayed())
            report["mark_label"] = text("marklabel")
            assert re.fullmatch(r"Name marker \d+", report["mark_label"]), report["mark_label"]
            driver.find_element(By.ID, "marktext").send_keys("the good bit")
            driver.find_element(By.ID, "marksave").click()
            wait.until(lambda d: any("the good bit" in li.text and "(web)" in li.text
                                     for li in d.find_elements(By.CSS_SELECTOR, "#log li")))
            report["mark_log"] = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#log li")
                                  if "mark" in li.text][:3]
            assert not driver.find_element(By.ID, "markname").is_displayed()
        else:
            wait.until(lambda d: any(li.text.startswith("mark") for li in d.find_elements(By.CSS_SELECTOR, "#log li")))
            report["mark_log"] = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#log li")
                                  if li.text.startswith("mark")][:2]

        # Recording time left: once the clip's rate is measured the status has it, and the page shows it.
        if config.get("expect_time_left"):
            wait.until(lambda d: isinstance(get(url, "/status.json").get("time_left_s"), int))
            current = get(url, "/status.json")
            report["time_left_status"] = [current["time_left_s"], current.get("time_left_warning")]
            wait.until(lambda d: d.find_element(By.ID, "timeleft").is_displayed())
            report["time_left_text"] = text("timeleft")
            assert re.fullmatch(r"(\d+ h \d+ min|\d+ min|under 1 min) left", report["time_left_text"]), \
                report["time_left_text"]

        # Paused: Stop and Mark still act; Chapter and Retake do not.
        driver.find_element(By.ID, "toggle").click()
        wait.until(lambda d: text("state") == "PAUSED")
        wait.until(lambda d: not enabled(d, "chapter"))
        report["paused_enabled"] = {i: enabled(driver, i) for i in ["toggle", "stop", "chapter", "mark", "retake"]}
        assert report["paused_enabled"] == {"toggle": True, "stop": True, "chapter": False, "mark": True,
                                            "retake": False}, report["paused_enabled"]
        driver.find_element(By.ID, "stop").click()
        wait.until(lambda d: text("state") == "IDLE")
        wait.until(lambda d: text("lastclip").endswith(".mov"))
        report["last_clip"] = text("lastclip")

        # The saved name wraps only between words, even in a narrow column.
        driver.execute_script("document.getElementById('lastclip').style.width = '120px'")
        wraps = driver.execute_script(WRAPS_JS, driver.find_element(By.ID, "lastclip"))
        report["name_wraps"] = wraps
        assert wraps["breaks"], wraps  # it does wrap at 120 px …
        for before, after in wraps["breaks"]:  # … and only after a separator
            assert before in " -_." or after == " ", wraps

        # A page opened afterwards shows the last clip's thumbnail and the recent clips at once.
        driver.get(url)
        wait.until(lambda d: d.execute_script(
            "const i = document.getElementById('lastthumb'); return i.complete && i.naturalWidth > 0"))
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".recentclip")) == 1)
        report["recent"] = [b.text for b in driver.find_elements(By.CSS_SELECTOR, ".recentclip")]
        assert report["recent"][0].endswith(report["last_clip"][len("saved "):]), report
        driver.find_element(By.CSS_SELECTOR, ".recentclip").click()
        wait.until(lambda d: d.execute_script(
            "const v = document.getElementById('lastvideo'); return v.error !== null || v.readyState >= 1"))
        assert driver.execute_script("return document.getElementById('lastvideo').error") is None

        # Layout: screenshots at three sizes, portrait and landscape.
        report["layout"] = {}
        for name, width, height in SIZES:
            set_viewport(driver, width, height)
            driver.get(url)
            wait.until(lambda d: statuses() > 2 and shows(d, "main"))
            wait.until(lambda d: d.execute_script(
                "return Array.from(document.querySelectorAll('.tile img')).slice(0, 3)"
                ".every((i) => i.complete && i.naturalWidth > 0)"))
            path = os.path.join(config["screenshots"], name + ".png")
            driver.save_screenshot(path)
            print("screenshot: " + path, file=sys.stderr)
            layout = driver.execute_script(LAYOUT_JS, CONTROLS)
            layout["screenshot"] = path
            report["layout"][name] = layout
            if name.startswith("tablet"):
                assert layout["picture_share"] >= 0.6, (name, layout)
            if name.startswith("phone"):
                outside = [c for c in layout["controls"] if c["left"] < 0 or c["top"] < 0
                           or c["right"] > width + 0.5 or c["bottom"] > height + 0.5]
                assert not outside, (name, outside)
            # The sound's level on the picture is in view at every size, whatever is below the fold.
            level = [c for c in layout["controls"] if c["id"] == "sumlevel"]
            assert level and all(c["left"] >= 0 and c["top"] >= 0 and c["right"] <= width + 0.5
                                 and c["bottom"] <= height + 0.5 for c in level), (name, level)
            tiles = [c for c in layout["controls"] if c["id"] in ("wide", "main", "tele", "far")]
            report["layout"][name]["tile_sizes"] = [round(c["right"] - c["left"]) for c in tiles]
            del layout["controls"]

        # PauseCam quits: the page says so within 2 s of losing its event stream and greys out every control.
        set_viewport(driver, 1024, 768)
        driver.get(url)
        wait.until(lambda d: statuses() > 2 and d.find_element(By.ID, "app").get_attribute("data-connected") != "false")
        shell.quit()
        gone = time.monotonic()
        WebDriverWait(driver, 2, poll_frequency=0.02).until(
            lambda d: d.find_element(By.ID, "connection").is_displayed())
        report["disconnected_after"] = round(time.monotonic() - gone, 3)
        report["disconnected_text"] = text("connection")
        assert report["disconnected_text"] == "disconnected — reconnecting…", report["disconnected_text"]
        wait.until(lambda d: d.execute_script(
            "return Array.from(document.querySelectorAll('button, input')).every((e) => e.disabled)"))
        assert driver.execute_script(
            "return Array.from(document.querySelectorAll('.tile')).every((t) => t.getAttribute('aria-disabled') === 'true')")
        # A click that comes anyway (a tile, a key) is answered in words, never with the browser's error.
        driver.execute_script("document.getElementById('toggle').disabled = false;"
                              "document.getElementById('toggle').click()")
        wait.until(lambda d: "not sent" in d.find_element(By.ID, "log").text)
        page_text = driver.find_element(By.TAG_NAME, "body").text
        assert "TypeError" not in page_text and "Failed to fetch" not in page_text, page_text
        driver.save_screenshot(os.path.join(config["screenshots"], "disconnected.png"))

        # PauseCam starts again on the same port: the page comes back by itself.
        shell.start()
        back = time.monotonic()
        wait.until(lambda d: not d.find_element(By.ID, "connection").is_displayed())
        wait.until(lambda d: enabled(d, "toggle") and text("state") == "IDLE")
        report["reconnected_after"] = round(time.monotonic() - back, 3)
        wait.until(lambda d: shows(d, "main"))
        driver.find_element(By.ID, "toggle").click()
        wait.until(lambda d: text("state") == "REC")
        driver.find_element(By.ID, "stop").click()
        wait.until(lambda d: text("state") == "IDLE")
        report["exit_status"] = shell.quit()
    finally:
        driver.quit()
        for process in reversed(processes):
            process.terminate()
            process.wait(timeout=30)
        shell.kill()
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: monitor_trust.py CONFIG")
    try:
        main(json.loads(sys.argv[1]))
    except AssertionError as error:
        sys.exit("check failed: %r" % (error,))
