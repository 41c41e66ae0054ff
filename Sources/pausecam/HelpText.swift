/// The `--help` texts: they teach, with examples, rather than only list.
enum HelpText {
    /// The commands `pausecam help COMMAND` has a page for.
    static let topics = ["run", "check", "devices", "doctor", "shell", "ctl", "export"]

    static let main = """
    pausecam — record one continuous movie from a rig of USB cameras ("lenses") and a microphone, with pause and
    resume that cut the gaps out, lens switches, zoom presets, chapters per scene and a JSON sidecar.

    USAGE
      pausecam shell RIG            interactive shell: record, pause, resume, lens, zoom, stop…  (also: pausecam RIG)
      pausecam run RIG [--script NAME] [--output DIR] [--clock real|simulated]
                                    run one of the rig's scene scripts unattended
      pausecam check RIG…           validate rig files; errors as FILE:LINE:COLUMN: message (exit 2)
      pausecam devices [--json] [--rig RIG]
                                    list cameras, their formats and controls, and which lens each serves
      pausecam doctor [RIG] [--output DIR] [--measure]
                                    why won't my rig work: permissions, cameras, USB plan, sound, disk… (exit 1
                                    with the blockers)
      pausecam ctl [--rig RIG | --socket PATH] [--timeout SECONDS] COMMAND…
      pausecam ctl --group NAME [--broker URL] COMMAND…
                                    control a running shell or run from another process (toggle, chapter, mark…)
      pausecam export CLIP.json --format FORMAT [--output FILE] [--start-timecode HH:MM:SS:FF]
                                    scenes and markers for editors: edl, fcpxml, csv, ffmetadata, youtube
      pausecam export --multicam A.json B.json… --format fcpxml
                                    one multicam clip of a group's clips, an angle per member
      pausecam help [COMMAND]       this text, or one command's
      pausecam --version            the version

    EXAMPLES
      pausecam run rigs/virtual.yaml --script demo       # a 6 s demo on virtual lenses, no hardware needed
      pausecam run rigs/virtual.yaml --script interview --clock simulated   # runs as fast as the encoder allows
      pausecam check rigs/*.yaml
      pausecam export ~/Videos/PauseCam/clip.json --format edl    # markers for DaVinci Resolve
      printf 'record\\nwait 2s\\npause\\nwait 1s\\nresume\\nwait 2s\\nstop\\n' | pausecam shell rigs/virtual.yaml --clock simulated

    FILES
      Movies go to the rig's output.directory (default ~/Videos/PauseCam; --output overrides) as NAME.mov, with
      NAME.json (the sidecar) and NAME.jpg (a thumbnail). While recording the movie is NAME.mov.partial, which
      survives a crash. An existing file is never overwritten: NAME-2.mov, NAME-3.mov… are used instead.

    Ctrl-C, SIGTERM and SIGHUP stop and save the clip. See README.md for the rig file format.
    SIGUSR1 toggles (record, pause, resume) and SIGUSR2 marks, like `pausecam ctl toggle` and `pausecam ctl mark`.

    EXIT STATUS
    \(exitStatus)
    """

    /// The exit statuses, the same for `run` and a piped `shell`: what a caller (cron, systemd, CI) can rely on.
    static let exitStatus = """
      0    success
      1    a command or the recording failed (a failed script step, an output folder that cannot be written,
           a full disk); the clip recorded so far is saved
      2    usage or rig-file error: nothing was recorded
      128+N  ended by signal N, the clip saved: 130 SIGINT (Ctrl-C), 143 SIGTERM, 129 SIGHUP
    """

