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

  // The connection to PauseCam: the page is connected while its event stream is open and a status came within
  // DISCONNECTED_AFTER_MS. Otherwise it says "disconnected — reconnecting…", greys out every control, and keeps
  // trying; when PauseCam answers again (restarted, or the network back) the page carries on, or reloads itself
  // when the rig it finds is not the one it was built for.
  const DISCONNECTED_AFTER_MS = 1500;
  let connected = true, eventsOpen = false, lastStatusAt = 0, rigText = "", events = null, reconnectTimer = 0;

  function setConnected(on) {
    if (on === connected) return;
    connected = on;
    document.body.classList.toggle("disconnected", !on);
    $("connection").hidden = on;
    $("app").dataset.connected = on ? "true" : "false";
    updateEnabled();
    if (on) recovered();
  }

  const pageStartedAt = Date.now();
  function checkConnection() {
    const now = Date.now();
    if (eventsOpen && now - lastStatusAt < DISCONNECTED_AFTER_MS) { setConnected(true); return; }
    if (now - Math.max(lastStatusAt, pageStartedAt) >= DISCONNECTED_AFTER_MS) setConnected(false);
  }

  async function recovered() {
    try {
      const response = await fetch("/rig.json", { cache: "no-store" });
      const text = await response.text();
      if (text !== rigText) { location.reload(); return; }
    } catch (error) {
      return;  // the next status decides again
    }
    const image = $("program");
    if (rig && rig.pictures) image.src = "/program.mjpg?t=" + Date.now();
    loadRecentClips();
  }

  async function command(line) {
    if (!connected) {
      log(line + ": not sent — PauseCam is disconnected; reconnecting…", "refused");
      return null;
    }
    try {
      const response = await fetch("/command", { method: "POST", body: line,
                                                 headers: { "Content-Type": "text/plain" } });
      const reply = await response.json();
      if (!reply.ok) log(line + ": " + reply.message, "refused");
      pollStatus();
      return reply;
    } catch (error) {
      // The fetch failed: PauseCam quit or the network went. Say so in words, never the browser's error.
      log(line + ": not sent — PauseCam does not answer; reconnecting…", "refused");
      lastStatusAt = 0;
      setConnected(false);
      return null;
    }
  }

  function baseName(path) { return String(path).split("/").pop(); }

  // A file name that may wrap only between its words: a break opportunity after each space, dash, underscore and
  // dot, and none inside a word (the style sheet keeps words whole).
  function showFileName(element, prefix, name) {
    element.textContent = prefix;
    const parts = String(name).split(/(?<=[ \-_.])/);
    for (const part of parts) {
      element.append(document.createTextNode(part));
      element.append(document.createElement("wbr"));
    }
  }

  function lensZoom(name) {
    const lens = rig && rig.lenses.find((l) => l.name === name);
    return lens ? lens.zoom : 1;
  }

  // Controls that cannot act now are disabled: all of them while disconnected; Stop, Mark while no clip records;
  // Chapter and Retake unless recording (not paused).
  function canAct(id) {
    const state = status ? status.state : "idle";
    switch (id) {
      case "stop": case "mark": return state === "recording" || state === "paused";
      case "chapter": case "retake": return state === "recording";
      case "toggle": return state !== "stopping";
      default: return true;
    }
  }

  function updateEnabled() {
    for (const control of document.querySelectorAll("button, input")) {
      control.disabled = !connected || !canAct(control.id);
    }
    for (const tile of document.querySelectorAll(".tile")) {
      tile.setAttribute("aria-disabled", connected ? "false" : "true");
    }
  }

  // The lenses' entries in the status: names (strings), or objects with `name` and, where a tally source is wired,
  // `tally` ("program", "preview" or "off").
  function tallyOf(s, name) {
    for (const entry of s.lenses || []) {
      if (entry && typeof entry === "object" && entry.name === name && typeof entry.tally === "string") {
        return entry.tally;
      }
    }
    return null;
  }

  // Lenses holding their last picture (told by `lens_holding`, over when the lens is live again).
  const holding = new Set();

  function showTiles(s) {
    const withCamera = Array.isArray(s.lenses_with_camera) ? new Set(s.lenses_with_camera) : null;
    // With a tally in the status, red and green are the tally's (on air, next); the active lens is framed white.
    $("tiles").classList.toggle("tallied", (s.lenses || []).some((entry) => entry && typeof entry.tally === "string"));
    for (const tile of document.querySelectorAll(".tile")) {
      const name = tile.dataset.role;
      const active = name === s.lens;
      tile.classList.toggle("active", active);
      const tally = tallyOf(s, name);
      tile.dataset.tally = tally || (active ? "active" : "");
      tile.classList.toggle("program", tally === "program");
      tile.classList.toggle("preview", tally === "preview");
      const note = withCamera && !withCamera.has(name) ? "no camera"
        : holding.has(name) ? "holding last picture" : "";
      tile.classList.toggle("nocamera", note === "no camera");
      tile.classList.toggle("holding", note === "holding last picture");
      const noteElement = tile.querySelector(".tilenote");
      if (noteElement.textContent !== note) noteElement.textContent = note;
      tile.querySelector(".onair").hidden = !active;
    }
  }

  // The lit pill is the preset whose zoom (its lens's zoom × its digital zoom) is the zoom in effect, as the
  // status gives it; none when no preset matches. Of presets equal in zoom, those on the active lens.
  function showPills(s) {
    const pills = Array.from(document.querySelectorAll(".pill"));
    const matching = pills.filter((pill) => Math.abs(Number(pill.dataset.total) - Number(s.zoom)) < 0.006);
    const onLens = matching.filter((pill) => pill.dataset.lens === s.lens);
    const lit = new Set(onLens.length > 0 ? onLens : matching);
    for (const pill of pills) {
      pill.classList.toggle("active", lit.has(pill));
      pill.setAttribute("aria-pressed", lit.has(pill) ? "true" : "false");
    }
  }

  // "1 h 12 min left", from the status's `time_left_s` (null when unknown); warning style at 10 minutes.
  function timeLeftText(seconds) {
    const minutes = Math.floor(seconds / 60);
    if (minutes < 1) return "under 1 min left";
    const hours = Math.floor(minutes / 60);
    return hours > 0 ? hours + " h " + (minutes % 60) + " min left" : minutes + " min left";
  }

  function showTimeLeft(s) {
    const element = $("timeleft");
    const seconds = s.time_left_s;
    if (typeof seconds !== "number" || !isFinite(seconds)) { element.hidden = true; return; }
    element.hidden = false;
    element.textContent = timeLeftText(Math.max(0, seconds));
    const warning = typeof s.time_left_warning === "boolean" ? s.time_left_warning : seconds <= 600;
    element.classList.toggle("warning", warning);
    element.title = warning ? "little recording time left on this disk" : "recording time left on this disk";
  }

  // The EV slider is offered only on a lens that can have an exposure control (a real camera's) and has its
  // camera now.
  function exposureAvailable(s) {
    const lens = rig && rig.lenses.find((l) => l.name === s.lens);
    if (!lens || !lens.controls) return false;
    return !Array.isArray(s.lenses_with_camera) || s.lenses_with_camera.includes(s.lens);
  }

  // Which PauseCam this is: the rig's name and the machine's (the status's `host`), in the header and the tab.
  function showIdentity(s) {
    const machine = typeof s.host === "string" && s.host ? s.host : "";
    const title = (s.rig || rig.name) + (machine ? " on " + machine : "") + " — PauseCam";
    if (document.title !== title) document.title = title;
    const text = machine ? "on " + machine : "";
    if ($("machine").textContent !== text) $("machine").textContent = text;
  }

  let statusesShown = 0;
  function showStatus(s) {
    status = s;
    showIdentity(s);
    $("app").dataset.statuses = String(++statusesShown);
    const state = s.state;
    const label = state === "recording" ? "REC" : state === "paused" ? "PAUSED" : "IDLE";
    $("state").textContent = label;
    $("state").className = state;
    const text = s.timer_text || "00:00:00.000";
    $("timer").textContent = text.slice(0, text.length - 2);
    $("timer").dataset.seconds = String(s.timer);
    $("scene").textContent = "scene " + (s.scene || "–");
    $("dropped").textContent = s.dropped_frames + " dropped";
    const toggle = $("toggle");
    const word = state === "recording" ? "Pause" : state === "paused" ? "Resume" : "Record";
    toggle.querySelector(".shutterlabel").textContent = word;
    toggle.setAttribute("aria-label", word);
    toggle.className = "shutter " + state;
    showTiles(s);
    showPills(s);
    showTimeLeft(s);
    if (!exposureAvailable(s)) $("ev").classList.add("hidden");
    showMicrophone(s.microphone);
    for (const voice of s.voices || []) showVoice(voice);
    showLoudest(s);
    showFollow(s.follow);
    showLive(s.live || []);
    updateEnabled();
  }

  // The live destinations of a rig with `live:`: a badge each (live, lost, connecting or off), its bitrate and its
  // dropped frames, and a toggle that sends `live on NAME` / `live off NAME`. As with the voices, everything shown
  // comes from the status: a click only sends the line, and the next status shows what the engine made of it.
  const liveRows = new Map();

  function liveState(sink) {
    if (!sink.on) return "off";
    if (sink.live) return "live";
    return sink.outages > 0 ? "lost" : "connecting";
  }

  function rateText(bitsPerSecond) {
    if (!(bitsPerSecond > 0)) return "–";
    return bitsPerSecond >= 1e6 ? (bitsPerSecond / 1e6).toFixed(1) + " Mbit/s"
                                : Math.round(bitsPerSecond / 1e3) + " kbit/s";
  }

  function liveRow(name) {
    let row = liveRows.get(name);
    if (row) return row;
    const element = (tag, className, text) => {
      const made = document.createElement(tag);
      made.className = className;
      if (text !== undefined) made.textContent = text;
      return made;
    };
    const root = element("div", "dest");
    root.dataset.live = name;
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", "live " + name);
    const badge = element("span", "livebadge", "off");
    badge.setAttribute("role", "status");
    badge.setAttribute("aria-label", name + " is off");
    const label = element("span", "name", name);
    const rate = element("span", "rate", "–");
    rate.setAttribute("aria-label", name + " bitrate");
    const drops = element("span", "drops", "0 dropped");
    drops.setAttribute("aria-label", name + " dropped frames");
    const toggle = element("button", "livetoggle", "Go live");
    toggle.type = "button";
    toggle.setAttribute("aria-pressed", "false");
    toggle.setAttribute("aria-label", "stream to " + name);
    root.append(badge, label, rate, drops, toggle);
    row = { root, badge, rate, drops, toggle, sink: null };
    toggle.addEventListener("click", () => {
      if (row.sink) command("live " + (row.sink.on ? "off " : "on ") + name);
    });
    liveRows.set(name, row);
    $("live").append(root);
    return row;
  }

  function showLive(sinks) {
    $("live").hidden = sinks.length === 0;
    for (const sink of sinks) {
      const row = liveRow(String(sink.name));
      row.sink = sink;
      const state = liveState(sink);
      row.root.dataset.state = state;
      row.badge.textContent = state === "live" ? "LIVE" : state;
      row.badge.className = "livebadge " + state;
      row.badge.setAttribute("aria-label", sink.name + " is " + state);
      row.rate.textContent = state === "live" ? rateText(sink.bitrate) : "–";
      const dropped = Number(sink.dropped_frames) || 0;
      row.drops.textContent = dropped + " dropped";
      row.drops.classList.toggle("some", dropped > 0);
      row.toggle.setAttribute("aria-pressed", sink.on ? "true" : "false");
      row.toggle.textContent = sink.on ? "Stop live" : "Go live";
    }
  }

  // The voices of a rig whose `audio:` is a list: a strip each with its level (the bar), the highest peak of the
  // last 2 s (the hold mark), a clipping light, a speaking dot, mute and gain − / +. Everything a strip shows comes
  // from the status: a click only sends the command, and the next status shows what the engine made of it.
  const voiceStrips = new Map();
  const GAIN_STEP = 3, GAIN_LIMIT = 40, METER_FLOOR = -60;

  function meterPercent(dbfs) {
    if (dbfs === null || dbfs === undefined || !isFinite(dbfs)) return 0;
    return Math.max(0, Math.min(100, (dbfs - METER_FLOOR) / -METER_FLOOR * 100));
  }

  function decibelText(value) {
    const rounded = Math.round(value * 10) / 10;
    return (rounded > 0 ? "+" : "") + rounded + "dB";
  }

  function voiceStrip(name) {
    let strip = voiceStrips.get(name);
    if (strip) return strip;
    const element = (tag, className, text) => {
      const made = document.createElement(tag);
      if (className) made.className = className;
      if (text !== undefined) made.textContent = text;
      return made;
    };
    const root = element("div", "voice");
    root.dataset.voice = name;
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", "voice " + name);
    const speaking = element("span", "speaking");
    speaking.setAttribute("role", "img");
    speaking.setAttribute("aria-label", name + " is quiet");
    const label = element("span", "name", name);
    const meter = element("div", "meter");
    meter.setAttribute("role", "meter");
    meter.setAttribute("aria-label", name + " level in dBFS");
    meter.setAttribute("aria-valuemin", String(METER_FLOOR));
    meter.setAttribute("aria-valuemax", "0");
    meter.setAttribute("aria-valuenow", String(METER_FLOOR));
    const level = element("div", "level");
    const hold = element("div", "hold");
    meter.append(level, hold);
    const clip = element("span", "clip");
    clip.setAttribute("role", "img");
    clip.setAttribute("aria-label", name + " is not clipping");
    const state = element("span", "voicestate");
    const mute = element("button", "mute", "Mute");
    mute.type = "button";
    mute.setAttribute("aria-pressed", "false");
    mute.setAttribute("aria-label", "mute " + name);
    const down = element("button", "gaindown", "−");
    down.type = "button";
    down.setAttribute("aria-label", name + " gain down " + GAIN_STEP + " dB");
    const gain = element("span", "gain", "0dB");
    gain.setAttribute("aria-label", name + " gain");
    const up = element("button", "gainup", "+");
    up.type = "button";
    up.setAttribute("aria-label", name + " gain up " + GAIN_STEP + " dB");
    const head = element("div", "voicehead");
    const buttons = element("span", "voicebuttons");
    buttons.append(mute, down, gain, up);
    head.append(speaking, label, clip, state, buttons);
    root.append(head, meter);
    strip = { root, speaking, meter, level, hold, clip, state, mute, gain, voice: null, target: null };
    mute.addEventListener("click", () => {
      if (!strip.voice) return;
      command("voice " + name + (strip.voice.muted ? " unmute" : " mute"));
    });
    const step = async (sign) => {
      if (!strip.voice) return;
      // Quick clicks add up: the next step starts from the gain asked last until the status shows it.
      const from = strip.target !== null ? strip.target : strip.voice.gain_db;
      const to = Math.max(-GAIN_LIMIT, Math.min(GAIN_LIMIT, from + sign * GAIN_STEP));
      if (to === from) return;
      strip.target = to;
      const reply = await command("voice " + name + " gain " + decibelText(to));
      if (!reply || !reply.ok) strip.target = null;
    };
    down.addEventListener("click", () => step(-1));
    up.addEventListener("click", () => step(1));
    voiceStrips.set(name, strip);
    const list = $("voices");
    list.append(root);
    list.hidden = false;
    return strip;
  }

  function showVoice(voice) {
    const strip = voiceStrip(voice.name);
    strip.voice = voice;
    const name = voice.name;
    const peak = voice.peak_dbfs, hold = voice.hold_dbfs;
    strip.level.style.width = meterPercent(peak).toFixed(1) + "%";
    strip.level.classList.toggle("loud", peak !== null && peak > -12);
    strip.level.classList.toggle("hot", peak !== null && peak > -3);
    strip.meter.setAttribute("aria-valuenow", String(peak === null ? METER_FLOOR : Math.max(METER_FLOOR, peak)));
    strip.meter.setAttribute("aria-valuetext", peak === null ? "silent" : peak.toFixed(1) + " dBFS");
    strip.hold.hidden = hold === null;
    strip.hold.style.left = meterPercent(hold).toFixed(1) + "%";
    strip.clip.classList.toggle("on", !!voice.clipping);
    strip.clip.setAttribute("aria-label", name + (voice.clipping ? " is clipping" : " is not clipping"));
    strip.speaking.classList.toggle("on", !!voice.speaking);
    strip.speaking.setAttribute("aria-label", name + (voice.speaking ? " is speaking" : " is quiet"));
    strip.root.classList.toggle("muted", !!voice.muted);
    strip.root.classList.toggle("gone", !!voice.gone);
    const silent = silence.update(name, peak);
    strip.root.classList.toggle("silent", silent && !voice.gone && !voice.muted);
    // The clipping light says clipping; the words are for what lasts (gone, silent), so the strip's buttons keep
    // their places while a voice clips on and off.
    strip.state.textContent = voice.gone ? "gone" : silent && !voice.muted ? "silent" : "";
    strip.mute.setAttribute("aria-pressed", voice.muted ? "true" : "false");
    strip.mute.textContent = voice.muted ? "Muted" : "Mute";
    strip.gain.textContent = decibelText(voice.gain_db);
    if (strip.target !== null && Math.abs(voice.gain_db - strip.target) < 0.05) strip.target = null;
  }

  // Silence: a level under SILENT_BELOW dBFS (or none) for SILENT_AFTER_MS, per microphone or voice.
  const SILENT_BELOW = -60, SILENT_AFTER_MS = 10000;
  const silence = {
    heard: new Map(),
    update(name, peak) {
      const now = Date.now();
      if (!this.heard.has(name) || (peak !== null && peak !== undefined && peak > SILENT_BELOW)) this.heard.set(name, now);
      return now - this.heard.get(name) >= SILENT_AFTER_MS;
    },
  };

  // The loudest microphone or voice as a small level on the picture itself, so the sound can be judged from across
  // the room on any screen, even where the strips below are out of view. Absent on a rig without sound.
  function showLoudest(s) {
    const peaks = [];
    if (s.microphone) peaks.push(s.microphone.peak_dbfs);
    for (const voice of s.voices || []) peaks.push(voice.peak_dbfs);
    const meter = $("sumlevel");
    meter.hidden = peaks.length === 0;
    if (meter.hidden) return;
    const numbers = peaks.filter((p) => typeof p === "number" && isFinite(p));
    const peak = numbers.length ? Math.max(...numbers) : null;
    const level = meter.querySelector(".level");
    level.style.width = meterPercent(peak).toFixed(1) + "%";
    level.classList.toggle("loud", peak !== null && peak > -12);
    level.classList.toggle("hot", peak !== null && peak > -3);
    meter.setAttribute("aria-valuenow", String(peak === null ? METER_FLOOR : Math.max(METER_FLOOR, peak)));
    meter.setAttribute("aria-valuetext", peak === null ? "silent" : peak.toFixed(1) + " dBFS");
  }

  // The single microphone of a rig without voices: a meter, a clipping light (lit for 2 s whenever the clip's
  // count of clipped samples grows) and the silence warning. Absent without a microphone.
  let microphoneStrip = null, clippedBefore, clippedAt = 0;  // clippedBefore: undefined until a first status

  function buildMicrophoneStrip() {
    const root = document.createElement("div");
    root.className = "mic";
    root.dataset.mic = "microphone";
    const head = document.createElement("div");
    head.className = "michead";
    const label = document.createElement("span");
    label.className = "name";
    label.textContent = "microphone";
    const clip = document.createElement("span");
    clip.className = "clip";
    clip.setAttribute("role", "img");
    clip.setAttribute("aria-label", "microphone is not clipping");
    const state = document.createElement("span");
    state.className = "micstate";
    head.append(label, clip, state);
    const meter = document.createElement("div");
    meter.className = "meter";
    meter.setAttribute("role", "meter");
    meter.setAttribute("aria-label", "microphone level in dBFS");
    meter.setAttribute("aria-valuemin", String(METER_FLOOR));
    meter.setAttribute("aria-valuemax", "0");
    meter.setAttribute("aria-valuenow", String(METER_FLOOR));
    const level = document.createElement("div");
    level.className = "level";
    meter.append(level);
    root.append(head, meter);
    $("sound").append(root);
    return { root, clip, state, meter, level };
  }

  function showMicrophone(microphone) {
    $("sound").hidden = !microphone;
    if (!microphone) return;
    if (!microphoneStrip) microphoneStrip = buildMicrophoneStrip();
    const strip = microphoneStrip;
    const peak = typeof microphone.peak_dbfs === "number" ? microphone.peak_dbfs : null;
    strip.level.style.width = meterPercent(peak).toFixed(1) + "%";
    strip.level.classList.toggle("loud", peak !== null && peak > -12);
    strip.level.classList.toggle("hot", peak !== null && peak > -3);
    strip.meter.setAttribute("aria-valuenow", String(peak === null ? METER_FLOOR : Math.max(METER_FLOOR, peak)));
    strip.meter.setAttribute("aria-valuetext", peak === null ? "silent" : peak.toFixed(1) + " dBFS");
    const clipped = typeof microphone.clipped_samples === "number" ? microphone.clipped_samples : null;
    if (clippedBefore !== undefined && clipped !== null && clipped > (clippedBefore || 0)) clippedAt = Date.now();
    clippedBefore = clipped;
    const clipping = Date.now() - clippedAt < 2000 || (peak !== null && peak >= -0.1);
    strip.clip.classList.toggle("on", clipping);
    strip.clip.setAttribute("aria-label", clipping ? "microphone is clipping" : "microphone is not clipping");
    const silent = silence.update("\u0000microphone", peak);
    strip.root.classList.toggle("silent", silent);
    strip.root.classList.toggle("clipping", clipping);
    strip.state.textContent = clipping ? "clipping — lower the gain" : silent ? "silent — is the microphone on?" : "";
  }

  // `follow` is absent from the status of a rig without `follow:`; the toggle shows only while the status has it.
  function showFollow(follow) {
    const box = $("follow"), toggle = $("followtoggle");
    box.hidden = typeof follow !== "boolean";
    if (box.hidden) return;
    toggle.setAttribute("aria-pressed", follow ? "true" : "false");
    toggle.textContent = follow ? "Follow: on" : "Follow: off";
    toggle.classList.toggle("on", follow);
  }

  let polling = false;
  async function pollStatus() {
    if (polling) return;
    polling = true;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), DISCONNECTED_AFTER_MS);
    try {
      const response = await fetch("/status.json", { cache: "no-store", signal: abort.signal });
      if (response.ok) {
        const s = await response.json();
        lastStatusAt = Date.now();
        showStatus(s);
      }
    } catch (error) {
      // PauseCam does not answer: checkConnection says so once the last status is too old.
    } finally {
      clearTimeout(timer);
      polling = false;
      checkConnection();
    }
  }

  function listen() {
    if (events) events.close();
    events = new EventSource("/events");
    events.onopen = () => { eventsOpen = true; checkConnection(); };
    events.onerror = () => {
      eventsOpen = false;
      setConnected(false);
      // A stream the browser gave up on (PauseCam answered with an error while starting) is opened anew.
      if (events.readyState === EventSource.CLOSED && !reconnectTimer) {
        reconnectTimer = setTimeout(() => { reconnectTimer = 0; listen(); }, 1000);
      }
    };
    events.onmessage = (message) => {
      let event;
      try { event = JSON.parse(message.data); } catch (error) { return; }
      if (event.type === "lens_holding" && event.lens) { holding.add(event.lens); if (status) showTiles(status); }
      if ((event.type === "lens_live" || event.type === "lens_switched" || event.type === "camera_attached"
           || event.type === "camera_recovered" || event.type === "camera_lost") && event.lens) {
        holding.delete(event.lens);
        if (status) showTiles(status);
      }
      if (event.type === "lens_live" || event.type === "focus_at_point") return;  // the command's line says it
      if (event.type === "clip_saved") {
        showFileName($("lastclip"), "saved ", baseName(event.file));
        $("lastclip").dataset.file = event.file;
        showLastClip();
        loadRecentClips();
      }
      const kind = event.type === "warning" || (event.type === "command" && !event.ok) ? "warning" : "";
      log(event.message, kind);
      if (event.type === "command") pollStatus();
    };
  }

  // The last saved clip: its thumbnail after every save and on load (when this session saved one); a tap plays
  // the movie in the page.
  function showLastClip() {
    const stamp = Date.now();
    const video = $("lastvideo");
    video.pause();
    video.hidden = true;
    video.removeAttribute("src");
    const thumb = $("lastthumb");
    thumb.dataset.stamp = String(stamp);
    thumb.onerror = () => thumb.classList.add("missing");
    thumb.onload = () => thumb.classList.remove("missing");
    thumb.src = "/last.jpg?t=" + stamp;
  }

  function playLastClip() {
    playMovie("/last.mov?t=" + ($("lastthumb").dataset.stamp || Date.now()));
  }

  function playMovie(address) {
    const video = $("lastvideo");
    video.src = address;
    video.hidden = false;
    const playing = video.play();
    if (playing) playing.catch(() => {});
  }

  // The last few clips of this session (`/clips.json`, newest first): a button each that plays it.
  async function loadRecentClips() {
    let clips = [];
    try {
      const response = await fetch("/clips.json", { cache: "no-store" });
      if (response.ok) clips = await response.json();
    } catch (error) {
      return;
    }
    const list = $("recent");
    list.replaceChildren();
    list.hidden = clips.length === 0;
    clips.forEach((clip, index) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "recentclip";
      button.dataset.number = String(clip.number);
      showFileName(button, "▶ ", clip.name);
      button.addEventListener("click", () => playMovie("/clips/" + clip.number + ".mov"));
      list.append(button);
      if (index === 0 && !$("lastclip").dataset.file) {
        showFileName($("lastclip"), "saved ", clip.name);
        $("lastclip").dataset.file = clip.name;
        showLastClip();
      }
    });
    updateEnabled();
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
      tile.setAttribute("role", "button");
      tile.setAttribute("aria-label", "lens " + lens.name);
      const image = document.createElement("img");
      image.alt = lens.name;
      const label = document.createElement("span");
      label.className = "tilename";
      label.textContent = lens.name;
      const note = document.createElement("span");
      note.className = "tilenote";
      const onAir = document.createElement("span");
      onAir.className = "onair";
      onAir.textContent = "● ON";
      onAir.hidden = true;
      tile.append(image, label, note, onAir);
      tile.addEventListener("click", () => { if (connected) command("lens " + lens.name); });
      tiles.append(tile);
      if (rig.pictures) {
        let busy = false;
        const refresh = () => {
          if (busy || !connected) return;
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
      pill.dataset.total = String(lensZoom(preset.lens) * preset.digital);
      pill.setAttribute("aria-pressed", "false");
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
      if (event.target.closest("#ev, #pills, #toggle")) return;
      const box = picture.getBoundingClientRect();
      const x = event.clientX - box.left, y = event.clientY - box.top;
      ev.style.left = Math.max(4, Math.min(box.width - 64, x + 16)) + "px";
      ev.style.top = Math.max(4, Math.min(box.height - 170, y - 80)) + "px";
      ev.classList.toggle("hidden", !(status && exposureAvailable(status)));
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

  // Mark marks at once (`mark` with no text: a numbered marker), then offers to name it: the reply gives the
  // marker's number, and the name goes out as `mark rename N TEXT`.
  let markNumber = null;
  async function markNow() {
    const reply = await command("mark");
    if (!reply || !reply.ok) return;
    const found = /mark rename (\d+)|\(marker (\d+)\)/.exec(reply.message);
    markNumber = found ? Number(found[1] || found[2]) : null;
    const form = $("markname");
    $("marklabel").textContent = markNumber !== null ? "Name marker " + markNumber : "Name the mark";
    $("marktext").value = "";
    form.hidden = markNumber === null;
  }

  function wireMarkName() {
    const form = $("markname");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const text = $("marktext").value.trim();
      if (text && markNumber !== null) await command("mark rename " + markNumber + " " + text);
      form.hidden = true;
    });
    $("markskip").addEventListener("click", () => { form.hidden = true; });
  }

  async function start() {
    $("toggle").addEventListener("click", () => command("toggle"));
    $("stop").addEventListener("click", () => command("stop"));
    $("chapter").addEventListener("click", () => command("chapter"));
    $("mark").addEventListener("click", markNow);
    $("retake").addEventListener("click", () => command("retake"));
    $("lastthumb").addEventListener("click", playLastClip);
    $("followtoggle").addEventListener("click", () => {
      if (status && typeof status.follow === "boolean") command(status.follow ? "follow off" : "follow on");
    });
    wireMarkName();
    updateEnabled();
    let response;
    for (;;) {
      try {
        response = await fetch("/rig.json", { cache: "no-store" });
        if (response.ok) break;
      } catch (error) {
        // PauseCam is not there yet
      }
      setConnected(false);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    rigText = await response.text();
    rig = JSON.parse(rigText);
    $("rigname").textContent = rig.name;
    document.title = rig.name + " — PauseCam";
    buildTiles();
    buildPills();
    for (const name of rig.voices || []) voiceStrip(name);
    wireGestures();
    wireTapToExpose();
    watchProgram();
    listen();
    pollStatus();
    loadRecentClips();
    // Four statuses a second, at irregular moments: a level is the peak of the last 100 ms, and polls locked to
    // a whole-second rhythm would miss (or always hit) a sound that repeats every second, like a sync beep.
    const poll = () => { pollStatus(); setTimeout(poll, 175 + Math.random() * 150); };
    setTimeout(poll, 250);
    setInterval(checkConnection, 250);
  }

  start();
})();
