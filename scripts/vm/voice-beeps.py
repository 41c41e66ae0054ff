#!/usr/bin/env python3
"""The VM test's check of a movie of two voices (scripts/vm/voices-rig.yaml), run on the host by run-vm-test.

The guest played 700 Hz beeps of 100 ms on each whole second into the host voice's loopback PCM and 1300 Hz beeps on
each half second between them into the guest voice's, both streams started together. The movie must have three
AAC tracks titled mix, host, guest; the host track the 700 Hz beeps and not the 1300 Hz ones, the guest track the
opposite, the mix both; in each track its beeps a whole number of seconds apart (a beep missing where a starved
guest's card came too late is told, not failed), the guest's half a second after the host's, each within 10 ms, and
the mix's beeps where the voices' tracks have them.

Prints one line per finding: `say: …` to report, `fail: …` for a failed check. Standard library only: the envelope
of each pitch is the signal shifted to 0 Hz (multiplied by e^-iwt) and averaged twice over 10 ms, whose nulls fall
every 100 Hz — on the other voice's pitch too, 600 Hz away.
Usage: voice-beeps.py MOVIE (exit status 1 when a check failed)
"""
import cmath
import itertools
import json
import math
import subprocess
import sys

RATE = 48_000
PITCHES = {"host": 700, "guest": 1_300}
WINDOW = RATE // 100          # 10 ms
HOP = RATE // 1_000           # the envelope every 1 ms
TOLERANCE = 0.010             # seconds: every spacing within 10 ms of its pattern
EDGE = 0.150                  # seconds: a beep's length; beeps this near the clip's start or end may be cut
OTHER_PITCH_RATIO = 1 / 31.6  # the other voice's pitch at least 30 dB below a track's own


def say(text):
    print("say: " + text)


FAILED = []


def fail(text):
    FAILED.append(text)
    print("fail: " + text)


def tracks(movie):
    """Each audio stream's title (Matroska's title, mov's handler name as FFmpeg 5.1 reads it) and channels."""
    text = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a", "-show_entries",
                           "stream=codec_name,channels:stream_tags=title,handler_name", "-of", "json", movie],
                          capture_output=True, text=True, check=True).stdout
    streams = json.loads(text).get("streams", [])
    return [(s.get("tags", {}).get("title") or s.get("tags", {}).get("handler_name") or "",
             s.get("codec_name"), s.get("channels")) for s in streams]


def samples(movie, track):
    """Audio track `track` decoded to mono 16-bit at 48 kHz (a stereo track's channels averaged)."""
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", movie, "-map", "0:a:%d" % track, "-f", "s16le", "-ac", "1",
                          "-ar", str(RATE), "-"], capture_output=True, check=True).stdout
    return memoryview(raw).cast("h").tolist()


def envelope(signal, hertz):
    """The amplitude of `hertz` in `signal`, every HOP samples, as (time of the window's middle, amplitude): the
    signal shifted to 0 Hz and averaged twice over WINDOW (a triangle of twice its length, whose side lobes are low
    enough that a beep's edges do not leak into the other voice's pitch)."""
    step = -2j * math.pi * hertz / RATE
    total = [0j] + list(itertools.accumulate(x * cmath.exp(step * n) for n, x in enumerate(signal)))
    once = [0j] + list(itertools.accumulate(total[k + WINDOW] - total[k] for k in range(len(signal) - WINDOW)))
    return [((start + WINDOW) / RATE, 2 * abs(once[start + WINDOW] - once[start]) / WINDOW ** 2)
            for start in range(0, len(once) - 1 - WINDOW, HOP)]


def beeps(points, threshold):
    """The middle of each span where the envelope is above `threshold` (crossings interpolated) and its highest
    amplitude, for spans of 50–150 ms that neither start nor end at the track's edges (a beep cut by the clip's start
    or end). A span within EDGE of either edge is left out too: the declick's fade at the clip's end (or start) can
    shorten a beep cut there to a span that still looks whole, with its middle in the wrong place."""
    found, start, peak = [], None, 0
    first, last = (points[0][0], points[-1][0]) if points else (0, 0)
    for (t0, a0), (t1, a1) in zip(points, points[1:]):
        if a0 < threshold <= a1:
            start, peak = t0 + (threshold - a0) / (a1 - a0) * (t1 - t0), a1
        elif a0 >= threshold > a1 and start is not None:
            end = t0 + (a0 - threshold) / (a0 - a1) * (t1 - t0)
            if 0.05 <= end - start <= 0.15 and start > first + EDGE and end < last - EDGE:
                found.append(((start + end) / 2, peak))
            start = None
        elif start is not None:
            peak = max(peak, a1)
    return found


