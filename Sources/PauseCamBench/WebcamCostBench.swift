import Foundation
import PauseCamCore
import PauseCamSystem

/// `webcam_cost_ratio`: what the webcam live sink costs beside the recording. The same clip as `stream_cost_ratio`
/// (720p30 two-lens virtual rig, process CPU per recorded second) with one `V4L2LoopbackOutput` against none. This
/// host has no v4l2loopback module, so the output writes to `NullLoopbackDevice`: the output's own work is all real
/// (its channel, its writer thread, `CanvasYUYVPacker`'s libswscale conversion of every frame it takes to packed
/// YUYV 1280×720, one `write()` of the whole picture per frame), but the write goes to `/dev/null`, so the driver's
/// copy of the picture into its buffer and the `VIDIOC_*` set-up calls are not counted. The output keeps one frame
/// waiting (newest wins); on the simulated clock the engine runs faster than real time, so the bench prints how many
/// frames were written and how many a newer one replaced: only the written ones were converted.
enum WebcamCostBench {
    /// A loopback device that says it is v4l2loopback, takes any YUYV format and writes each frame to `/dev/null`.
    final class NullLoopbackDevice: V4L2LoopbackDevice, @unchecked Sendable {
        let path = "/dev/null"
        private let descriptor = open("/dev/null", O_WRONLY | O_CLOEXEC)
        private let closed = Guarded(false)

        func queryCapability() throws -> V4L2Capability {
            V4L2Capability(driver: "v4l2 loopback", card: "bench", busInfo: "platform:v4l2loopback-000",
                           nodeCapabilities: .videoOutput)
        }

        func setOutputFormat(pixelFormat: V4L2PixelFormat, width: Int, height: Int) throws -> V4L2NegotiatedFormat {
            V4L2NegotiatedFormat(pixelFormat: pixelFormat, width: width, height: height, bytesPerLine: width * 2,
                                 imageSize: width * height * 2)
        }

        func setOutputFrameRate(_ rate: FrameRate) throws -> FrameRate? { rate }

        func writeFrame(_ bytes: UnsafeRawBufferPointer) throws {
            guard let base = bytes.baseAddress else { return }
            _ = write(descriptor, base, bytes.count)
        }

        func close() {
            let first = closed.withLock { wasClosed -> Bool in
                defer { wasClosed = true }
                return !wasClosed
            }
            if first && descriptor >= 0 { _ = Foundation.close(descriptor) }
        }
    }

    /// Keeps the webcam output it makes, so the bench can read its counts.
    final class Factory: LiveSinkFactory {
        var output: V4L2LoopbackOutput?
        func makeLiveSinks(for program: LiveProgram, report: @escaping @Sendable (EngineEvent) -> Void) -> [any LiveSink] {
            guard let output = try? V4L2LoopbackOutput(device: NullLoopbackDevice(), width: program.width,
                                                       height: program.height, rate: program.rate,
                                                       onEnded: { _ in }) else { return [] }
            self.output = output
            return [output]
        }
    }

    @discardableResult
    static func run(seconds recordSeconds: Int64, preset: String = "ultrafast", rounds: Int = 3) throws
        -> StreamCostBench.Figures? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-webcam-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var without: [Double] = [], with: [Double] = []
        for round in 0..<max(1, rounds) {
            for webcam in [false, true] {
                let factory = webcam ? Factory() : nil
                guard let cost = try StreamCostBench.recordClip(
                    seconds: recordSeconds, preset: preset, folder: folder, name: "webcam-\(round)-\(webcam)",
                    liveSinks: factory, ready: { true }, notReady: "webcam cost skipped")
                else { return nil }
                if webcam { with.append(cost) } else { without.append(cost) }
                var detail = ""
                if let counts = factory?.output?.statistics {
                    detail = " (frames written \(counts.framesWritten), replaced before written \(counts.framesReplaced))"
                }
                print(String(format: "webcam: 720p30 virtual rig, x264 %@, %@: %.3f CPU s per recorded s%@", preset,
                             webcam ? "webcam YUYV 1280x720 to /dev/null" : "no webcam", cost, detail))
            }
        }
        let ratios = zip(with, without).map { $0 / $1 }
        let figures = StreamCostBench.Figures(without: median(without), with: median(with), ratio: median(ratios))
        print(String(format: "webcam: the webcam output costs %.3f CPU s per recorded s against %.3f without "
                     + "(medians); webcam_cost_ratio %.3f (median of %d rounds; goal <= 1.05)", figures.with,
                     figures.without, figures.ratio, ratios.count))
        return figures
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
