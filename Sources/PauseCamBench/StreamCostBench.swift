import Foundation
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

/// `stream_cost_ratio`: what one live stream costs beside the recording. CPU seconds (user + system of this
/// process, `getrusage`, the stream's thread included) per recorded second of a 720p30 clip from the virtual rig,
/// with one 720p 3 Mbit/s stream (`StreamOutput`, x264 veryfast CBR-like + AAC, MPEG-TS over SRT to an `ffmpeg`
/// listening on loopback, whose own CPU is not counted), over the same clip without it. The program is encoded at
/// `preset` (ultrafast: the cheapest program, so the ratio is the least flattering). On the simulated clock the
/// stream waits for room rather than dropping, so every frame's cost counts. The two alternate for `rounds` rounds;
/// the figure is the median of the rounds' ratios.
enum StreamCostBench {
    struct Figures {
        var without: Double
        var with: Double
        var ratio: Double
    }

    /// Keeps the one stream it makes, so the bench can wait for it to connect.
    final class Factory: LiveSinkFactory {
        let port: Int
        var output: StreamOutput?
        init(port: Int) { self.port = port }
        func makeLiveSinks(for program: LiveProgram, report: @escaping @Sendable (EngineEvent) -> Void) -> [any LiveSink] {
            guard let url = try? StreamURL.parse("srt://127.0.0.1:\(port)").get() else { return [] }
            var settings = StreamOutput.Settings(url: url, name: "bench", width: 1280, height: 720, rate: program.rate,
                                                 bitrate: 3_000_000, audioBitrate: 128_000,
                                                 audioSampleRate: program.audioSampleRate.map { Int32($0) },
                                                 audioChannels: program.audioChannels ?? 1)
            settings.blockWhenBehind = true
            let output = StreamOutput(settings: settings, report: { _ in })
            self.output = output
            return [output]
        }
    }

    @discardableResult
    static func run(seconds recordSeconds: Int64, preset: String = "ultrafast", rounds: Int = 3) throws -> Figures? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            print("stream cost skipped: /usr/bin/ffmpeg not found to receive the stream")
            return nil
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-stream-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var without: [Double] = [], with: [Double] = []
        for round in 0..<max(1, rounds) {
            for streaming in [false, true] {
                guard let cost = try cpuPerRecordedSecond(streaming: streaming, seconds: recordSeconds, preset: preset,
                                                          folder: folder, name: "stream-\(round)-\(streaming)")
                else { return nil }
                if streaming { with.append(cost) } else { without.append(cost) }
                print(String(format: "stream: 720p30 virtual rig, x264 %@, %@: %.3f CPU s per recorded s", preset,
                             streaming ? "one 720p 3 Mbit/s SRT stream" : "no stream", cost))
            }
        }
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
                : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        let ratios = zip(with, without).map { $0 / $1 }
        let figures = Figures(without: median(without), with: median(with), ratio: median(ratios))
        print(String(format: "stream: one 720p 3 Mbit/s stream costs %.3f CPU s per recorded s against %.3f without "
                     + "(medians); stream_cost_ratio %.3f (median of %d rounds)", figures.with, figures.without,
                     figures.ratio, ratios.count))
        return figures
    }

    /// Ends the listener: it ends by itself when the stream ends; else SIGTERM, then SIGKILL after 3 s.
    static func stop(_ listener: Process) {
        let end = Date().addingTimeInterval(3)
        while listener.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.05) }
        if listener.isRunning { listener.terminate() }
        let killAt = Date().addingTimeInterval(3)
        while listener.isRunning && Date() < killAt { Thread.sleep(forTimeInterval: 0.05) }
        if listener.isRunning { kill(listener.processIdentifier, SIGKILL) }
        listener.waitUntilExit()
    }

    static func cpuPerRecordedSecond(streaming: Bool, seconds recordSeconds: Int64, preset: String, folder: URL,
                                     name: String) throws -> Double? {
        var listener: Process?
        var factory: Factory?
        if streaming {
            let port = Int.random(in: 20_000...60_000)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            process.arguments = ["-nostdin", "-v", "error", "-f", "mpegts", "-i", "srt://127.0.0.1:\(port)?mode=listener",
                                 "-c", "copy", "-f", "mpegts", "-y", "/dev/null"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            listener = process
            factory = Factory(port: port)
        }
        defer { if let listener { stop(listener) } }
        return try recordClip(seconds: recordSeconds, preset: preset, folder: folder, name: name, liveSinks: factory,
                              ready: { factory?.output?.statistics.live ?? true },
                              notReady: "stream cost skipped: the stream did not connect to the ffmpeg listener")
    }

    /// Records a `recordSeconds` clip of the 720p30 two-lens virtual rig with `liveSinks` (after `ready` holds, at
    /// most 30 s) and returns the process's CPU seconds per recorded second; `nil` (saying `notReady`) if never ready.
    static func recordClip(seconds recordSeconds: Int64, preset: String, folder: URL, name: String,
                           liveSinks: (any LiveSinkFactory)?, ready: () -> Bool, notReady: String) throws -> Double? {
        let output = Rig.OutputSettings(directory: folder.path, namePattern: name, width: 1280, height: 720,
                                        rate: FrameRate(30), preset: preset, crf: 23)
        let colors = ["wide": "#d03030", "main": "#20c040"]
        let lenses = ["wide", "main"].map {
            Rig.Lens(name: $0, source: .virtual(color: RGBColor(hex: colors[$0]!)!), width: 1280, height: 720,
                     rate: FrameRate(30))
        }
        let rig = Rig(name: "Stream", output: output, audio: Rig.AudioInput(device: .virtual), lenses: lenses,
                      defaultLens: "main", standby: .hot)
        let serialContext = SimulatedSerialContext()
        var cameras: [String: any Camera] = [:]
        for lens in lenses {
            guard case .virtual(let color) = lens.source else { continue }
            cameras[lens.name] = VirtualLens(lens: lens.name, color: color, width: 1280, height: 720,
                                             rate: FrameRate(30), serialContext: serialContext)
        }
        let controller = BenchEngine.controller(rig: rig, cameras: cameras,
                                                microphone: VirtualMicrophone(serialContext: serialContext),
                                                sinkFactory: MovieWriterFactory(), store: AtomicSidecarStore(),
                                                serialContext: serialContext, outputDirectory: folder.path,
                                                finishing: InlineWorker(), liveSinks: liveSinks, notify: { _ in })
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        controller.startDevices()
        do {
            let end = Date().addingTimeInterval(30)
            while !ready() {
                guard Date() < end else {
                    print(notReady)
                    controller.closeLive()
                    controller.stopDevices()
                    return nil
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        let before = ProcessCPUTime.seconds()
        _ = runner.perform(.record(name: nil))
        _ = runner.perform(.wait(.seconds(recordSeconds)))
        let clip = runner.finishClip()
        controller.closeLive()
        let spent = ProcessCPUTime.seconds() - before
        controller.stopDevices()
        let recorded = Double(clip?.sidecar.video.framesWritten ?? 0) / 30
        return spent / max(recorded, 1 / 30)
    }
}
