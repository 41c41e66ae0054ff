import Foundation
import PauseCamCore
import PauseCamSystem

/// `webcam_cost_ratio`: what the webcam live sink costs beside the recording. The same clip as `stream_cost_ratio`
/// (720p30 two-lens virtual rig, process CPU per recorded second) with one `V4L2LoopbackOutput` against none. This
/// host has no v4l2loopback module, so the output writes to `NullLoopbackDevice`: the output's own work is all real
/// (its channel, its writer thread, `WebcamPicturePacker` making each 1280×720 picture in the rig's layout, one
/// `write()` of the whole picture per frame), but the write goes to `/dev/null`, so the driver's copy of the picture
/// into its buffer and the `VIDIOC_*` set-up calls are not counted. The output is made with `blockWhenBehind`, so
/// on the simulated clock (faster than real time) every program frame waits for the writer instead of replacing the
/// one waiting: every frame is written, and the bench prints how many were given, written, copied and replaced.
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
            let planar = pixelFormat == .yuv420
            return V4L2NegotiatedFormat(pixelFormat: pixelFormat, width: width, height: height,
                                        bytesPerLine: planar ? width : width * 2,
                                        imageSize: planar ? width * height * 3 / 2 : width * height * 2)
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
        let format: Rig.Live.WebcamFormat
        var output: V4L2LoopbackOutput?
        init(format: Rig.Live.WebcamFormat) { self.format = format }
        func makeLiveSinks(for program: LiveProgram, report: @escaping @Sendable (EngineEvent) -> Void) -> [any LiveSink] {
            guard let output = try? V4L2LoopbackOutput(device: NullLoopbackDevice(), pixelFormat: V4L2PixelFormat(format),
                                                       width: program.width, height: program.height,
                                                       rate: program.rate, blockWhenBehind: true,
                                                       onLost: { _ in }) else { return [] }
            self.output = output
            return [output]
        }
    }

    @discardableResult
    static func run(seconds recordSeconds: Int64, preset: String = "ultrafast", rounds: Int = 3,
                    format: Rig.Live.WebcamFormat = .i420) throws -> StreamCostBench.Figures? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-webcam-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var without: [Double] = [], with: [Double] = []
        for round in 0..<max(1, rounds) {
            for webcam in [false, true] {
                let factory = webcam ? Factory(format: format) : nil
                guard let cost = try StreamCostBench.recordClip(
                    seconds: recordSeconds, preset: preset, folder: folder, name: "webcam-\(round)-\(webcam)",
                    liveSinks: factory, ready: { true }, notReady: "webcam cost skipped")
                else { return nil }
                if webcam { with.append(cost) } else { without.append(cost) }
                var detail = ""
                if let counts = factory?.output?.statistics {
                    let given = counts.framesWritten + counts.framesNotDrawn + counts.framesReplaced + counts.framesWhileLost
                    detail = " (program frames given \(given), written \(counts.framesWritten), of them copied "
                        + "without conversion \(counts.framesCopied), repeats of the picture before "
                        + "\(counts.framesRepeated), replaced before written \(counts.framesReplaced))"
                }
                let what = "webcam \(format.rawValue.uppercased()) 1280x720 to /dev/null"
                print(String(format: "webcam: 720p30 virtual rig, x264 %@, %@: %.3f CPU s per recorded s%@", preset,
                             webcam ? what : "no webcam", cost, detail))
            }
        }
        let ratios = zip(with, without).map { $0 / $1 }
        let figures = StreamCostBench.Figures(without: median(without), with: median(with), ratio: median(ratios))
        print(String(format: "webcam: the %@ webcam output costs %.3f CPU s per recorded s against %.3f without "
                     + "(medians); webcam_cost_ratio %.3f (median of %d rounds; goal <= 1.05)",
                     format.rawValue.uppercased(), figures.with, figures.without, figures.ratio, ratios.count))
        return figures
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
