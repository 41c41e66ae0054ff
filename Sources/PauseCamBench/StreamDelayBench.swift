import Foundation
import PauseCamCore
import PauseCamSystem

/// The delay from capture to the packet leaving, for one 720p30 3 Mbit/s SRT stream (`StreamOutput`, x264 veryfast,
/// MPEG-TS, to an `ffmpeg` listener on loopback). Frames are made at real time (30 per second, by the wall clock),
/// each stamped with the monotonic clock as its capture time (as a real camera's frame is on the session clock) and
/// handed to the output at once; `StreamOutput.Settings.videoPacketWritten` tells, for each video packet, the live
/// time of its frame just after `av_interleaved_write_frame` took it. The delay is that moment minus the frame's
/// stamp: the output's queue, the scaling to the stream's canvas, the encoder's own delay and the write. Not in it:
/// the engine's compositing before the sink, the sound (this stream has none, so the muxer never holds video to
/// interleave it), the network beyond loopback and the receiver's buffer (SRT's latency).
enum StreamDelayBench {
    struct Figures {
        var median: Double
        var p95: Double
    }

    @discardableResult
    static func run(seconds: Int) throws -> Figures? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            print("stream delay skipped: /usr/bin/ffmpeg not found to receive the stream")
            return nil
        }
        let port = Int.random(in: 20_000...60_000)
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        listener.arguments = ["-nostdin", "-v", "error", "-f", "mpegts", "-i", "srt://127.0.0.1:\(port)?mode=listener",
                              "-c", "copy", "-f", "mpegts", "-y", "/dev/null"]
        listener.standardOutput = FileHandle.nullDevice
        listener.standardError = FileHandle.nullDevice
        try listener.run()
        defer { StreamCostBench.stop(listener) }
        guard let url = try? StreamURL.parse("srt://127.0.0.1:\(port)").get() else { return nil }
        let delays = Guarded<[Double]>([])
        var settings = StreamOutput.Settings(url: url, name: "bench", width: 1280, height: 720, rate: FrameRate(30),
                                             bitrate: 3_000_000, audioBitrate: 128_000, audioSampleRate: nil,
                                             audioChannels: 1)
        settings.videoPacketWritten = { captured in
            let delay = now().seconds - captured.seconds
            delays.withLock { $0.append(delay) }
        }
        let output = StreamOutput(settings: settings, report: { _ in })
        let end = Date().addingTimeInterval(30)
        while !output.statistics.live {
            guard Date() < end else {
                print("stream delay skipped: the stream did not connect to the ffmpeg listener")
                output.close()
                return nil
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let pictures = (0..<30).map(picture)
        let start = DispatchTime.now().uptimeNanoseconds
        let count = max(1, seconds) * 30
        for index in 0..<count {
            let due = start + UInt64(index) * 1_000_000_000 / 30
            let current = DispatchTime.now().uptimeNanoseconds
            if due > current { Thread.sleep(forTimeInterval: Double(due - current) / 1e9) }
            var frame = pictures[index % pictures.count]
            frame.pts = now()
            output.appendVideo(frame, at: frame.pts)
        }
        output.close()
        let sorted = delays.withLock { $0 }.sorted()
        guard !sorted.isEmpty else {
            print("stream delay: no video packet was written")
            return nil
        }
        let median = sorted[sorted.count / 2]
        let p95 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)]
        print(String(format: "stream delay: capture to packet written (720p30 3 Mbit/s SRT, x264 veryfast, real-time "
                     + "feed of %d frames, %d packets): median %.1f ms, 95th percentile %.1f ms, max %.1f ms",
                     count, sorted.count, median * 1000, p95 * 1000, sorted[sorted.count - 1] * 1000))
        return Figures(median: median, p95: p95)
    }

    /// The monotonic clock at 90 kHz (the encoder's time base, so adding the two never needs a finer scale).
    private static func now() -> MediaTime {
        MediaTime(value: Int64(clamping: DispatchTime.now().uptimeNanoseconds / 100_000 * 9), timescale: 90_000)
    }

    /// A 1280×720 4:2:0 picture with a bar that moves with `index`, so the encoder has motion to code.
    private static func picture(_ index: Int) -> VideoFrame {
        let width = 1280, height = 720
        var luma = [UInt8](repeating: 60, count: width * height)
        for row in 0..<height {
            for column in 0..<width {
                luma[row * width + column] = UInt8(truncatingIfNeeded: (column + row + index * 8) & 0xff)
            }
        }
        let chroma = [UInt8](repeating: 128, count: width * height / 4)
        return VideoFrame(pts: .zero, width: width, height: height, format: .yuv420p,
                          planes: [Plane(bytes: luma, stride: width), Plane(bytes: chroma, stride: width / 2),
                                   Plane(bytes: chroma, stride: width / 2)],
                          lens: "main")
    }
}
