import Foundation
import PauseCamCore
import PauseCamVirtual

/// The frames and sound of one same-job comparison, held in memory for PauseCam and written raw for the ffmpeg
/// command line, so both sides encode exactly the same bytes: `distinct` frames looped to the recording's length,
/// and the same mono 48 kHz PCM.
struct BenchContent {
    var name: String
    var width: Int
    var height: Int
    /// Distinct yuv420p frames (limited range), looped.
    var frames: [VideoFrame]
    /// The same frames, concatenated raw (`-f rawvideo -pix_fmt yuv420p`), for `-stream_loop -1`.
    var rawPath: String

    /// `count` frames of the documented virtual test pattern (easy to encode: flat colours).
    static func pattern(width: Int, height: Int, count: Int, folder: URL) throws -> BenchContent {
        let lens = VirtualLens(lens: "main", color: RGBColor(hex: "#20c040")!, width: width, height: height,
                               rate: FrameRate(30), serialContext: SimulatedSerialContext())
        var previous: MediaTime?
        let frames = (0..<count).map { index in
            let pts = MediaTime(value: Int64(index), timescale: 30)
            defer { previous = pts }
            return lens.render(pts: pts, previous: previous)
        }
        let raw = folder.appendingPathComponent("pattern.yuv").path
        _ = FileManager.default.createFile(atPath: raw, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: raw))
        for frame in frames {
            for plane in frame.planes { handle.write(Data(plane.bytes)) }
        }
        try handle.close()
        return BenchContent(name: "pattern", width: width, height: height, frames: frames, rawPath: raw)
    }

    /// `count` camera-like frames: ffmpeg's `testsrc2` under temporal noise (`noise=alls=12:allf=t`), rendered
    /// once to raw yuv420p and read back, so PauseCam and the ffmpeg command line get the same bytes.
    static func camera(width: Int, height: Int, count: Int, folder: URL) throws -> BenchContent? {
        let raw = folder.appendingPathComponent("camera.yuv").path
        guard BenchProcess.run(["-v", "error", "-y", "-f", "lavfi", "-i",
                                "testsrc2=size=\(width)x\(height):rate=30,noise=alls=12:allf=t",
                                "-frames:v", String(count), "-pix_fmt", "yuv420p", "-f", "rawvideo", raw]) != nil,
              let data = FileManager.default.contents(atPath: raw) else { return nil }
        let lumaSize = width * height, chromaSize = lumaSize / 4, frameSize = lumaSize + 2 * chromaSize
        guard data.count >= frameSize * count else { return nil }
        let bytes = [UInt8](data)
        let frames = (0..<count).map { index -> VideoFrame in
            let base = index * frameSize
            return VideoFrame(pts: MediaTime(value: Int64(index), timescale: 30), width: width, height: height,
                              format: .yuv420p,
                              planes: [Plane(bytes: Array(bytes[base..<(base + lumaSize)]), stride: width),
                                       Plane(bytes: Array(bytes[(base + lumaSize)..<(base + lumaSize + chromaSize)]),
                                             stride: width / 2),
                                       Plane(bytes: Array(bytes[(base + lumaSize + chromaSize)..<(base + frameSize)]),
                                             stride: width / 2)],
                              lens: "main")
        }
        return BenchContent(name: "camera", width: width, height: height, frames: frames, rawPath: raw)
    }
}

/// The sound of a same-job comparison: `seconds` of a 440 Hz tone under a little noise, mono 48 kHz s16.
struct BenchSound {
    static let sampleRate: Int32 = 48_000
    var samples: [Int16]
    var rawPath: String

    init(seconds: Int64, folder: URL) throws {
        var generator = SystemRandomNumberGenerator()
        let count = Int(seconds) * Int(Self.sampleRate)
        samples = (0..<count).map { index in
            let tone = 6000 * sin(2 * Double.pi * 440 * Double(index) / Double(Self.sampleRate))
            return Int16(tone) &+ Int16.random(in: -300...300, using: &generator)
        }
        rawPath = folder.appendingPathComponent("sound.s16").path
        let data = samples.withUnsafeBufferPointer { Data(buffer: $0) }
        _ = FileManager.default.createFile(atPath: rawPath, contents: data)
    }
}

/// Runs `/usr/bin/ffmpeg` and reports its wall time.
enum BenchProcess {
    static let ffmpeg = "/usr/bin/ffmpeg"

    /// Seconds the command took, nil when ffmpeg is missing or failed.
    static func run(_ arguments: [String]) -> Double? {
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = arguments
        let start = DispatchTime.now().uptimeNanoseconds
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
