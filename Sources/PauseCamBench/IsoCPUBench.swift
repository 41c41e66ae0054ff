import Foundation
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

/// `iso_cpu_ratio`: what keeping every angle costs when the lenses are MJPEG. CPU seconds (user + system of this
/// process, `getrusage`) per recorded second of a 1080p30 clip from three hot MJPEG `file:` lenses with an ISO of
/// each (their JPEGs passed through), over the same clip without ISOs; goal at most 1.05. The program is encoded
/// by x264 at `preset` both times (ultrafast by default: the cheapest program, so the ratio is the least
/// flattering). The two rigs alternate for `rounds` rounds; each round's ratio compares two clips recorded one
/// after the other (under about the same load from the rest of the machine), and the figure is the median of the
/// rounds' ratios: on a loaded 2-core machine single clips of one rig differed by 10 %, twice the goal's margin.
enum IsoCPUBench {
    struct Figures {
        /// CPU seconds per recorded second without ISOs, and with one passed-through ISO per lens (medians).
        var withoutIsos: Double
        var withIsos: Double
        /// The median of the rounds' `with / without`.
        var ratio: Double
        /// Every round's ratio, in order.
        var roundRatios: [Double]
    }

    /// Records the two rigs `rounds` times each, `seconds` of movie a clip; prints every round and the ratio and
    /// returns the figures; nil when ffmpeg is missing to make the MJPEG movie, or when an ISO was not MJPEG.
    @discardableResult
    static func run(seconds recordSeconds: Int64, lenses: Int = 3, preset: String = "ultrafast",
                    rounds: Int = 3) throws -> Figures? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-iso-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let movie = try StandbyBench.makeMJPEGMovie(in: folder) else {
            print("iso cost skipped: /usr/bin/ffmpeg not found to make the MJPEG movie")
            return nil
        }
        var without: [Double] = [], with: [Double] = []
        for round in 0..<max(1, rounds) {
            for isos in [false, true] {
                guard let cost = try cpuPerRecordedSecond(movie: movie, lenses: lenses, isos: isos,
                                                          seconds: recordSeconds, preset: preset, folder: folder,
                                                          name: "iso-\(round)-\(isos)")
                else { return nil }
                if isos { with.append(cost) } else { without.append(cost) }
                print(String(format: "iso: %d hot 1080p30 MJPEG file lenses, x264 %@, %@: %.3f CPU s per recorded s",
                             lenses, preset, isos ? "an MJPEG ISO of each passed through" : "no ISO", cost))
            }
        }
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
                : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        let ratios = zip(with, without).map { $0 / $1 }
        let figures = Figures(withoutIsos: median(without), withIsos: median(with), ratio: median(ratios),
                              roundRatios: ratios)
        print(String(format: "iso: %d passed-through MJPEG ISOs cost %.3f CPU s per recorded s against %.3f without "
                     + "(medians); iso_cpu_ratio %.3f (median of %d rounds: %@; goal <= 1.05)", lenses,
                     figures.withIsos, figures.withoutIsos, figures.ratio, ratios.count,
                     ratios.map { String(format: "%.3f", $0) }.joined(separator: ", ")))
        return figures
    }

    /// Records one clip from lens `a0` with `lenses` hot lenses replaying `movie`, with an ISO of every lens or none,
    /// and returns the process's CPU seconds per second of movie (from `record` to the finished clip and ISOs);
    /// nil, with a message, when an ISO is missing or is not MJPEG.
    static func cpuPerRecordedSecond(movie: String, lenses: Int, isos: Bool, seconds recordSeconds: Int64,
                                     preset: String, folder: URL, name: String) throws -> Double? {
        let names = (0..<lenses).map { "a\($0)" }
        var output = Rig.OutputSettings(directory: folder.path, namePattern: name, width: 1920, height: 1080,
                                        rate: FrameRate(30), preset: preset, crf: 23)
        if isos { output.iso = names }
        let rig = Rig(name: "Iso", output: output, audio: Rig.AudioInput(device: .virtual),
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
                                       finishing: InlineWorker(), notify: { _ in })
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        controller.startDevices()
        let before = ProcessCPUTime.seconds()
        _ = runner.perform(.record(name: nil))
        _ = runner.perform(.wait(.seconds(recordSeconds)))
        let clip = runner.finishClip()
        let spent = ProcessCPUTime.seconds() - before
        controller.stopDevices()
        let written = clip?.sidecar.iso ?? []
        if isos {
            guard written.count == lenses else {
                print("iso cost skipped: \(written.count) of \(lenses) ISOs were written")
                return nil
            }
            let codecs = Set(written.map { isoCodec(folder.appendingPathComponent($0.file).path) })
            guard codecs == ["mjpeg"] else {
                print("iso cost skipped: the ISOs are \(codecs.sorted()), not passed-through MJPEG")
                return nil
            }
        }
        let recorded = Double(clip?.sidecar.video.framesWritten ?? 0) / 30
        return spent / max(recorded, 1 / 30)
    }

    /// The video codec of `path` as ffprobe names it (after the CPU was counted: ffprobe is another process).
    private static func isoCodec(_ path: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name",
                             "-of", "csv=p=0", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return "unknown (no ffprobe)" }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
