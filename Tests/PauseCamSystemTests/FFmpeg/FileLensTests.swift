import Foundation
import XCTest
import PauseCamCore
@testable import PauseCamSystem

/// A `FileLens` on the simulated clock: it delivers the file's own frames, in order, on the file's frame grid;
/// it ends at the end of the file or starts over with `loop`; MJPEG and other codecs both decode; a file it cannot
/// read is an error naming the path. The movies are made with the `ffmpeg` command line (Debian package `ffmpeg`).
final class FileLensTests: XCTestCase {
    /// Bright first second (Y well above 150), dark second second (Y well below 150), at 15 fps: 30 frames.
    static func twoColourMovie(codec: [String], name: String) throws -> String {
        let ffmpeg = "/usr/bin/ffmpeg"
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else { throw XCTSkip("ffmpeg is not installed") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-filelens-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-v", "error", "-f", "lavfi", "-i", "color=c=0xe0e040:s=160x120:r=15:d=1",
                             "-f", "lavfi", "-i", "color=c=0x3050e0:s=160x120:r=15:d=1",
                             "-filter_complex", "[0:v][1:v]concat=n=2:v=1"] + codec + [path]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "ffmpeg could not make \(name)")
        return path
    }

    /// The mean of the frame's luma plane, so a test can tell the bright half of the movie from the dark one. An
    /// MJPEG file's frames arrive compressed (`jpeg`, as a UVC camera's); they are decoded here as the writer would.
    static func meanLuma(_ delivered: VideoFrame) -> Int {
        var frame = delivered
        if delivered.format == .jpeg {
            guard let decoded = try? MJPEGDecoder().decode(delivered.planes[0].bytes, pts: delivered.pts,
                                                           lens: delivered.lens) else { return -1 }
            frame = decoded
        }
        let plane = frame.planes[0]
        var sum = 0
        for row in 0..<frame.height {
            for column in 0..<frame.width { sum += Int(plane.bytes[row * plane.stride + column]) }
        }
        return sum / (frame.width * frame.height)
    }

    final class Collector: @unchecked Sendable {
        private let lock = NSLock()
        private var _frames: [VideoFrame] = []
        private var _ends: [String] = []
        var frames: [VideoFrame] { lock.withLock { _frames } }
        var ends: [String] { lock.withLock { _ends } }
        func add(_ frame: VideoFrame) { lock.withLock { _frames.append(frame) } }
        func end(_ reason: String) { lock.withLock { _ends.append(reason) } }
    }

    /// Starts `lens` at the simulated clock's start and lets `seconds` pass.
    static func run(_ lens: FileLens, on serialContext: SimulatedSerialContext, seconds: Int64) throws -> Collector {
        let collector = Collector()
        try serialContext.perform { try lens.start(deliver: { collector.add($0) }, onEnd: { collector.end($0) }) }
        serialContext.advance(until: serialContext.clock.now() + .seconds(seconds))
        return collector
    }

    func testAnMJPEGFileDeliversItsFramesOnItsOwnGridAndEndsAtItsEnd() throws {
        let path = try Self.twoColourMovie(codec: ["-c:v", "mjpeg", "-q:v", "2"], name: "two.mov")
        let serialContext = SimulatedSerialContext()
        let lens = try FileLens(path: path, lens: "main", loop: false, serialContext: serialContext)
        XCTAssertTrue(lens.isMJPEG)
        XCTAssertEqual(lens.format.rate, FrameRate(15))
        XCTAssertEqual(lens.format.width, 160)
        let start = serialContext.clock.now()
        let got = try Self.run(lens, on: serialContext, seconds: 3)
        let frames = got.frames
        guard frames.count == 30 else { return XCTFail("\(frames.count) frames instead of the file's 30") }
        // Frame k at start + k/15 (the start falls on the 15 fps grid here).
        for (k, frame) in frames.enumerated() {
            XCTAssertEqual(frame.pts, start + MediaTime(value: Int64(k), timescale: 15), "frame \(k)")
            XCTAssertEqual(frame.lens, "main")
        }
        // The MJPEG path: undecoded full-range JPEGs, like a UVC camera's.
        XCTAssertEqual(frames.first?.format, .jpeg)
        XCTAssertEqual(frames.first?.range, .full)
        XCTAssertEqual(frames.prefix(15).map(Self.meanLuma).filter { $0 < 150 }, [], "the bright first second")
        XCTAssertEqual(frames.suffix(15).map(Self.meanLuma).filter { $0 > 150 }, [], "the dark second second")
        XCTAssertEqual(got.ends.count, 1)
        XCTAssertTrue(got.ends.first?.contains("end of file \(path)") == true, "\(got.ends)")
        XCTAssertFalse(lens.isRunning)
    }

    func testALoopingFileStartsOverAndKeepsTheGrid() throws {
        let path = try Self.twoColourMovie(codec: ["-c:v", "mjpeg", "-q:v", "2"], name: "two.avi")
        let serialContext = SimulatedSerialContext()
        let lens = try FileLens(path: path, lens: "main", loop: true, serialContext: serialContext)
        let start = serialContext.clock.now()
        let got = try Self.run(lens, on: serialContext, seconds: 5)
        let frames = got.frames
        // 5 s at 15 fps: frames 0…75 (the one at exactly 5 s is delivered 1 ms later, after the advance).
        guard frames.count == 75 else {
            lens.stop()
            return XCTFail("\(frames.count) frames instead of 75; ended: \(got.ends)")
        }
        XCTAssertEqual(got.ends, [])
        XCTAssertEqual(frames.last?.pts, start + MediaTime(value: 74, timescale: 15))
        let luma = frames.map(Self.meanLuma)
        // Second 2–3 is the file's first second again (bright), 3–4 its second (dark), 4–5 bright.
        XCTAssertEqual(luma[30..<45].filter { $0 < 150 }, [], "bright again after the loop: \(luma)")
        XCTAssertEqual(luma[45..<60].filter { $0 > 150 }, [], "dark: \(luma)")
        XCTAssertEqual(luma[60..<75].filter { $0 < 150 }, [], "bright: \(luma)")
        lens.stop()
    }

    func testAnH264FileDecodesThroughTheGenericDecoder() throws {
        let path = try Self.twoColourMovie(codec: ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
                                           name: "two-h264.mov")
        let serialContext = SimulatedSerialContext()
        let lens = try FileLens(path: path, lens: "main", loop: false, serialContext: serialContext)
        XCTAssertFalse(lens.isMJPEG)
        let frames = try Self.run(lens, on: serialContext, seconds: 3).frames
        // Every frame, the decoder drained at the end of the file.
        guard frames.count == 30 else { return XCTFail("\(frames.count) frames instead of the file's 30") }
        XCTAssertEqual(frames.first?.format, .yuv420p)
        XCTAssertEqual(frames.first?.range, .limited)
        let luma = frames.map(Self.meanLuma)
        XCTAssertEqual(luma.prefix(15).filter { $0 < 150 }, [], "\(luma)")
        XCTAssertEqual(luma.suffix(15).filter { $0 > 150 }, [], "\(luma)")
    }

    func testAnotherPixelFormatIsConvertedToYUV420() throws {
        let path = try Self.twoColourMovie(codec: ["-c:v", "ffv1", "-pix_fmt", "yuv444p"], name: "two-ffv1.mkv")
        let serialContext = SimulatedSerialContext()
        let lens = try FileLens(path: path, lens: "main", loop: false, serialContext: serialContext)
        let frames = try Self.run(lens, on: serialContext, seconds: 3).frames
        guard frames.count == 30 else { return XCTFail("\(frames.count) frames instead of the file's 30") }
        XCTAssertEqual(frames.first?.format, .yuv420p)
        XCTAssertEqual(frames.first?.planes[1].bytes.count ?? 0 >= 80 * 60, true)
        let luma = frames.map(Self.meanLuma)
        XCTAssertEqual(luma.prefix(15).filter { $0 < 150 }, [], "\(luma)")
        XCTAssertEqual(luma.suffix(15).filter { $0 > 150 }, [], "\(luma)")
    }

    func testAStoppedLensRestartsWhereTheSessionClockHasGot() throws {
        let path = try Self.twoColourMovie(codec: ["-c:v", "mjpeg", "-q:v", "2"], name: "two.mov")
        let serialContext = SimulatedSerialContext()
        let lens = try FileLens(path: path, lens: "main", loop: false, serialContext: serialContext)
        let first = try Self.run(lens, on: serialContext, seconds: 1)
        lens.stop()
        XCTAssertEqual(first.frames.count, 15)
        let second = try Self.run(lens, on: serialContext, seconds: 2)
        XCTAssertEqual(first.frames.count, 15, "no frame of the stopped run arrives after the stop")
        // Like a camera, the file went on while the lens was stopped: 1 s in, it shows its dark second second.
        let luma = second.frames.map(Self.meanLuma)
        XCTAssertEqual(luma.count, 15, "\(luma)")
        XCTAssertEqual(luma.filter { $0 > 150 }, [], "not the file's first (bright) frames again: \(luma)")
        XCTAssertEqual(second.ends.count, 1, "the file ends where it would have had it run on")
        lens.stop()
    }

    /// An H.264 movie with one keyframe: a start mid-file seeks to it and decodes on, dropping the frames before.
    func testALensStartedLateShowsTheFileAtTheTimeSinceItsSessionBegan() throws {
        let path = try Self.twoColourMovie(codec: ["-c:v", "libx264", "-preset", "ultrafast", "-g", "250"],
                                           name: "two-h264.mov")
        let serialContext = SimulatedSerialContext()
        let lens = try FileLens(path: path, lens: "main", loop: false, serialContext: serialContext)
        XCTAssertEqual(lens.frameCount, 30)
        serialContext.advance(until: serialContext.clock.now() + .milliseconds(1400))
        let late = try Self.run(lens, on: serialContext, seconds: 2)
        let luma = late.frames.map(Self.meanLuma)
        XCTAssertEqual(luma.count, 9, "frames 21…29 of 30: \(luma)")
        XCTAssertEqual(luma.filter { $0 > 150 }, [], "\(luma)")
        XCTAssertEqual(late.ends.count, 1)
        lens.stop()

        let looping = try FileLens(path: path, lens: "main", loop: true, serialContext: serialContext)
        serialContext.advance(until: serialContext.clock.now() + .milliseconds(2400))
        let again = try Self.run(looping, on: serialContext, seconds: 1).frames.map(Self.meanLuma)
        // 2.4 s into a 2 s loop is frame 6: nine more bright frames, then the dark second.
        XCTAssertEqual(again.count, 15, "\(again)")
        XCTAssertEqual(again.prefix(9).filter { $0 < 150 }, [], "\(again)")
        XCTAssertEqual(again.suffix(6).filter { $0 > 150 }, [], "\(again)")
        looping.stop()
    }

    func testAMissingFileIsAnErrorNamingThePath() throws {
        let path = "/nonexistent/pausecam/clip.mov"
        XCTAssertThrowsError(try FileLens(path: path, lens: "main", loop: false, serialContext: SimulatedSerialContext())) {
            let text = "\($0)"
            XCTAssertTrue(text.contains(path), text)
            XCTAssertTrue(text.contains("No such file or directory"), text)
        }
    }

    func testAFileThatIsNoMovieIsAnErrorNamingThePath() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-not-a-movie-\(UUID().uuidString.prefix(8)).mov").path
        try Data("not a movie at all\n".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try FileLens(path: path, lens: "main", loop: false, serialContext: SimulatedSerialContext())) {
            let text = "\($0)"
            XCTAssertTrue(text.hasPrefix("movie file \(path): "), text)
        }
    }
}
