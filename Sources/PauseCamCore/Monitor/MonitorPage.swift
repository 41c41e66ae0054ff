import Foundation

/// The browser monitor's page, script and style sheet, built into the binary (no network, no framework), and the
/// rig description the script builds its controls from. The page polls `/status.json` four times a second and
/// listens to `/events`; every button sends one command line to `POST /command`. After a save it shows
/// `/last.jpg`, and a tap on it plays `/last.mov` in the page.
public enum MonitorPage {
    /// Only our own origin may provide scripts, styles, pictures and connections.
    public static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self'; connect-src 'self'; style-src 'self'; script-src 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

    /// `/rig.json`: the rig's name, lens roles and optical zooms, zoom presets, the digital zoom limit and whether
    /// pictures are made.
    public static func rigJSON(_ rig: Rig, hasPictures: Bool) -> String {
        let object: [String: Any] = [
            "name": rig.name,
            "lenses": rig.lenses.map { ["name": $0.name, "zoom": $0.zoom] as [String: Any] },
            "zoom_presets": rig.zoomPresets.map { ["name": $0.name, "lens": $0.lens, "digital": $0.digital] as [String: Any] },
            "max_digital_zoom": rig.maxDigitalZoom,
            "pictures": hasPictures,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
              let text = String(data: data, encoding: .utf8) else {
            preconditionFailure("a dictionary of strings and numbers is always JSON")
        }
        return text
    }

    /// `/`: the page.
    public static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
    <title>PauseCam monitor</title>
    <link rel="stylesheet" href="/app.css">
    </head>
    <body>
    <main id="app">
      <section id="monitor">
        <div id="picture">
          <img id="program" alt="program picture">
          <div id="nopicture">no picture yet</div>
          <div id="badge" class="idle">IDLE</div>
          <div id="ev" class="hidden">
            <input id="evslider" type="range" min="-2" max="2" step="0.1" value="0" aria-label="exposure bias in EV">
            <span id="evvalue">0.0 EV</span>
          </div>
          <div id="focusnote"></div>
        </div>
        <div id="tiles"></div>
      </section>
      <section id="controls">
        <h1 id="rigname">PauseCam</h1>
        <div id="readout">
          <span id="state" class="idle">IDLE</span>
          <span id="timer">00:00:00.0</span>
          <span id="scene">scene –</span>
          <span id="dropped">0 dropped</span>
        </div>
        <div id="pills"></div>
        <div id="buttons">
          <button id="toggle" class="big" type="button">● Record</button>
          <button id="stop" type="button">■ Stop</button>
          <button id="chapter" type="button">Chapter</button>
          <button id="mark" type="button">Mark</button>
          <button id="retake" type="button" title="throw the scene being recorded away and record it again">Retake</button>
        </div>
        <div id="lastclip"></div>
        <div id="lastmedia">
          <img id="lastthumb" alt="the last saved clip; tap to play it" title="tap to play">
          <video id="lastvideo" controls playsinline preload="metadata" hidden></video>
        </div>
        <ul id="log"></ul>
      </section>
    </main>
    <script src="/app.js"></script>
    </body>
    </html>

    """

    /// `/app.css`: one column in portrait, picture beside the controls in landscape.
    public static let styleSheet = """
    * { box-sizing: border-box; }
    html, body { margin: 0; height: 100%; background: #111; color: #eee; font: 16px/1.3 system-ui, sans-serif; }
    #app { display: flex; flex-direction: column; gap: 8px; padding: 8px; min-height: 100%; }
    @media (orientation: landscape) {
      #app { display: grid; grid-template-columns: minmax(0, 2fr) minmax(260px, 1fr); align-items: start; }
    }
    #picture { position: relative; width: 100%; aspect-ratio: 16 / 9; background: #000; overflow: hidden;
               border-radius: 6px; touch-action: none; }
    img:not([src]), img.missing { visibility: hidden; }
    #program { width: 100%; height: 100%; object-fit: contain; display: block; }
    #nopicture { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center;
                 color: #888; font-size: 1.2em; }
    #nopicture.hidden { display: none; }
    #badge { position: absolute; top: 8px; left: 8px; padding: 2px 8px; border-radius: 4px; font-weight: bold;
             background: #333; }
    #badge.recording, #state.recording { background: #c00; color: #fff; }
    #badge.paused, #state.paused { background: #c80; color: #000; }
    #ev { position: absolute; display: flex; flex-direction: column; align-items: center; gap: 4px;
          background: rgba(0, 0, 0, 0.5); border-radius: 8px; padding: 6px; }
    #ev.hidden { display: none; }
    #evslider { writing-mode: vertical-lr; direction: rtl; height: 120px; width: 28px; }
    #evvalue { font-size: 12px; }
    #focusnote { position: absolute; bottom: 6px; left: 8px; right: 8px; font-size: 13px; color: #fd8;
                 text-shadow: 0 0 3px #000; }
    #tiles { display: flex; gap: 6px; overflow-x: auto; margin-top: 6px; }
    .tile { flex: 0 0 auto; width: 120px; cursor: pointer; border: 2px solid transparent; border-radius: 4px;
            background: #000; position: relative; }
    .tile.active { border-color: #e33; }
    .tile img { width: 100%; aspect-ratio: 16 / 9; display: block; object-fit: cover; }
    .tile span { position: absolute; bottom: 2px; left: 4px; font-size: 12px; text-shadow: 0 0 3px #000; }
    #controls { display: flex; flex-direction: column; gap: 10px; }
    #rigname { font-size: 1.1em; margin: 0; color: #aaa; }
    #readout { display: flex; flex-wrap: wrap; gap: 10px; align-items: baseline; }
    #state { padding: 2px 8px; border-radius: 4px; background: #333; font-weight: bold; }
    #timer { font: bold 2em ui-monospace, monospace; }
    #pills { display: flex; flex-wrap: wrap; gap: 6px; }
    .pill { border-radius: 999px; padding: 6px 14px; }
    .pill.active { background: #2a6; color: #fff; }
    button { font: inherit; padding: 10px 14px; border: 0; border-radius: 8px; background: #333; color: #eee;
             cursor: pointer; }
    #buttons { display: flex; flex-wrap: wrap; gap: 8px; }
    #toggle.big { flex: 1 1 100%; font-size: 1.6em; padding: 18px; background: #c00; color: #fff; }
    #toggle.recording { background: #c80; color: #000; }
    #lastclip { color: #9c9; word-break: break-all; }
    #lastthumb { max-width: 240px; width: 100%; border-radius: 4px; cursor: pointer; display: block; }
    #lastvideo { width: 100%; border-radius: 4px; background: #000; }
    #log { list-style: none; margin: 0; padding: 0; max-height: 30vh; overflow-y: auto; font-size: 0.9em; }
    #log li { padding: 2px 0; border-bottom: 1px solid #222; }
    #log li.warning, #log li.refused { color: #fb4; }

    """

    /// `/app.js`: status polling, the event stream, the controls and the pictures.
    public static let script = #"""
    "use strict";
    (function () {
      const $ = (id) => document.getElementById(id);
      let rig = null;
      let status = null;
      let lastZoomSent = 0, pendingZoom = null, pendingZoomTimer = 0;

      function log(text, kind) {
        const item = document.createElement("li");
        item.textContent = text;
        if (kind) item.className = kind;
        const list = $("log");
        list.insertBefore(item, list.firstChild);
        while (list.children.length > 50) list.removeChild(list.lastChild);
      }

      async function command(line) {
        try {
          const response = await fetch("/command", { method: "POST", body: line,
                                                     headers: { "Content-Type": "text/plain" } });
          const reply = await response.json();
          if (!reply.ok) log(line + ": " + reply.message, "refused");
          pollStatus();
          return reply;
        } catch (error) {
          log(line + ": " + error, "refused");
          return null;
        }
      }

      function baseName(path) { return String(path).split("/").pop(); }

      function lensZoom(name) {
        const lens = rig && rig.lenses.find((l) => l.name === name);
        return lens ? lens.zoom : 1;
      }

      function showStatus(s) {
        status = s;
        const state = s.state;
        const label = state === "recording" ? "REC" : state === "paused" ? "PAUSED" : "IDLE";
        for (const id of ["state", "badge"]) { $(id).textContent = label; $(id).className = state; }
        const text = s.timer_text || "00:00:00.000";
        $("timer").textContent = text.slice(0, text.length - 2);
        $("timer").dataset.seconds = String(s.timer);
        $("scene").textContent = "scene " + (s.scene || "–");
        $("dropped").textContent = s.dropped_frames + " dropped";
        const toggle = $("toggle");
        toggle.textContent = state === "recording" ? "‖ Pause" : state === "paused" ? "● Resume" : "● Record";
        toggle.className = "big " + state;
        for (const tile of document.querySelectorAll(".tile")) {
          tile.classList.toggle("active", tile.dataset.role === s.lens);
        }
        for (const pill of document.querySelectorAll(".pill")) {
          const active = pill.dataset.lens === s.lens && Math.abs(Number(pill.dataset.digital) - s.zoom) < 0.01;
          pill.classList.toggle("active", active);
        }
      }

      let polling = false;
      async function pollStatus() {
        if (polling) return;
        polling = true;
        try {
          const response = await fetch("/status.json", { cache: "no-store" });
          if (response.ok) showStatus(await response.json());
        } catch (error) {
          // the next poll tries again
        } finally {
          polling = false;
        }
      }

      function listen() {
        const events = new EventSource("/events");
        events.onmessage = (message) => {
          let event;
          try { event = JSON.parse(message.data); } catch (error) { return; }
          if (event.type === "lens_live" || event.type === "focus_at_point") return;  // the command's line says it
          if (event.type === "clip_saved") {
            $("lastclip").textContent = "saved " + baseName(event.file);
            $("lastclip").dataset.file = event.file;
            showLastClip();
          }
          const kind = event.type === "warning" || (event.type === "command" && !event.ok) ? "warning" : "";
          log(event.message, kind);
          if (event.type === "command") pollStatus();
        };
      }

      // The last saved clip: its thumbnail after every save; a tap plays the movie in the page.
      function showLastClip() {
        const stamp = Date.now();
        const video = $("lastvideo");
        video.pause();
        video.hidden = true;
        video.removeAttribute("src");
        const thumb = $("lastthumb");
        thumb.dataset.stamp = String(stamp);
        thumb.src = "/last.jpg?t=" + stamp;
      }

      function playLastClip() {
        const video = $("lastvideo");
        video.src = "/last.mov?t=" + ($("lastthumb").dataset.stamp || Date.now());
        video.hidden = false;
        const playing = video.play();
        if (playing) playing.catch(() => {});
      }

      function watchProgram() {
        const image = $("program");
        const none = $("nopicture");
        if (!rig.pictures) return;
        image.onload = () => { none.classList.add("hidden"); image.classList.remove("missing"); };
        image.onerror = () => {
          none.classList.remove("hidden");
          image.classList.add("missing");
          setTimeout(() => { image.src = "/program.mjpg?t=" + Date.now(); }, 2000);
        };
        image.src = "/program.mjpg";
      }

      function buildTiles() {
        const tiles = $("tiles");
        for (const lens of rig.lenses) {
          const tile = document.createElement("div");
          tile.className = "tile";
          tile.dataset.role = lens.name;
          const image = document.createElement("img");
          image.alt = lens.name;
          const label = document.createElement("span");
          label.textContent = lens.name;
          tile.append(image, label);
          tile.addEventListener("click", () => command("lens " + lens.name));
          tiles.append(tile);
          if (rig.pictures) {
            let busy = false;
            const refresh = () => {
              if (busy) return;
              busy = true;
              image.onload = () => { busy = false; image.classList.remove("missing"); };
              image.onerror = () => { busy = false; image.classList.add("missing"); };
              image.src = "/lens/" + encodeURIComponent(lens.name) + ".jpg?t=" + Date.now();
            };
            refresh();
            setInterval(refresh, 300);
          }
        }
      }

      function buildPills() {
        const pills = $("pills");
        for (const preset of rig.zoom_presets) {
          const pill = document.createElement("button");
          pill.type = "button";
          pill.className = "pill";
          pill.textContent = preset.name;
          pill.dataset.lens = preset.lens;
          pill.dataset.digital = String(preset.digital);
          pill.addEventListener("click", () => command("zoom " + preset.name));
          pills.append(pill);
        }
      }

      function zoomTo(factor) {
        const zooms = rig.lenses.map((l) => l.zoom);
        const lowest = Math.min(...zooms);
        const highest = Math.max(...zooms) * rig.max_digital_zoom;
        pendingZoom = Math.min(highest, Math.max(lowest, factor));
        // At most one zoom command per 150 ms, and the gesture's last factor is always sent (after the wait):
        // a fast pinch or wheel flick ends where the fingers ended, not at the value that happened to get through.
        const wait = lastZoomSent + 150 - Date.now();
        if (wait > 0) {
          if (!pendingZoomTimer) pendingZoomTimer = setTimeout(sendPendingZoom, wait);
          return;
        }
        sendPendingZoom();
      }

      function sendPendingZoom() {
        pendingZoomTimer = 0;
        if (pendingZoom === null) return;
        lastZoomSent = Date.now();
        const factor = pendingZoom;
        pendingZoom = null;
        command("zoom " + factor.toFixed(2));
      }

      function currentFactor() {
        return status ? lensZoom(status.lens) * status.zoom : 1;
      }

      function wireGestures() {
        const picture = $("picture");
        picture.addEventListener("wheel", (event) => {
          event.preventDefault();
          zoomTo(currentFactor() * (event.deltaY < 0 ? 1.1 : 1 / 1.1));
        }, { passive: false });
        let startDistance = 0, startFactor = 1;
        const distance = (touches) => Math.hypot(touches[0].clientX - touches[1].clientX,
                                                 touches[0].clientY - touches[1].clientY);
        picture.addEventListener("touchstart", (event) => {
          if (event.touches.length === 2) { startDistance = distance(event.touches); startFactor = currentFactor(); }
        });
        picture.addEventListener("touchmove", (event) => {
          if (event.touches.length === 2 && startDistance > 0) {
            event.preventDefault();
            zoomTo(startFactor * distance(event.touches) / startDistance);
          }
        }, { passive: false });
        picture.addEventListener("touchend", () => { startDistance = 0; });
      }

      // A tap on the picture: `focus at X Y` for that point of the program picture (the camera's region of
      // interest, or one-shot autofocus), and an EV slider beside the tap point whose value becomes
      // `exposure ±EV`. The reply (which of those happened) is shown on the picture, so a lens without those
      // controls says so instead of staying silent.
      function wireTapToExpose() {
        const picture = $("picture"), ev = $("ev"), slider = $("evslider"), note = $("focusnote");
        let lastSent = 0, timer = null;
        picture.addEventListener("click", async (event) => {
          if (event.target.closest("#ev")) return;
          const box = picture.getBoundingClientRect();
          const x = event.clientX - box.left, y = event.clientY - box.top;
          ev.style.left = Math.max(4, Math.min(box.width - 64, x + 16)) + "px";
          ev.style.top = Math.max(4, Math.min(box.height - 170, y - 80)) + "px";
          ev.classList.remove("hidden");
          slider.value = "0";
          $("evvalue").textContent = "0.0 EV";
          const point = tapPoint(event.clientX, event.clientY);
          const reply = await command("focus at " + point.x.toFixed(3) + " " + point.y.toFixed(3));
          if (reply) note.textContent = reply.message;
        });
        // The tap as a fraction (0…1) of the program picture itself: the image is letterboxed inside the box
        // (object-fit: contain), so the bars are taken off before dividing.
        const tapPoint = (clientX, clientY) => {
          const image = $("program"), box = image.getBoundingClientRect();
          const natural = { width: image.naturalWidth || box.width, height: image.naturalHeight || box.height };
          const scale = Math.min(box.width / natural.width, box.height / natural.height) || 1;
          const shown = { width: natural.width * scale, height: natural.height * scale };
          const left = box.left + (box.width - shown.width) / 2, top = box.top + (box.height - shown.height) / 2;
          const clamp = (value) => Math.max(0, Math.min(1, value));
          return { x: clamp((clientX - left) / shown.width), y: clamp((clientY - top) / shown.height) };
        };
        const sendBias = async () => {
          timer = null;
          lastSent = Date.now();
          const value = Number(slider.value);
          const reply = await command("exposure " + (value >= 0 ? "+" : "") + value.toFixed(1));
          if (reply) note.textContent = reply.message;
        };
        slider.addEventListener("input", () => {
          const value = Number(slider.value);
          $("evvalue").textContent = (value > 0 ? "+" : "") + value.toFixed(1) + " EV";
          if (timer) return;
          timer = setTimeout(sendBias, Math.max(0, 150 - (Date.now() - lastSent)));
        });
      }

      async function start() {
        $("toggle").addEventListener("click", () => command("toggle"));
        $("stop").addEventListener("click", () => command("stop"));
        $("chapter").addEventListener("click", () => command("chapter"));
        $("mark").addEventListener("click", () => command("mark"));
        $("retake").addEventListener("click", () => command("retake"));
        $("lastthumb").addEventListener("click", playLastClip);
        const response = await fetch("/rig.json", { cache: "no-store" });
        rig = await response.json();
        $("rigname").textContent = rig.name;
        document.title = rig.name + " — PauseCam";
        buildTiles();
        buildPills();
        wireGestures();
        wireTapToExpose();
        watchProgram();
        listen();
        pollStatus();
        setInterval(pollStatus, 250);
      }

      start();
    })();

    """#
}
