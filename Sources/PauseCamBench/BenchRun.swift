import Foundation
import PauseCamCore
import PauseCamSystem

/// `make bench`: every figure of `bench/README.md` from one run, printed as it is measured and written to
/// `bench/results.json` at the end (a ratio above 1 means PauseCam is ahead).
struct BenchRun {
    /// Seconds recorded per same-job encode and per hot-lens rig.
    var seconds: Int64 = 10
    /// Simulated minutes of the soak (its growth is extrapolated to an hour when shorter).
    var soakMinutes: Int64 = 60
    var presets = ["ultrafast", "veryfast"]
    var jsonPath: String?
    /// Rounds per same-job figure (the best is kept).
    var repeats = 2
    /// Distinct frames per content, looped (2 s at 30 fps).
    var distinctFrames = 60

    func run() throws {
        var results: [String: Any] = [:]
        results["machine"] = machine()
        results["seconds"] = seconds
        results["soak_minutes"] = soakMinutes
        results["repeats"] = repeats
        print("machine: \(EncoderSpeedCache.cpuModel()), nproc \(ProcessInfo.processInfo.activeProcessorCount), "
              + "load average \(loadAverage())")

        try RigLoadingBench.run()
        results["export_seconds_by_scenes"] = try ExportBench.run()
        results["scene_toggles_seconds"] = try SceneToggleBench.run()

        let retimer = RetimerBench.nanosecondsPerSample()
        results["retimer_ns_per_sample"] = retimer
        print(String(format: "retimer: %.1f ns per audio sample (10 min of 30 fps video and 48 kHz audio)", retimer))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        if let finish = try FinishBench.run(folder: folder) {
            (results["finish_seconds_per_recorded_hour"], results["finish_extra_disk_ratio"]) = (finish.secondsPerHour, finish.extraDiskRatio)
        }
        if let isos = try FinishIsoBench.run(folder: folder) {
            (results["finish_seconds_per_recorded_hour_3_isos"], results["finish_extra_disk_ratio_3_isos"]) = (isos.secondsPerHour, isos.extraDiskRatio)
        }
        let sound = try BenchSound(seconds: seconds + 1, folder: folder)
        var contents = [try BenchContent.pattern(width: 1920, height: 1080, count: distinctFrames, folder: folder)]
        if let camera = try BenchContent.camera(width: 1920, height: 1080, count: distinctFrames, folder: folder) {
            contents.append(camera)
        } else {
            print("camera-like content skipped: /usr/bin/ffmpeg could not render it")
        }
        var sameJob: [String: Any] = [:]
        var floorRatios: [Double] = [], jobFloorRatios: [Double] = []
        for content in contents {
            var byPreset: [String: Any] = [:]
            for preset in presets {
                let figures = try SameJobBench.run(content: content, sound: sound, seconds: seconds, preset: preset,
                                                   repeats: repeats, folder: folder)
                var entry: [String: Any] = ["pausecam_fps": figures.pauseCamFPS, "floor_fps": figures.floorFPS,
                                            "floor_ratio": figures.floorRatio]
                entry["ffmpeg_fps"] = figures.ffmpegFPS ?? NSNull()
                entry["ratio"] = figures.ratio ?? NSNull()
                entry["pausecam_cpu_ms_per_frame"] = figures.pauseCamCPU
                entry["ffmpeg_cpu_ms_per_frame"] = figures.ffmpegCPU ?? NSNull()
                entry["floor_cpu_ms_per_frame"] = figures.floorCPU
                entry["cpu_ratio"] = figures.cpuRatio ?? NSNull()
                entry["floor_cpu_ratio"] = figures.floorCPURatio
                entry["ffmpeg_without_matrix_fps"] = figures.ffmpegWithoutMatrixFPS ?? NSNull()
                entry["ffmpeg_without_matrix_cpu_ms_per_frame"] = figures.ffmpegWithoutMatrixCPU ?? NSNull()
                entry["drawing_cpu_ms_per_frame"] = figures.drawingCPU
                entry["aac_cpu_ms_per_frame"] = figures.audioCPU
                entry["job_floor_cpu_ms_per_frame"] = figures.jobFloorCPU
                entry["job_floor_cpu_ratio"] = figures.jobFloorCPURatio
                entry["cpu_ms_per_frame_rounds"] = ["pausecam": figures.pauseCamRounds, "ffmpeg": figures.ffmpegRounds,
                                                    "floor": figures.floorRounds]
                byPreset[preset] = entry
                floorRatios.append(figures.floorRatio)
                jobFloorRatios.append(figures.jobFloorCPURatio)
                print(String(format: "same job 1920x1080/30 %@ x264 %@: PauseCam %.1f fps, ffmpeg CLI %@, "
                             + "libx264 alone %.1f fps; ratio %@, floor_ratio %.3f",
                             content.name, preset, figures.pauseCamFPS,
                             figures.ffmpegFPS.map { String(format: "%.1f fps", $0) } ?? "skipped",
                             figures.floorFPS, figures.ratio.map { String(format: "%.3f", $0) } ?? "-",
                             figures.floorRatio))
                print(String(format: "  CPU per frame: PauseCam %.2f ms, ffmpeg CLI %@, libx264 alone %.2f ms; "
                             + "cpu_ratio %@, floor_cpu_ratio %.3f", figures.pauseCamCPU,
                             figures.ffmpegCPU.map { String(format: "%.2f ms", $0) } ?? "skipped", figures.floorCPU,
                             figures.cpuRatio.map { String(format: "%.3f", $0) } ?? "-", figures.floorCPURatio))
                print(String(format: "  alone: drawing onto the canvas %.2f ms, AAC %.2f ms per frame; job floor (x264 "
                             + "+ drawing + AAC) %.2f ms, job_floor_cpu_ratio %.3f; ffmpeg CLI without the BT.709 "
                             + "matrix %@", figures.drawingCPU, figures.audioCPU, figures.jobFloorCPU,
                             figures.jobFloorCPURatio,
                             figures.ffmpegWithoutMatrixFPS.map { String(format: "%.1f fps, %.2f ms", $0,
                                                                        figures.ffmpegWithoutMatrixCPU ?? 0) } ?? "-"))
                func spread(_ rounds: [Double]) -> String {
                    rounds.isEmpty ? "-" : String(format: "%.2f–%.2f", rounds.min()!, rounds.max()!)
                }
                print("  CPU ms per frame over the rounds (lowest–highest): PauseCam \(spread(figures.pauseCamRounds)), "
                      + "ffmpeg CLI \(spread(figures.ffmpegRounds)), libx264 alone \(spread(figures.floorRounds))")
            }
            sameJob[content.name] = byPreset
            fflush(nil)  // each figure shows as it is measured, also through a pipe (`make bench | tee`)
        }
        results["same_job"] = sameJob
        results["floor_ratio"] = floorRatios.min() ?? NSNull()
        results["job_floor_cpu_ratio"] = jobFloorRatios.min() ?? NSNull()

        var auto: [String: Any] = [:]
        for (width, height) in [(1920, 1080), (1280, 720)] {
            let measurement = try EncoderSpeedMeter.measure(width: width, height: height, rate: FrameRate(30))
            let choice = EncoderPresetChoice.choose(measurement)
            auto["\(width)x\(height)@30"] = [
                "preset": choice,
                "fps": Dictionary(uniqueKeysWithValues: measurement.samples.map { ($0.preset, $0.framesPerSecond) }),
            ] as [String: Any]
            print(measurement.report, terminator: "")
        }
        results["auto_preset"] = auto

        if let monitor = try MonitorBench.run(seconds: seconds) {
            results["monitor_cost_ratio"] = monitor.costRatio
            results["monitor_delay_ms"] = ["median": monitor.delayMedianMilliseconds, "p95": monitor.delayP95Milliseconds]
        }
        let standby = try StandbyBench.run(seconds: seconds)
        if let standby {
            results["standby_cost_ratio"] = standby.standbyCostRatio
            results["cpu_seconds_per_recorded_second"] = Dictionary(uniqueKeysWithValues:
                standby.cpuPerRecordedSecond.map { (String($0.key), $0.value) })
        }
        // An inactive hot YUYV camera: its capture path (dequeue, copy out of the mmap buffer, queue again).
        try YUYVStandbyBench.run(seconds: Int(seconds), activeCost: standby?.cpuPerRecordedSecond[1])
        if let iso = try IsoCPUBench.run(seconds: seconds) { results["iso_cpu_ratio"] = iso.ratio }
        if let voices = try VoiceBench.run(seconds: seconds) { results["voice_track_cost_ratio"] = voices.ratio }
        if let stream = try StreamCostBench.run(seconds: seconds) { results["stream_cost_ratio"] = stream.ratio }
        if let delay = try StreamDelayBench.run(seconds: Int(seconds)) {
            results["stream_delay_median_ms"] = delay.median * 1000
            results["stream_delay_p95_ms"] = delay.p95 * 1000
        }
        if let webcam = try WebcamCostBench.run(seconds: seconds) { results["webcam_cost_ratio"] = webcam.ratio }
        // Three group members on loopback: scene-boundary skew, late commands, the shortest lead without them.
        if let group = GroupBench.run() { results.merge(group) { $1 } }

        // In a process of its own: this one holds the same-job frames, whose memory is no part of the soak's.
        let soak = soakInChildProcess()
        results["soak_rss_growth_mb_per_hour"] = soak.resident ?? NSNull()
        results["soak_heap_growth_mb_per_hour"] = soak.heap ?? NSNull()
        results["machine"] = machine()
        if let jsonPath {
            let data = try JSONSerialization.data(withJSONObject: results, options: [.prettyPrinted, .sortedKeys])
            try data.write(to: URL(fileURLWithPath: jsonPath))
            print("wrote \(jsonPath)")
        }
    }

    /// Runs `PauseCamBench soak MINUTES` (its output passes through) and returns its growth figures: resident
    /// memory and the C heap's allocated floor, MB per hour.
    func soakInChildProcess() -> (resident: Double?, heap: Double?) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["soak", String(soakMinutes)]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return (nil, nil) }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        print(output, terminator: "")
        func figure(_ marker: String) -> Double? {
            guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix(marker) }) else { return nil }
            return Double(line.dropFirst(marker.count))
        }
        return (figure("soak_rss_growth_mb_per_hour="), figure("soak_heap_growth_mb_per_hour="))
    }

    /// The machine as the figures need it: cores, CPU model, and the load when the run ended.
    func machine() -> [String: Any] {
        ["nproc": ProcessInfo.processInfo.activeProcessorCount, "cpu_model": EncoderSpeedCache.cpuModel(),
         "load_average": loadAverage()]
    }

    /// `/proc/loadavg`'s first three fields (the machine's load while the figures were taken).
    func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
