import Foundation
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

// `make bench` (scripts/bench): `PauseCamBench [SECONDS] [--soak-minutes N] [--repeats N] [--json PATH]` runs
// every figure of bench/README.md (`BenchRun`); `scenes`, `soak [MINUTES]`, `standby [SECONDS]`, `standby-yuyv [SECONDS]`,
// `voices [SECONDS] [ROUNDS]` and `samejob CONTENT PRESET [SECONDS]` run one part alone. Run in a release build; every figure is printed with what it measured.

let words = Array(CommandLine.arguments.dropFirst())
switch words.first {
case "soak":
    // One long clip on the simulated clock (640x360, three lenses, a switch a minute, a 10 s pause every 5 minutes).
    let growth = try Soak.run(minutes: words.dropFirst().first.flatMap { Int64($0) } ?? 60)
    print("soak_rss_growth_mb_per_hour=\(growth)")
case "samejob":
    // `samejob CONTENT PRESET [SECONDS]`: only PauseCam's side of one same-job encode, to run under `perf record -g`.
    try SameJobBench.profile(content: words.dropFirst().first ?? "camera", preset: words.dropFirst(2).first ?? "ultrafast",
                             seconds: words.dropFirst(3).first.flatMap { Int64($0) } ?? 10)
case "floor":
    // `floor CONTENT PRESET [SECONDS]`: only libx264 alone on the same job's frames, to profile beside `samejob`.
    try SameJobBench.profileFloor(content: words.dropFirst().first ?? "camera", preset: words.dropFirst(2).first ?? "ultrafast",
                                  seconds: words.dropFirst(3).first.flatMap { Int64($0) } ?? 10)
case "content":
    // `content NAME FOLDER`: writes a same-job content's raw frames (and the sound) into FOLDER, for ffmpeg by hand.
    let folder = URL(fileURLWithPath: words.dropFirst(2).first ?? ".")
    _ = try BenchSound(seconds: 11, folder: folder)
    _ = words.dropFirst().first == "camera"
        ? try BenchContent.camera(width: 1920, height: 1080, count: 60, folder: folder)
        : try BenchContent.pattern(width: 1920, height: 1080, count: 60, folder: folder)
case "compare":
    // `compare CONTENT PRESET [SECONDS]`: one same-job figure (PauseCam, the ffmpeg CLI, libx264 alone), one round.
    try SameJobBench.compare(content: words.dropFirst().first ?? "pattern", preset: words.dropFirst(2).first ?? "ultrafast",
                             seconds: words.dropFirst(3).first.flatMap { Int64($0) } ?? 10)
case "finish":
    // `finish [SECONDS]`: the in-place finish of a synthesised fragmented clip (default an hour).
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-finish-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try FinishBench.run(seconds: words.dropFirst().first.flatMap { Int($0) } ?? 3600, folder: folder)
case "finish-isos":
    // `finish-isos [SECONDS]`: the same with three ISOs beside the program (four movies finished one after another).
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-finish-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try FinishIsoBench.run(seconds: words.dropFirst().first.flatMap { Int($0) } ?? 3600, folder: folder)
case "monitor":
    // The browser monitor's CPU cost ratio (one viewer against none) and its capture-to-picture delay.
    try MonitorBench.run(seconds: words.dropFirst().first.flatMap { Int64($0) } ?? 6)
case "iso":
    // `iso [SECONDS]`: iso_cpu_ratio, three hot 1080p30 MJPEG lenses with their ISOs passed through against none.
    try IsoCPUBench.run(seconds: words.dropFirst().first.flatMap { Int64($0) } ?? 6,
                        rounds: words.dropFirst(2).first.flatMap { Int($0) } ?? 3)
case "voices":
    // `voices [SECONDS] [ROUNDS]`: voice_track_cost_ratio, a 1080p30 clip with three virtual voices against one.
    try VoiceBench.run(seconds: words.dropFirst().first.flatMap { Int64($0) } ?? 6,
                       rounds: words.dropFirst(2).first.flatMap { Int($0) } ?? 3)
case "stream":
    // `stream [SECONDS]`: stream_cost_ratio, one 720p 3 Mbit/s SRT stream beside a 720p30 recording against none.
    try StreamCostBench.run(seconds: words.dropFirst().first.flatMap { Int64($0) } ?? 6,
                            rounds: words.dropFirst(2).first.flatMap { Int($0) } ?? 3)
    // And the delay from a frame's capture to its packet written, at real time.
    try StreamDelayBench.run(seconds: Int(words.dropFirst().first.flatMap { Int64($0) } ?? 6))
case "webcam":
    // `webcam [SECONDS] [ROUNDS] [i420|yuyv]`: webcam_cost_ratio, the webcam output (720p, I420 unless named, to
    // /dev/null) against none.
    try WebcamCostBench.run(seconds: words.dropFirst().first.flatMap { Int64($0) } ?? 6,
                            rounds: words.dropFirst(2).first.flatMap { Int($0) } ?? 3,
                            format: words.dropFirst(3).first.flatMap { Rig.Live.WebcamFormat(rawValue: $0) } ?? .i420)
case "standby":
    try StandbyBench.run(seconds: words.dropFirst().first.flatMap { Int64($0) } ?? 6)
case "standby-yuyv":
    // An inactive hot 1080p30 YUYV camera's capture path, next to one active 1080p30 lens (MJPEG file, ultrafast).
    let seconds = words.dropFirst().first.flatMap { Int($0) } ?? 6
    let active = try StandbyBench.activeLensCost(seconds: Int64(seconds))
    try YUYVStandbyBench.run(seconds: seconds, activeCost: active)
case "export":
    // `pausecam export --format all` of 10,000 and 100,000 scenes, without the file writes.
    _ = try ExportBench.run()
case "scenes":
    // Seconds for 1000 and 4000 pause/resume toggles on the simulated clock (the sidecar's cost per scene change).
    _ = try SceneToggleBench.run()
case "group":
    // Three group members and a Mosquitto broker on loopback: boundary skew, late commands, the shortest lead.
    _ = GroupBench.run()
case "matrix":
    // The HD canvas's BT.601 → BT.709 conversion, next to the scaler's own cost.
    try MatrixBench.run()
default:
    var run = BenchRun()
    var index = 0
    while index < words.count {
        let word = words[index]
        let value = index + 1 < words.count ? words[index + 1] : nil
        switch word {
        case "--json": run.jsonPath = value; index += 1
        case "--repeats": run.repeats = value.flatMap { Int($0) } ?? run.repeats; index += 1
        case "--soak-minutes": run.soakMinutes = value.flatMap { Int64($0) } ?? run.soakMinutes; index += 1
        case "--presets": run.presets = value.map { $0.split(separator: ",").map(String.init) } ?? run.presets; index += 1
        default:
            guard let seconds = Int64(word), seconds > 0 else {
                print("usage: PauseCamBench [SECONDS] [--soak-minutes N] [--repeats N] [--presets a,b] [--json PATH] | soak [MIN] | standby [S]")
                exit(2)
            }
            run.seconds = seconds
        }
        index += 1
    }
    try run.run()
}