    static let run = """
    pausecam run RIG [--script NAME] [--output DIR] [--clock real|simulated] [--keep-going] [--quiet]

    Runs one scene script of the rig file RIG unattended: its steps (record, wait, pause, resume, lens, zoom,
    exposure, focus, mark, stop) are the same commands the shell takes. Each step is logged with two times:
    `script` (scripted time since the start) and `movie` (the movie's duration so far; it stands still while
    paused). At the end it prints the movie's and the sidecar's paths and a summary line.

    The first step that fails ends the script, like `set -e`: the error names the step (FILE:LINE in the rig file
    and the step), the clip in progress is stopped and saved, and the exit status is 1. A script with
    `on_error: continue`, or --keep-going, reports a failed step and goes on (exit status 1 all the same).

      --script NAME     which script (default: the first in the file)
      --output DIR      where to write (default: the rig's output.directory); a path that is a file or cannot
                        be created is reported before anything records
      --clock real      run in real time on the cameras' clock (default)
      --clock simulated run on a simulated clock: virtual lenses only, as fast as the encoder allows, the same
                        frames and timestamps every time (the sidecar's started/stopped are still real times)
      --keep-going      do not stop at a failed step (as `on_error: continue`)
      --quiet           print only errors and the final paths
      --web ADDR:PORT   serve the browser monitor there (default: loopback at the rig's own port, 8360–8999
                        from its name, so a bookmark stays its rig's); beyond loopback the printed URL
                        carries a session token
      --no-web          no browser monitor

    While a long script or a wait of more than 2 s runs, a progress line (movie time, scripted time left,
    speed) is rewritten in place on standard error when it is a terminal; never into a pipe or a file.

    EXIT STATUS
    \(exitStatus)
    Example: pausecam run rigs/virtual.yaml --script pauses --clock simulated --output /tmp/clips
    """

    static let check = """
    pausecam check RIG…
    pausecam check --measure RIG…
    pausecam check --list-scripts RIG…

    Validates rig files without recording or writing anything. Every error of every file is printed as
    FILE:LINE:COLUMN: message, and the exit status is 2 when any file has one. A clean file gets a summary: its
    lenses, presets and scripts with their steps and total scripted time. For each camera lens it also asks the
    connected camera (formats, sizes and rates only: it never streams or changes a setting) whether it keeps up
    with the movie's frame rate, with the fix when it does not, or says "not connected: rate not checked". A rate
    warning does not change the exit status. Nor do the rig's warnings, printed as FILE:LINE:COLUMN: warning:
    message: an exposure or focus step on a lens without that control (virtual and movie-file lenses have none),
    and an output folder that cannot be created or written (run and shell refuse that rig with exit status 2
    unless --output names another folder). run and shell print the same warnings when they start.

    --measure also times x264 on camera-like frames at the rig's size and rate, per preset, prints each speed and
    the preset `preset: auto` chooses (the slowest that encodes 1.5 times the frame rate), and caches the result
    in $XDG_CACHE_HOME/pausecam/ (default ~/.cache/pausecam/) for the sessions that follow. With output.iso it
    lists each ISO's size, rate and encoder (x264, or MJPEG passed through) and whether the program and the ISOs
    fit together; when they do not, that is an error at iso: (exit status 2), as run and shell refuse the rig.

    --list-scripts prints only the names of the rig's scripts, one a line (what the shell completions offer
    after --script).
    """

    static let devices = """
    pausecam devices [--json] [--rig RIG]

    Lists the video capture devices (like `v4l2-ctl --list-devices`) with their formats and controls; each
    control shows the value the camera holds now, its range and its default: zoom_absolute 250 (100…500,
    default 100). A PTZ camera gets a PTZ: line with the ranges of its zoom_absolute, pan_absolute and
    tilt_absolute, what a zoom preset's optical: and ptz: move. With --rig, says which lens of the rig each camera
    serves and which lenses have no camera. --json prints the same as JSON.
    """

