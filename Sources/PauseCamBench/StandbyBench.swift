import Foundation
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

/// The cost of hot standby (issue 10): CPU seconds (user + system, `getrusage`) per recorded second with one
/// active 1080p30 MJPEG `file:` lens, then with one and two more hot lenses that are never switched to, all on the
/// simulated clock. Each inactive lens's cost is printed as a share of the active lens's, the figure the issue asks
/// to keep under 5 %: an inactive camera should be neither decoded nor copied.
enum StandbyBench {
    /// Records `seconds` of movie for each rig (0, 1, 2 inactive lenses) and prints the figures; returns the active
    /// lens's cost alone (CPU seconds per recorded second), `nil` when there was no movie to measure with.
    @discardableResult
    static func run(seconds recordSeconds: Int64, preset: String = "ultrafast") throws -> Double? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-standby-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let movie = try makeMJPEGMovie(in: folder) else {
            print("standby cost skipped: /usr/bin/ffmpeg not found to make the MJPEG movie")
            return nil
        }
        var costs: [Double] = []
        for inactive in 0...2 {
            let cost = try cpuPerRecordedSecond(movie: movie, inactive: inactive, seconds: recordSeconds,
                                                preset: preset, folder: folder)
            costs.append(cost)
            print(String(format: "standby: 1 active + %d inactive hot 1080p30 MJPEG file lenses, x264 %@: "
                         + "%.3f CPU s per recorded s", inactive, preset, cost))
        }
        for inactive in 1...2 {
            let perLens = (costs[inactive] - costs[0]) / Double(inactive)
            print(String(format: "standby: each inactive hot lens (%d inactive) costs %.3f CPU s per recorded s "
                         + "= %.1f %% of the active lens's %.3f", inactive, perLens, perLens / costs[0] * 100,
                         costs[0]))
        }
        return costs[0]
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

    /// User + system CPU seconds of this process so far. The corresponding C function is `getrusage`.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }

    /// Records one clip from lens `a0` with `inactive` more hot lenses replaying the same movie, and returns the
    /// process's CPU seconds spent per second of movie (from `record` to the finished clip).
    static func cpuPerRecordedSecond(movie: String, inactive: Int, seconds recordSeconds: Int64, preset: String,
                                     folder: URL) throws -> Double {
        let names = (0...inactive).map { "a\($0)" }
        let rig = Rig(name: "Standby", output: Rig.OutputSettings(directory: folder.path,
                                                                   namePattern: "standby-\(inactive)",
                                                                   width: 1920, height: 1080, rate: FrameRate(30),
                                                                   preset: preset, crf: 23),
                      audio: Rig.AudioInput(device: .virtual),
                      lenses: names.map { Rig.Lens(name: $0, source: .file(path: movie, loop: true)) },
                      defaultLens: "a0", standby: .hot)
        let scheduler = SimulatedScheduler()
        var cameras: [String: any Camera] = [:]
        for name in names {
            cameras[name] = try FileLens(path: movie, lens: name, loop: true, scheduler: scheduler)
        }
        let controller = RigController(rig: rig, cameras: cameras, microphone: VirtualMicrophone(scheduler: scheduler),
                                       sinkFactory: MovieWriterFactory(), store: AtomicSidecarStore(),
                                       scheduler: scheduler, wallClock: { Date() }, outputDirectory: folder.path,
                                       notify: { _ in })
        let runner = ScriptRunner(controller: controller, scheduler: scheduler)
        controller.startDevices()
        let before = cpuSeconds()
        _ = runner.perform(.record(name: nil))
        _ = runner.perform(.wait(.seconds(recordSeconds)))
        let clip = runner.finishClip()
        let spent = cpuSeconds() - before
        controller.stopDevices()
        let recorded = Double(clip?.sidecar.video.framesWritten ?? 0) / 30
        return spent / max(recorded, 1 / 30)
    }
}