def spaced(name, times, period, where):
    """Fails unless `times` (at least three) follow each other by a whole number of `period`s within TOLERANCE.
    A missing beep (a whole period more) is told, not failed: a guest starved by a busy host can deliver a card's
    sound later than the desk waits for it, and the desk then records silence for that card; what must hold is that
    the sound it did record sits where it was captured."""
    levels = [level for _, level in times]
    times = [t for t, _ in times]
    steps = [b - a for a, b in zip(times, times[1:])]
    say("%s: beeps at %s s (levels %s); spacing %s s" % (where, " ".join("%.4f" % t for t in times),
                                                         " ".join("%.0f" % level for level in levels),
                                                         " ".join("%.4f" % s for s in steps)))
    if len(times) < 3:
        fail("%s: %d %s beeps, expected at least 3 in the 4 s clip" % (where, len(times), name))
    missing = 0
    for step in steps:
        periods = max(1, round(step / period))
        missing += periods - 1
        if abs(step - periods * period) > TOLERANCE:
            fail("%s: %s beeps %.4f s apart, not a multiple of %.1f s within 10 ms" % (where, name, step, period))
    if missing:
        say("%s: %d %s beep%s missing between the first and the last (silence where the card came too late)"
            % (where, missing, name, "" if missing == 1 else "s"))


def main(movie):
    found = tracks(movie)
    say("audio tracks (title, codec, channels): %s" % found)
    titles = [title for title, _, _ in found]
    if titles != ["mix", "host", "guest"]:
        fail("audio tracks titled %s, not mix, host, guest" % titles)
        return
    for title, codec, channels in found:
        wanted = 2 if title == "mix" else 1
        if codec != "aac" or channels != wanted:
            fail("track %s is %s with %s channels, not AAC with %d" % (title, codec, channels, wanted))
    sound = {title: samples(movie, index) for index, title in enumerate(titles)}
    envelopes = {(title, voice): envelope(sound[title], hertz)
                 for title in titles for voice, hertz in PITCHES.items()}
    loudest = {key: max((a for _, a in points), default=0) for key, points in envelopes.items()}
    for title in titles:
        say("%s track: %.1f s; loudest 700 Hz %.0f, 1300 Hz %.0f (of 32768)"
            % (title, len(sound[title]) / RATE, loudest[(title, "host")], loudest[(title, "guest")]))
    beep_times = {}
    for voice in PITCHES:
        other = "guest" if voice == "host" else "host"
        own = loudest[(voice, voice)]
        if own < 1_000:
            fail("the %s track has no %d Hz beeps (loudest %.0f)" % (voice, PITCHES[voice], own))
            return
        if loudest[(voice, other)] > own * OTHER_PITCH_RATIO:
            fail("the %s track has the %s's %d Hz beeps too (%.0f against its own %.0f)"
                 % (voice, other, PITCHES[other], loudest[(voice, other)], own))
        if loudest[("mix", voice)] < own / 10:
            fail("the mix lacks the %s's %d Hz beeps (%.0f against %.0f on its track)"
                 % (voice, PITCHES[voice], loudest[("mix", voice)], own))
        for title in (voice, "mix"):
            # A quarter of the loudest: a beep louder than the rest (a click where sound was joined) leaves the
            # others above it.
            found = beeps(envelopes[(title, voice)], loudest[(title, voice)] / 4)
            spaced(voice, found, 1.0, "%s track, %d Hz" % (title, PITCHES[voice]))
            beep_times[(title, voice)] = [t for t, _ in found]
    # The two cards aligned on the session clock: each guest beep half a second (plus whole seconds, when beeps are
    # missing) after the host's before it.
    for title in ("host", "mix"):
        hosts = beep_times[(title, "host")] if title == "mix" else beep_times[("host", "host")]
        guests = beep_times[(title, "guest")] if title == "mix" else beep_times[("guest", "guest")]
        offsets = [(g - max(h for h in hosts if h < g)) % 1.0 for g in guests if any(h < g for h in hosts)]
        where = "mix" if title == "mix" else "guest track against host track"
        say("%s: guest beeps after the host's by %s s" % (where, " ".join("%.4f" % o for o in offsets)))
        if not offsets:
            fail("%s: no guest beep after a host beep" % where)
        for offset in offsets:
            if abs(offset - 0.5) > TOLERANCE:
                fail("%s: a guest beep %.4f s after the host's, not 0.5 s within 10 ms" % (where, offset))
    # The mix is cut with the voices' tracks: its beeps where theirs are.
    for voice in PITCHES:
        for t in beep_times[("mix", voice)]:
            nearest = min(beep_times[(voice, voice)], key=lambda v: abs(v - t), default=None)
            if nearest is None or abs(nearest - t) > TOLERANCE:
                fail("the mix's %s beep at %.4f s is not on the %s track within 10 ms (nearest: %s)"
                     % (voice, t, voice, "none" if nearest is None else "%.4f s" % nearest))


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except (subprocess.CalledProcessError, OSError, ValueError) as error:
        fail("could not read %s: %s" % (sys.argv[1], error))
    sys.exit(1 if FAILED else 0)
