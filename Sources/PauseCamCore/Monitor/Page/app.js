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
