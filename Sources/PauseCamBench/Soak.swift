import Foundation
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

/// The soak benchmark: an hour-long clip (by default) recorded on the simulated clock, to show that memory stays
/// flat and nothing drifts over a long take.
enum Soak {
    /// Records the clip, prints the figures and returns the resident memory's growth in MB per hour of recording
    /// (the slope from minute 2 on; extrapolated to an hour when the soak is shorter).
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
        let serialContext = SimulatedSerialContext()
        var cameras: [String: any Camera] = [:]
        for lens in lenses {
            guard case .virtual(let color) = lens.source else { continue }
            cameras[lens.name] = VirtualLens(lens: lens.name, color: color, width: 640, height: 360, rate: FrameRate(30),
                                             serialContext: serialContext)
        }
        let controller = BenchEngine.controller(rig: rig, cameras: cameras, microphone: VirtualMicrophone(serialContext: serialContext),
                                       sinkFactory: MovieWriterFactory(), store: AtomicSidecarStore(),
                                       serialContext: serialContext, outputDirectory: directory.path,
                                       finishing: InlineWorker(), notify: { print("  event: \($0.text)") })
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        controller.startDevices()
        let start = DispatchTime.now().uptimeNanoseconds
        var peakAtMinute: [Int64: Int] = [:]
        _ = runner.perform(.record(name: nil))
        var recorded: Int64 = 0
        var residentAtMinute: [Int64: Int] = [:]
        var heapAtMinute: [Int64: HeapStatistics] = [:]
        // The heap's lowest allocated figure within each minute (sampled every simulated second): frames in flight
        // (a 640x360 picture is 338 KiB, and the encoder queue holds a varying number) make any one sample jump by
        // megabytes, while the floor between them is what the process keeps.
        var heapFloorAtMinute: [Int64: Int] = [:]
        for minute in 1...minutes {
            var floor = Int.max
            for _ in 0..<60 {
                _ = runner.perform(.wait(.seconds(1)))
                floor = min(floor, HeapStatistics.current().allocatedBytes)
            }
            heapFloorAtMinute[minute] = floor
            recorded += 60
            _ = runner.perform(.lens(.named(lenses[Int(minute) % 3].name)))
            if minute % 5 == 0 && minute < minutes {
                _ = runner.perform(.pause)
                _ = runner.perform(.wait(.seconds(10)))
                _ = runner.perform(.resume(name: nil))
            }
            if minute % 10 == 0 || minute == 1 { peakAtMinute[minute] = peakResidentKilobytes() }
            residentAtMinute[minute] = residentKilobytes()
            heapAtMinute[minute] = HeapStatistics.current()
        }
        let clip = runner.finishClip()
        controller.stopDevices()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard let clip else {
            print("soak: the clip was not finished: \(controller.clips.outcome.failure ?? "unknown")")
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
        // Peak figures only from a soak run on its own: Linux hands a child its parent's peak at fork, so under
        // `make bench` (a child of the bench) they show the bench's frames, not the soak.
        print("  peak resident memory (KiB) after minute: "
              + peakAtMinute.keys.sorted().map { "\($0): \(peakAtMinute[$0]!)" }.joined(separator: ", "))
        print("  resident memory (KiB) at minute: "
              + residentAtMinute.keys.sorted().filter { $0 % 5 == 0 || $0 == 1 }
                  .map { "\($0): \(residentAtMinute[$0]!)" }.joined(separator: ", "))
        // The allocator makes the resident size wander by a few MB from minute to minute, so growth is the slope of
        // a least-squares line through every minute's figure from minute 2 on (not the difference of two samples).
        let points = residentAtMinute.filter { $0.key >= 2 }.map { (Double($0.key), Double($0.value) / 1024) }
        let growth = Self.slope(points) * 60
        let span = minutes < 60 ? ", extrapolated to an hour" : ""
        print(String(format: "  resident memory grows %.2f MB per hour (least-squares slope over minutes 2–%lld%@)",
                      growth, minutes, span))
        // What the C heap itself holds: RSS also counts free chunks the allocator keeps, so a wandering RSS with a
        // flat heap is the allocator's noise, while a rising heap is something really held.
        let mebibyte = 1024.0 * 1024
        print("  heap in use / free / mmapped (MB) at minute: "
              + heapAtMinute.keys.sorted().filter { $0 % 5 == 0 || $0 == 1 }.map { minute in
                  let heap = heapAtMinute[minute]!
                  return String(format: "%lld: %.2f/%.2f/%.2f", minute, Double(heap.inUseBytes) / mebibyte,
                                Double(heap.freeBytes) / mebibyte, Double(heap.mappedBytes) / mebibyte)
              }.joined(separator: ", "))
        let heapFloor = heapFloorAtMinute.filter { $0.key >= 2 }.map { (Double($0.key), Double($0.value) / mebibyte) }
        let free = heapAtMinute.filter { $0.key >= 2 }.map { (Double($0.key), Double($0.value.freeBytes) / mebibyte) }
        print("  heap allocated floor (MB, lowest per-second sample in the minute) at minute: "
              + heapFloorAtMinute.keys.sorted().filter { $0 % 5 == 0 || $0 == 1 }
                  .map { String(format: "%lld: %.2f", $0, Double(heapFloorAtMinute[$0]!) / mebibyte) }
                  .joined(separator: ", "))
        print(String(format: "  heap allocated floor grows %.2f MB per hour, heap free %.2f MB per hour "
                     + "(least-squares slopes over minutes 2–%lld%@)", Self.slope(heapFloor) * 60,
                     Self.slope(free) * 60, minutes, span))
        // A marker line `make bench` reads (the RSS figure is `run`'s result, printed by the caller).
        print("soak_heap_growth_mb_per_hour=\(Self.slope(heapFloor) * 60)")
        return growth
    }

    /// The least-squares slope of `points` (0 for fewer than two distinct x).
    static func slope(_ points: [(Double, Double)]) -> Double {
        let n = Double(points.count)
        let meanX = points.map(\.0).reduce(0, +) / max(n, 1), meanY = points.map(\.1).reduce(0, +) / max(n, 1)
        let sxx = points.map { ($0.0 - meanX) * ($0.0 - meanX) }.reduce(0, +)
        let sxy = points.map { ($0.0 - meanX) * ($0.1 - meanY) }.reduce(0, +)
        return sxx > 0 ? sxy / sxx : 0
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