    static let doctor = """
    pausecam doctor [RIG] [--output DIR] [--measure]

    Answers "why won't my rig work" in one report, section by section, each finding marked ok, note, warning or
    BLOCKER, with why it matters and the fix:

      Permissions     your groups (video, audio) and whether each /dev/video* and /dev/snd/* node opens
      Cameras         every camera udev lists, with its USB bus, port, speed and controller, and its lens
      Rig lenses      which camera each of the rig's lenses gets (a camera lens with none is a blocker)
      USB bandwidth   the rig's plan per bus, as `pausecam check` prints it (a bus that cannot carry its cameras
                      is a blocker)
      Microphones     the sound cards, and whether the rig's microphone opens (a blocker with required: true)
      Disk            whether the output folder can be written (or created) and the free space there
      Encoder         x264's measured speed at the rig's size and rate against what it needs (ISOs and live
                      streams it cannot hold beside the program are a blocker, as run refuses them)
      Group           a group member's broker (one that does not answer is a blocker) and clock (unsynchronised
                      with require_sync: true is a blocker: record would be refused)
      Clock           the kernel's clock source (tsc is best)
      Kernel log      USB resets, bandwidth refusals and enumeration errors from dmesg, or "not readable"

    It reads and opens devices but never streams, records, creates or changes anything. Without RIG it examines
    this machine alone (permissions, cameras, microphones, clock, kernel log).

      --output DIR   examine DIR as the output folder instead of the rig's output.directory
      --measure      measure the encoder now (a few seconds) instead of using the cached measurement; the
                     cache is refreshed, as with `pausecam check --measure`

    EXIT STATUS
      0    the rig can record (warnings may remain)
      1    something blocks it: the list of blockers ends the report
      2    usage or rig-file error

    EXAMPLES
      pausecam doctor rigs/studio.yaml
      pausecam doctor                        # this machine, no rig
    """

    static let shell = """
    pausecam shell RIG [--output DIR] [--clock real|simulated] [--on-error stop] [--quiet] [--keys]  (or: pausecam RIG)

    An interactive shell whose prompt shows the live state (● REC scene 3 00:01:23.4 main 2.0x >). Type `help` in
    it for its commands; `exit`, `q` or `quit` leaves it (a clip still recording is stopped and saved).

    When standard input is not a terminal, commands are read line by line, so a session can be scripted: results
    go to standard output, errors to standard error; blank lines and lines starting with `#` are comments. The
    exit status is 1 if any command failed.

      --on-error stop   end a piped session at the first failed command, saving the clip (exit status 1)
      --quiet           print only errors, warnings and saved clips (no echo, no results, no progress line)
      --keys            start in the hotkey mode (see `help keys` in the shell): single keys act without Enter
      --output DIR, --clock real|simulated   as for `pausecam run`
      --socket PATH     the control socket for pausecam ctl (default: see pausecam ctl --help)
      --web ADDR:PORT, --no-web              the browser monitor, as for `pausecam run`

    A `wait` of more than 2 s shows a progress line on standard error when it is a terminal.

    EXIT STATUS
    \(exitStatus)
    """

    static let ctl = """
    pausecam ctl [--rig RIG | --socket PATH] [--timeout SECONDS] COMMAND…
    pausecam ctl --group NAME [--broker URL] [--lead DURATION] [--timeout SECONDS] COMMAND…

    Sends one command to a running `pausecam shell` or `pausecam run` and prints its reply: exit status 0 when it
    was carried out, 1 when it was refused or no PauseCam answers. Every running PauseCam listens on
    $XDG_RUNTIME_DIR/pausecam/RIG-NAME.sock (/tmp/pausecam-UID/ when XDG_RUNTIME_DIR is unset; a folder only you
    may enter), or on the path its --socket PATH gives. Without --rig or --socket, ctl talks to the only one
    running; when several are, it lists them.

    COMMAND is a line of the shell's grammar (record, pause, resume, stop, toggle, chapter, retake, lens, zoom,
    exposure, focus, mark, follow, voice, status), and two of the socket's own:
      status --json     the state as one JSON object: rig, host, state, scene, timer, timer_text, lens,
                        zoom (lens × digital), digital_zoom, file, dropped_frames, voices (per voice: name, peak_dbfs,
                        hold_dbfs, clipping, gain_db, pan, muted, gone, speaking; empty for one microphone) and
                        follow (true or false; absent without the rig's follow:), time_left_s (the
                        recording time left in seconds, null while unknown) and time_left_warning (ten
                        minutes or less)
      watch             every event as a JSON line until Ctrl-C (exit 0)

      --rig RIG         the PauseCam running this rig (a rig file or its name)
      --socket PATH     the PauseCam listening on PATH
      --timeout SECONDS how long to wait for the reply (default 5): a PauseCam stopped with Ctrl-Z or wedged
                        gets exit status 1 and a message, never a hang
      --group NAME      the members of a group (rigs with group: {name: NAME}) through their MQTT broker: status
                        lists every member; record, pause, resume, toggle, chapter, mark and stop go to all of
                        them, on the same frame of each movie; nothing else is sent
      --broker URL      the group's broker (default mqtt://127.0.0.1:1883)
      --lead DURATION   how long after sending a group command takes effect (default 250ms; give the rigs'
                        group.lead when theirs is longer)

    EXAMPLES
      pausecam ctl toggle                      # record, pause or resume: bind it to a key, a pedal or a Stream Deck
      pausecam ctl chapter Questions           # a new scene without a pause
      pausecam ctl mark good take
      pausecam ctl mark                        # "Marker 3"; the reply gives its number
      pausecam ctl mark rename 3 applause      # name marker 3 afterwards, while the clip records
      pausecam ctl voice guest mute            # leave a voice out of the mix (its own track records on)
      pausecam ctl follow off                  # the lens stays where it is until follow on
      pausecam ctl preview tele                # tele's tally lights green (preview) without a cut
      pausecam ctl status --json | jq -r .timer_text
      pausecam ctl --rig studio watch
      pausecam ctl --group studio --broker mqtt://broker.local stop    # every member of group studio

    Signals do the simplest two: kill -USR1 PID toggles, kill -USR2 PID marks.
    """

