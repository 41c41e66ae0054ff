import Foundation
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

/// The soak benchmark: an hour-long clip (by default) recorded on the simulated clock, to show that memory stays
/// flat and nothing drifts over a long take.
enum Soak {
    /// Records the clip, prints the figures and returns the resident memory's growth in MB per hour of recording,
    /// from the end of minute 1 to the end (extrapolated to an hour when the soak is shorter).
    @discardableResult
    static func run(minutes: Int64) throws -> Double {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-soak-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let colors = [("wide", 0.5, "#d03030"), ("main", 1.0, "#20c040"), ("tele", 3.0, "#3050e0")]
        let lenses = colors.map { name, zoom, hex in
            Rig.Lens(name: name, zoom: zoom, source: .virtual(color: RGBColor(hex: hex)!), width: 640, height: 360,
                     rate: FrameRate(30))
        }
        let rig = Rig(name: "Soak", output: Rig.OutputSettings(directory: directory.path, namePattern: "soak",
                                                             width: 640, height: 360, rate: FrameRate(30),
                                                             preset: "ultrafast", crf: 28),
                      audio: Rig.AudioInput(device: .virtual), lenses: lenses, defaultLens: "main")
        let scheduler = SimulatedScheduler()
        var cameras: [String: any Camera] = [:]
        for lens in lenses {
            guard case .virtual(let color) = lens.source else { continue }
            cameras[lens.name] = VirtualLens(lens: lens.name, color: color, width: 640, height: 360, rate: FrameRate(30),
                                             scheduler: scheduler)
        }
        let controller = RigController(rig: rig, cameras: cameras, microphone: VirtualMicrophone(scheduler: scheduler),
                                       sinkFactory: MovieWriterFactory(), store: AtomicSidecarStore(),
                                       scheduler: scheduler, wallClock: { Date() }, outputDirectory: directory.path,
                                       notify: { print("  event: \($0)") })
        let runner = ScriptRunner(controller: controller, scheduler: scheduler)
        controller.startDevices()
        let start = DispatchTime.now().uptimeNanoseconds
        var peakAtMinute: [Int64: Int] = [:]
        _ = runner.perform(.record(name: nil))
        var recorded: Int64 = 0
        var residentAfterFirstMinute = 0
        for minute in 1...minutes {
            _ = runner.perform(.wait(.seconds(60)))
            recorded += 60
            _ = runner.perform(.lens(.named(lenses[Int(minute) % 3].name)))
            if minute % 5 == 0 && minute < minutes {
                _ = runner.perform(.pause)
                _ = runner.perform(.wait(.seconds(10)))
                _ = runner.perform(.resume(name: nil))
            }
            if minute % 10 == 0 || minute == 1 { peakAtMinute[minute] = peakResidentKilobytes() }
            if minute == 1 { residentAfterFirstMinute = residentKilobytes() }
        }
        let residentAtEnd = residentKilobytes()
        let clip = runner.finishClip()
        controller.stopDevices()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard let clip else {
            print("soak: the clip was not finished: \(controller.lastFailure ?? "unknown")")
            exit(1)
        }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        probe.arguments = ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", clip.moviePath]
        let pipe = Pipe()
        probe.standardOutput = pipe
        try probe.run()
        let probed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        print(String(format: "soak %lld min simulated (640x360/30, 3 lenses, ultrafast): %.1f s wall, %d frames, %d dropped",
                     minutes, elapsed, clip.sidecar.video.framesWritten, clip.sidecar.video.framesDropped))
        print("  scenes \(clip.sidecar.scenes.count), sidecar duration \(clip.sidecar.duration) s, "
              + "ffprobe duration \(probed.trimmingCharacters(in: .whitespacesAndNewlines)) s, recorded \(recorded) s")
        print("  peak resident memory (KiB) after minute: "
              + peakAtMinute.keys.sorted().map { "\($0): \(peakAtMinute[$0]!)" }.joined(separator: ", "))
        let growth = minutes > 1
            ? Double(residentAtEnd - residentAfterFirstMinute) / 1024 / Double(minutes - 1) * 60 : 0
        print(String(format: "  resident memory (KiB): %d after minute 1, %d at minute %lld: %.2f MB per hour%@",
                     residentAfterFirstMinute, residentAtEnd, minutes, growth,
                     minutes < 61 ? " (extrapolated from \(minutes - 1) min)" : ""))
        return growth
    }

    /// The process's resident set size now, from `/proc/self/statm` (pages × page size).
    static func residentKilobytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }

    /// The process's peak resident set size so far. The corresponding C function is `getrusage`.
    static func peakResidentKilobytes() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss
    }
}
