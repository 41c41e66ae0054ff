/// The `--help` texts: they teach, with examples, rather than only list.
enum HelpText {
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
      pausecam help [COMMAND]       this text, or one command's

    EXAMPLES
      pausecam run rigs/virtual.yaml --script demo       # a 6 s demo on virtual lenses, no hardware needed
      pausecam run rigs/virtual.yaml --script interview --clock simulated   # runs as fast as the encoder allows
      pausecam check rigs/*.yaml
      printf 'record\\nwait 2s\\npause\\nwait 1s\\nresume\\nwait 2s\\nstop\\n' | pausecam shell rigs/virtual.yaml --clock simulated

    FILES
      Movies go to the rig's output.directory (default ~/Videos/PauseCam; --output overrides) as NAME.mov, with
      NAME.json (the sidecar) and NAME.jpg (a thumbnail). While recording the movie is NAME.mov.partial, which
      survives a crash. An existing file is never overwritten: NAME-2.mov, NAME-3.mov… are used instead.

    Ctrl-C, SIGTERM and SIGHUP stop and save the clip. See README.md for the rig file format.
    """

    static let run = """
    pausecam run RIG [--script NAME] [--output DIR] [--clock real|simulated]

    Runs one scene script of the rig file RIG unattended: its steps (record, wait, pause, resume, lens, zoom,
    exposure, focus, mark, stop) are the same commands the shell takes. At the end it prints the movie's and the
    sidecar's paths and a summary line. A clip still recording when the script ends is stopped and saved.

      --script NAME     which script (default: the first in the file)
      --output DIR      where to write (default: the rig's output.directory)
      --clock real      run in real time on the cameras' clock (default)
      --clock simulated run on a simulated clock: virtual lenses only, as fast as the encoder allows, the same
                        frames and timestamps every time

    Example: pausecam run rigs/virtual.yaml --script pauses --clock simulated --output /tmp/clips
    """

    static let check = """
    pausecam check RIG…

    Validates rig files without opening any device or file. Every error of every file is printed as
    FILE:LINE:COLUMN: message, and the exit status is 2 when any file has one. A clean file gets a summary: its
    lenses, presets and scripts with their steps and total scripted time.
    """

    static let devices = """
    pausecam devices [--json] [--rig RIG]

    Lists the video capture devices (like `v4l2-ctl --list-devices`) with their formats and controls. With
    --rig, says which lens of the rig each camera serves and which lenses have no camera. --json prints the same
    as JSON.
    """

    static let shell = """
    pausecam shell RIG [--output DIR] [--clock real|simulated]     (or: pausecam RIG)

    An interactive shell whose prompt shows the live state (● REC scene 3 00:01:23.4 main 2.0x >). Type `help` in
    it for its commands. When standard input is not a terminal, commands are read line by line and each result is
    printed, so a session can be scripted.
    """
}