    static let export = """
    pausecam export CLIP.json --format FORMAT[,FORMAT…] [--output FILE] [--start-timecode HH:MM:SS:FF]

    Writes the scenes (as chapters) and markers of a clip, read from its sidecar CLIP.json, in a format an
    editor imports. Each file goes beside the sidecar, named after the movie (its file name only; the sidecar's
    own name when it names none), and never over an existing file (NAME-2.edl, NAME-3.edl… instead); the paths
    written are printed. A movie missing beside the sidecar is a warning; the files are still written.

      edl          DaVinci Resolve timeline markers (NAME.edl): Timelines > Import > Timeline Markers from EDL;
                   scenes are green markers as long as the scene, marks blue one-frame markers; what
                   shares a frame is one marker naming all (Resolve keeps one marker per frame)
      fcpxml       FCPXML 1.9 (NAME.fcpxml) for Final Cut Pro and Resolve: a timeline with the movie, a chapter
                   marker per scene and a marker per mark
      csv          a table of chapters and markers (NAME.csv): timecodes, seconds and frames
      ffmetadata   FFmpeg chapters (NAME.ffmeta); edit its titles, then write them into a copy of the movie with
                   ffmpeg -i MOVIE -i NAME.ffmeta -map_metadata 1 -map_chapters 1 -c copy OUT
      youtube      a chapter list for a YouTube description (NAME.youtube.txt), the first at 0:00; YouTube
                   ignores a list of fewer than 3 chapters or with one shorter than 10 s, so such a clip's list
                   is refused (exit status 2, nothing written; output.exports skips it with a warning)
      all          every format above

      --output FILE      write to FILE instead (one format only); - writes to standard output
      --start-timecode T the timecode of the movie's first frame (default 00:00:00:00; Resolve's timelines
                         start at 01:00:00:00). Timecodes follow the movie's frame rate, drop-frame (;) at 29.97,
                         and wrap at 24 hours like a real timecode: 23:59:59:29 is followed by 00:00:00:00

    pausecam export --multicam A.json B.json… --format fcpxml [--output FILE] [--start-timecode T]
      writes one FCPXML multicam clip (NAME.multicam.fcpxml beside A.json, NAME being A's movie) of the clips of
      a group's members (rig group:): an angle per member's movie, placed to the frame by the group's grid slot
      its record landed on, A's angle and sound on the timeline, a chapter marker per scene and a marker per mark.
      Sidecars without a group block, of different groups or of different frame rates are refused (exit status 2).

    A clip recorded with ISOs (output.iso) exports its ISO movies instead of the one movie: fcpxml is a multicam
    clip, an angle per lens ISO cut where the program switched lenses (the program movie is one more angle where
    it showed a lens with no ISO), and edl a CMX 3600 cut list of one reel per ISO. A missing ISO is a warning.

    The rig's output.exports: [edl, fcpxml] writes exports like these after every clip.
    Exit status 0 when every file was written; 2 when the sidecar, a timecode or an option is wrong (nothing is
    written); 1 when a file could not be written. The reason is printed.
    """
}
