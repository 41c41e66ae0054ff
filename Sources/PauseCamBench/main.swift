import Foundation
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

// `make bench`: figures for the record. Run in a release build; every figure is printed with what it measured.

func seconds(_ work: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

// `PauseCamBench soak [MINUTES]`: one long clip on the simulated clock (640x360, three lenses, a lens switch every
// minute, a 10 s pause every 5 minutes): wall time, peak memory, and the movie's duration as ffprobe reads it.
if CommandLine.arguments.dropFirst().first == "soak" {
    let minutes = Int64(CommandLine.arguments.dropFirst(2).first.flatMap { Int64($0) } ?? 60)
    try Soak.run(minutes: minutes)
    exit(0)
}

let arguments = CommandLine.arguments.dropFirst()
let recordSeconds = Int64(arguments.first.flatMap { Int64($0) } ?? 10)
let presets = arguments.count > 1 ? Array(arguments.dropFirst()) : ["ultrafast", "veryfast"]

// `PauseCamBench standby [SECONDS]`: only the hot-standby cost (issue 10).
if CommandLine.arguments.dropFirst().first == "standby" {
    try StandbyBench.run(seconds: Int64(CommandLine.arguments.dropFirst(2).first.flatMap { Int64($0) } ?? 6))
    exit(0)
}

// `PauseCamBench standby-yuyv [SECONDS]`: an inactive hot 1080p30 YUYV camera's capture path, next to one active
// 1080p30 lens (the MJPEG file lens of `standby`, x264 ultrafast).
if CommandLine.arguments.dropFirst().first == "standby-yuyv" {
    let seconds = Int(CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 6)
    let active = try StandbyBench.activeLensCost(seconds: Int64(seconds))
    try YUYVStandbyBench.run(seconds: seconds, activeCost: active)
    exit(0)
}

// `PauseCamBench matrix`: the HD canvas's BT.601 → BT.709 conversion, next to the scaler's own cost.
if CommandLine.arguments.dropFirst().first == "matrix" { try MatrixBench.run(); exit(0) }

// 0. Loading a rig file with a very long scene script (linear, not quadratic, in the number of steps).
try RigLoadingBench.run()

// 1. Rendering one virtual 1080p frame (static parts drawn once; bar and flash per frame).
let scheduler = SimulatedScheduler()
let lens = VirtualLens(lens: "main", color: RGBColor(hex: "#20c040")!, width: 1920, height: 1080,
                       rate: FrameRate(30), scheduler: scheduler)
let renders = 300
var sink = 0
let renderTime = seconds {
    for i in 0..<renders {
        let frame = lens.render(pts: MediaTime(value: Int64(i), timescale: 30), previous: nil)
        sink &+= Int(frame.planes[0].bytes[i])
    }
}
print(String(format: "virtual lens render 1920x1080: %.2f ms/frame (%d frames)", renderTime * 1000 / Double(renders), renders))

// 2. The whole pipeline on the simulated clock: virtual lens → switcher → retimer → swscale → x264 + AAC → .mov.
for preset in presets {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-\(getpid())-\(preset)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let rig = Rig(name: "Bench", output: Rig.OutputSettings(directory: directory.path, namePattern: "bench-\(preset)",
                                                          width: 1920, height: 1080, rate: FrameRate(30),
                                                          preset: preset, crf: 23),
                  audio: Rig.AudioInput(device: .virtual),
                  lenses: [Rig.Lens(name: "main", source: .virtual(color: RGBColor(hex: "#20c040")!),
                                    width: 1920, height: 1080, rate: FrameRate(30))])
    let scheduler = SimulatedScheduler()
    let camera = VirtualLens(lens: "main", color: RGBColor(hex: "#20c040")!, width: 1920, height: 1080,
                             rate: FrameRate(30), scheduler: scheduler)
    let controller = RigController(rig: rig, cameras: ["main": camera], microphone: VirtualMicrophone(scheduler: scheduler),
                                   sinkFactory: MovieWriterFactory(), store: AtomicSidecarStore(), scheduler: scheduler,
                                   wallClock: { Date() }, outputDirectory: directory.path, notify: { _ in })
    let runner = ScriptRunner(controller: controller, scheduler: scheduler)
    controller.startDevices()
    var clip: Recorder.Clip?
    let elapsed = seconds {
        _ = runner.perform(.record(name: nil))
        _ = runner.perform(.wait(.seconds(recordSeconds)))
        clip = runner.finishClip()
    }
    controller.stopDevices()
    let frames = clip?.sidecar.video.framesWritten ?? 0
    print(String(format: "pipeline 1920x1080/30 simulated clock, x264 %@: %.1f fps (%d frames in %.2f s, incl. finish)",
                 preset, Double(frames) / elapsed, frames, elapsed))
    try? FileManager.default.removeItem(at: directory)
}

// 3. The ffmpeg command line encoding the same frames (raw yuv420p from the same virtual lens), video only, so the
//    figures above can be read against the reference tool on this machine.
let ffmpeg = "/usr/bin/ffmpeg"
if FileManager.default.isExecutableFile(atPath: ffmpeg) {
    let frameCount = Int(recordSeconds) * 30
    let raw = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-\(getpid()).yuv")
    _ = FileManager.default.createFile(atPath: raw.path, contents: nil)
    let handle = try FileHandle(forWritingTo: raw)
    var previous: MediaTime?
    for i in 0..<frameCount {
        let pts = MediaTime(value: Int64(i), timescale: 30)
        let frame = lens.render(pts: pts, previous: previous)
        previous = pts
        for plane in frame.planes { handle.write(Data(plane.bytes)) }
    }
    try handle.close()
    for preset in presets {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-\(getpid())-\(preset).mov")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "1920x1080", "-r", "30",
                             "-i", raw.path, "-c:v", "libx264", "-preset", preset, "-crf", "23", output.path]
        let elapsed = try seconds {
            try process.run()
            process.waitUntilExit()
        }
        print(String(format: "ffmpeg CLI, same %d frames 1920x1080 raw → x264 %@ .mov: %.1f fps (%.2f s)",
                     frameCount, preset, Double(frameCount) / elapsed, elapsed))
        try? FileManager.default.removeItem(at: output)
    }
    try? FileManager.default.removeItem(at: raw)
} else {
    print("ffmpeg CLI comparison skipped: \(ffmpeg) not found")
}
_ = sink

// 4. Hot standby: what each inactive hot lens costs next to the active one.
let activeLensCost = try StandbyBench.run(seconds: recordSeconds)

// 5. An inactive hot YUYV camera: its capture path (dequeue, copy out of the mmap buffer, queue again).
try YUYVStandbyBench.run(seconds: Int(recordSeconds), activeCost: activeLensCost)
