import Foundation
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

/// The cost of hot standby: CPU seconds (user + system, `getrusage`) per recorded second with one
/// active 1080p30 MJPEG `file:` lens, then with one and two more hot lenses that are never switched to, all on the
/// simulated clock. Each inactive lens's cost is printed as a share of the active lens's, a figure meant to stay
/// under 5 %: an inactive camera should be neither decoded nor copied.
enum StandbyBench {
    /// The figures of one run: CPU seconds per recorded second by number of hot lenses (one active), and the cost
    /// of one inactive hot lens as a share of the active lens's (from the 1- and 3-lens rigs).
    struct Figures {
        var cpuPerRecordedSecond: [Int: Double]
        var standbyCostRatio: Double
    }

    /// Records `seconds` of movie for each rig (1 active lens plus 0, 1, 2 and 5 inactive hot lenses), prints the
    /// figures and returns them; nil when ffmpeg is missing to make the MJPEG movie.
    @discardableResult
    static func run(seconds recordSeconds: Int64, preset: String = "ultrafast",
                    lensCounts: [Int] = [1, 2, 3, 6]) throws -> Figures? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-standby-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let movie = try makeMJPEGMovie(in: folder) else {
            print("standby cost skipped: /usr/bin/ffmpeg not found to make the MJPEG movie")
            return nil
        }
        var costs: [Int: Double] = [:]
        for lenses in Set(lensCounts + [1, 3]).sorted() {
            let cost = try cpuPerRecordedSecond(movie: movie, inactive: lenses - 1, seconds: recordSeconds,
                                                preset: preset, folder: folder)
            costs[lenses] = cost
            print(String(format: "hot lenses: 1 active + %d inactive 1080p30 MJPEG file lenses, x264 %@: "
                         + "%.3f CPU s per recorded s", lenses - 1, preset, cost))
        }
        let perLens = (costs[3]! - costs[1]!) / 2
        let ratio = perLens / costs[1]!
        print(String(format: "standby: each inactive hot lens costs %.3f CPU s per recorded s = %.1f %% of the active "
                     + "lens's %.3f (standby_cost_ratio %.3f)", perLens, ratio * 100, costs[1]!, ratio))
        return Figures(cpuPerRecordedSecond: costs.filter { lensCounts.contains($0.key) }, standbyCostRatio: ratio)
    }

    /// One active 1080p30 MJPEG file lens's cost alone (CPU seconds per recorded second, x264 `preset`), printed;
    /// `nil` without ffmpeg to make the movie.
    static func activeLensCost(seconds recordSeconds: Int64, preset: String = "ultrafast") throws -> Double? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-active-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let movie = try makeMJPEGMovie(in: folder) else {
            print("active lens cost skipped: /usr/bin/ffmpeg not found to make the MJPEG movie")
            return nil
        }
        let cost = try cpuPerRecordedSecond(movie: movie, inactive: 0, seconds: recordSeconds, preset: preset,
                                            folder: folder)
        print(String(format: "standby: 1 active 1080p30 MJPEG file lens, x264 %@: %.3f CPU s per recorded s",
                     preset, cost))
        return cost
    }

    /// A 2 s camera-like (noisy) 1920x1080 30 fps MJPEG movie, 4:2:2 like a webcam's, looped by the lenses.
    static func makeMJPEGMovie(in folder: URL) throws -> String? {
        let ffmpeg = "/usr/bin/ffmpeg"
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else { return nil }
        let path = folder.appendingPathComponent("camera.mov").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=2",
                             "-vf", "noise=alls=12:allf=t", "-c:v", "mjpeg", "-q:v", "4", "-pix_fmt", "yuvj422p", path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return path
    }

    /// Records one clip from lens `a0` with `inactive` more hot lenses replaying the same movie, and returns the
    /// process's CPU seconds spent per second of movie (from `record` to the finished clip).
    /// With `monitor`, the controller offers its frames to that feed (watched or not, as the caller set it up).
    static func cpuPerRecordedSecond(movie: String, inactive: Int, seconds recordSeconds: Int64, preset: String,
                                     folder: URL, monitor: MonitorFeed? = nil) throws -> Double {
        let names = (0...inactive).map { "a\($0)" }
        let rig = Rig(name: "Standby", output: Rig.OutputSettings(directory: folder.path,
                                                                   namePattern: "standby-\(inactive)",
                                                                   width: 1920, height: 1080, rate: FrameRate(30),
                                                                   preset: preset, crf: 23),
                      audio: Rig.AudioInput(device: .virtual),
                      lenses: names.map { Rig.Lens(name: $0, source: .file(path: movie, loop: true)) },
                      defaultLens: "a0", standby: .hot)
        let serialContext = SimulatedSerialContext()
        var cameras: [String: any Camera] = [:]
        for name in names {
            cameras[name] = try FileLens(path: movie, lens: name, loop: true, serialContext: serialContext)
        }
        let controller = BenchEngine.controller(rig: rig, cameras: cameras, microphone: VirtualMicrophone(serialContext: serialContext),
                                       sinkFactory: MovieWriterFactory(), store: AtomicSidecarStore(),
                                       serialContext: serialContext, outputDirectory: folder.path,
                                       finishing: InlineWorker(), monitor: monitor, notify: { _ in })
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        controller.startDevices()
        let before = ProcessCPUTime.seconds()
        _ = runner.perform(.record(name: nil))
        _ = runner.perform(.wait(.seconds(recordSeconds)))
        let clip = runner.finishClip()
        let spent = ProcessCPUTime.seconds() - before
        controller.stopDevices()
        let recorded = Double(clip?.sidecar.video.framesWritten ?? 0) / 30
        return spent / max(recorded, 1 / 30)
    }
}
