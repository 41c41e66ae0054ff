import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// Frames, audio and ffprobe/ffmpeg runs shared by the movie writer tests.
enum MovieWriterFixture {
    /// A solid yuv420p frame.
    static func solidFrame(width: Int, height: Int, y: UInt8, u: UInt8 = 128, v: UInt8 = 128,
                           pts: MediaTime = .zero, crop: PixelRect? = nil) -> VideoFrame {
        VideoFrame(pts: pts, width: width, height: height, format: .yuv420p,
                   planes: [Plane(bytes: [UInt8](repeating: y, count: width * height), stride: width),
                            Plane(bytes: [UInt8](repeating: u, count: width * height / 4), stride: width / 2),
                            Plane(bytes: [UInt8](repeating: v, count: width * height / 4), stride: width / 2)],
                   lens: "test", crop: crop)
    }

    /// A frame with a vertical bar at a position that moves with `index` (so the encoder has real work).
    static func movingFrame(width: Int, height: Int, index: Int) -> VideoFrame {
        var frame = solidFrame(width: width, height: height, y: 60, u: 100, v: 150)
        let barX = (index * 8) % max(1, width - 32)
        frame.planes[0].bytes.withUnsafeMutableBufferPointer { luma in
            for row in 0..<height { for x in barX..<(barX + 32) { luma[row * width + x] = UInt8((row + index) & 0xff) } }
        }
        return frame
    }

    /// A 1/`rate` s chunk of a 440 Hz tone at file time `index`/`rate`.
    static func audioChunk(index: Int, rate: Int = 30, sampleRate: Int32 = 48_000, channels: Int = 1) -> AudioChunk {
        let count = Int(sampleRate) / rate
        var samples = [Int16](repeating: 0, count: count * channels)
        for i in 0..<count {
            let t = Double(index * count + i) / Double(sampleRate)
            let value = Int16(8000 * sin(2 * Double.pi * 440 * t))
            for c in 0..<channels { samples[i * channels + c] = value }
        }
        return AudioChunk(pts: MediaTime(value: Int64(index), timescale: Int32(rate)), sampleRate: sampleRate,
                          channels: channels, samples: samples)
    }

    /// A fresh empty directory for one test.
    static func directory(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "pausecam-moviewriter-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// An encoding pipeline (ultrafast, CRF 30, blocking when behind) writing `NAME.partial` in a scratch folder,
    /// handed to `body` with the partial's path; the folder is removed afterwards.
    static func withPipeline(_ name: String, width: Int, height: Int, audio: MovieSettings.AudioSettings? = nil,
                             hooks: (any SystemHooks)? = nil,
                             _ body: (EncodingPipeline, String) throws -> Void) throws {
        let folder = try directory(name)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let settings = MovieSettings(width: width, height: height, rate: FrameRate(30), container: .mov,
                                     preset: "ultrafast", crf: 30, audio: audio, blockWhenBehind: true)
        let partial = folder + "/\(name).partial"
        try body(try EncodingPipeline(partialPath: partial, settings: settings, hooks: hooks), partial)
    }

    /// Small, fast settings.
    static func settings(audio: Bool = true, width: Int = 320, height: Int = 180) -> MovieSettings {
        MovieSettings(width: width, height: height, rate: FrameRate(30), container: .mov, preset: "ultrafast",
                      crf: 23, keyframeInterval: .seconds(2),
                      audio: audio ? MovieSettings.AudioSettings() : nil, blockWhenBehind: true)
    }

    /// Runs a tool; returns its stdout and stderr.
    static func run(_ tool: String, _ arguments: [String]) throws -> (out: Data, err: String) {
        let path = "/usr/bin/\(tool)"
        guard FileManager.default.isExecutableFile(atPath: path) else { throw XCTSkip("\(path) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        let errorPath = NSTemporaryDirectory() + "pausecam-stderr-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try err.close()
        let errorText = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        return (data, errorText)
    }

    /// `ffprobe -of json` with `arguments`, parsed.
    static func probe(_ path: String, _ arguments: [String]) throws -> [String: Any] {
        let (out, err) = try run("ffprobe", ["-v", "error", "-of", "json"] + arguments + [path])
        guard let json = try JSONSerialization.jsonObject(with: out) as? [String: Any] else {
            XCTFail("ffprobe gave no JSON: \(err)")
            return [:]
        }
        return json
    }

    /// The frames of stream `selector` (`v:0`, `a:0`) with the given entries.
    static func frames(_ path: String, stream: String, entries: String) throws -> [[String: Any]] {
        try probe(path, ["-select_streams", stream, "-show_entries", "frame=\(entries)"])["frames"]
            as? [[String: Any]] ?? []
    }

    static func double(_ value: Any?) -> Double? {
        (value as? String).flatMap(Double.init) ?? (value as? Double) ?? (value as? Int).map(Double.init)
    }

    /// The luma plane (limited range, as encoded) of the first frame decoded by ffmpeg.
    static func firstLumaPlane(_ path: String, width: Int = 320, height: Int = 180) throws -> [UInt8] {
        let (out, _) = try run("ffmpeg", ["-v", "error", "-i", path, "-frames:v", "1", "-f", "rawvideo",
                                          "-pix_fmt", "yuv420p", "-"])
        return [UInt8](out.prefix(width * height))
    }
}

final class MovieWriterTests: XCTestCase {
    /// Records `count` frames (and matching audio) at 30 fps and finishes with `chapters`.
    private func record(_ name: String, settings: MovieSettings, frames count: Int, keyframeAt: Set<Int> = [0],
                        chapters: [Chapter] = []) throws -> MovieSummary {
        let directory = try MovieWriterFixture.directory(name)
        let sink = try MovieWriterFactory().makeSink(directory: directory, baseName: name, settings: settings)
        for index in 0..<count {
            let time = MediaTime(value: Int64(index), timescale: 30)
            try sink.appendVideo(MovieWriterFixture.movingFrame(width: 320, height: 180, index: index), at: time,
                                 keyframe: keyframeAt.contains(index))
            if settings.audio != nil { try sink.appendAudio(MovieWriterFixture.audioChunk(index: index)) }
            if index == 0 { sink.setThumbnail(MovieWriterFixture.solidFrame(width: 320, height: 180, y: 120)) }
        }
        let summary = try sink.finish(chapters: chapters)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sink.partialPath), "the .partial is removed")
        return summary
    }

    func testThreeSecondClipHasH264AndAACWithTheGivenTimestamps() throws {
        let summary = try record("clip", settings: MovieWriterFixture.settings(), frames: 90)
        XCTAssertEqual(summary.videoFramesWritten, 90)
        XCTAssertEqual(summary.videoFramesDropped, 0)
        let streams = try MovieWriterFixture.probe(summary.path, ["-show_streams", "-count_frames"])["streams"]
            as? [[String: Any]] ?? []
        XCTAssertEqual(streams.compactMap { $0["codec_name"] as? String }, ["h264", "aac"])
        XCTAssertEqual(streams.first?["nb_read_frames"] as? String, "90")
        let pts = try MovieWriterFixture.frames(summary.path, stream: "v:0", entries: "pts_time")
            .compactMap { MovieWriterFixture.double($0["pts_time"]) }
        XCTAssertEqual(pts.count, 90)
        for (index, time) in pts.enumerated() {
            XCTAssertEqual(time, Double(index) / 30, accuracy: 1.0 / 90_000 + 1e-6, "frame \(index)")
        }
        XCTAssertTrue(zip(pts, pts.dropFirst()).allSatisfy { $0 < $1 }, "pts strictly increasing")
        let durations = streams.compactMap { MovieWriterFixture.double($0["duration"]) }
        XCTAssertEqual(durations.count, 2)
        XCTAssertEqual(durations[0], 3.0, accuracy: 1.0 / 30 + 1e-3)
        XCTAssertEqual(durations[1], durations[0], accuracy: 1024.0 / 48_000 + 1e-3, "audio vs video duration")
        let (_, errors) = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-i", summary.path, "-f", "null", "-"])
        XCTAssertEqual(errors, "", "decoding the movie prints nothing")
        let thumbnail = try XCTUnwrap(summary.thumbnailPath)
        let image = try MovieWriterFixture.probe(thumbnail, ["-show_streams"])["streams"] as? [[String: Any]]
        XCTAssertEqual(image?.first?["codec_name"] as? String, "mjpeg")
        XCTAssertEqual(image?.first?["width"] as? Int, 320)
    }

    func testChaptersComeBackAtTheirStarts() throws {
        let chapters = [Chapter(title: "Intro", start: .zero, end: MediaTime(value: 31, timescale: 30)),
                        Chapter(title: "Middle", start: MediaTime(value: 31, timescale: 30), end: .seconds(2)),
                        Chapter(title: "Scene 3", start: .seconds(2), end: .seconds(3))]
        let summary = try record("chapters", settings: MovieWriterFixture.settings(), frames: 90,
                                 keyframeAt: [0, 31, 60], chapters: chapters)
        let found = try MovieWriterFixture.probe(summary.path, ["-show_chapters"])["chapters"]
            as? [[String: Any]] ?? []
        XCTAssertEqual(found.count, 3)
        for (expected, chapter) in zip(chapters, found) {
            XCTAssertEqual((chapter["tags"] as? [String: Any])?["title"] as? String, expected.title)
            XCTAssertEqual(MovieWriterFixture.double(chapter["start_time"]) ?? -1, expected.start.seconds,
                           accuracy: 1.0 / 30)
        }
    }

    func testKeyframeIsForcedAtTheRequestedFrame() throws {
        let summary = try record("keyframe", settings: MovieWriterFixture.settings(audio: false), frames: 40,
                                 keyframeAt: [0, 17])
        let frames = try MovieWriterFixture.frames(summary.path, stream: "v:0", entries: "key_frame,pict_type")
        XCTAssertEqual(frames.count, 40)
        XCTAssertEqual(frames[17]["key_frame"] as? Int, 1)
        XCTAssertEqual(frames[17]["pict_type"] as? String, "I")
        XCTAssertEqual(frames[16]["key_frame"] as? Int, 0)
    }

    func testVideoOnlyMovieHasOneStream() throws {
        let summary = try record("videoonly", settings: MovieWriterFixture.settings(audio: false), frames: 10)
        let streams = try MovieWriterFixture.probe(summary.path, ["-show_streams"])["streams"] as? [[String: Any]]
        XCTAssertEqual(streams?.compactMap { $0["codec_type"] as? String }, ["video"])
        XCTAssertEqual(summary.audioSamplesWritten, 0)
    }

    /// Writes `frames` frames of one picture, video only, and returns the first decoded luma plane.
    private func lumaOfMovie(_ name: String, frame: VideoFrame) throws -> [UInt8] {
        let directory = try MovieWriterFixture.directory(name)
        let sink = try MovieWriterFactory().makeSink(directory: directory, baseName: name,
                                                     settings: MovieWriterFixture.settings(audio: false))
        for index in 0..<3 {
            try sink.appendVideo(frame, at: MediaTime(value: Int64(index), timescale: 30), keyframe: index == 0)
        }
        return try MovieWriterFixture.firstLumaPlane(sink.finish(chapters: []).path)
    }

    func testFourByThreeSourceIsPillarboxedNotStretched() throws {
        let luma = try lumaOfMovie("pillarbox", frame: MovieWriterFixture.solidFrame(width: 160, height: 120, y: 200))
        XCTAssertEqual(luma.count, 320 * 180)
        let row = 90 * 320
        // 160x120 fits as 240x180 at x = 40: bars at the sides, the colour in the middle.
        XCTAssertLessThan(luma[row + 10], 30, "left bar is black")
        XCTAssertLessThan(luma[row + 310], 30, "right bar is black")
        XCTAssertEqual(Int(luma[row + 160]), 200, accuracy: 6, "the picture is in the middle")
        XCTAssertEqual(Int(luma[10 * 320 + 160]), 200, accuracy: 6, "no bars at the top")
    }

    func testCropEnlargesACentredSquare() throws {
        var frame = MovieWriterFixture.solidFrame(width: 320, height: 180, y: 40)
        for row in 70..<110 { for x in 140..<180 { frame.planes[0].bytes[row * 320 + x] = 235 } }
        frame.crop = PixelRect(x: 80, y: 46, width: 160, height: 90)
        let luma = try lumaOfMovie("crop", frame: frame)
        XCTAssertEqual(luma.count, 320 * 180)
        let middle = Array(luma[(90 * 320)..<(91 * 320)])
        let bright = middle.filter { $0 > 140 }.count
        XCTAssertEqual(bright, 80, accuracy: 6, "a 40 px square is twice as wide at 2x zoom")
        let column = (0..<180).map { luma[$0 * 320 + 160] }.filter { $0 > 140 }.count
        XCTAssertEqual(column, 80, accuracy: 6, "and twice as tall")
    }

    func testKilledRecordingLeavesAReadablePartialWithAllButTheLastSecond() throws {
        let directory = try MovieWriterFixture.directory("crash")
        var settings = MovieWriterFixture.settings()
        // A GOP longer than the recording: fragments must still be cut every second.
        settings.keyframeInterval = .seconds(10)
        settings.preset = "veryfast"
        let paths = try MovieNameReserver(directory: directory, baseName: "crash",
                                          fileExtension: settings.container.rawValue).reserve()
        let stages = EncodingStageProbe()
        let sink = MovieWriter(paths: paths, settings: settings, hooks: stages)
        for index in 0..<120 {
            try sink.appendVideo(MovieWriterFixture.movingFrame(width: 320, height: 180, index: index),
                                 at: MediaTime(value: Int64(index), timescale: 30), keyframe: index == 0)
            try sink.appendAudio(MovieWriterFixture.audioChunk(index: index))
        }
        // Every picture and chunk handed over is encoded and muxed (the writer blocks rather than drops here).
        XCTAssertTrue(stages.waitUntil(.x264, handled: 120), "x264 took every picture")
        XCTAssertTrue(stages.waitUntil(.audio, handled: 120), "the audio thread took every chunk")
        // The file as a SIGKILL would leave it: copy it before anything else is written.
        let copy = directory + "/copy.mov"
        try FileManager.default.copyItem(atPath: sink.partialPath, toPath: copy)
        sink.abort()
        XCTAssertTrue(FileManager.default.fileExists(atPath: sink.partialPath), "abort keeps the .partial")
        let packets = try MovieWriterFixture.probe(copy, ["-select_streams", "v:0", "-show_entries",
                                                          "packet=pts_time"])["packets"] as? [[String: Any]] ?? []
        let last = packets.compactMap { MovieWriterFixture.double($0["pts_time"]) }.max() ?? 0
        XCTAssertGreaterThanOrEqual(last, 3.0 - 1.0 / 30, "all but the last second of 4 s survive")
        XCTAssertGreaterThanOrEqual(packets.count, 89)
    }

    func testAudioGapsAreFilledAndOverlapsTrimmedAtAnyInputRate() throws {
        let directory = try MovieWriterFixture.directory("audiogaps")
        let sink = try MovieWriterFactory().makeSink(directory: directory, baseName: "gaps",
                                                     settings: MovieWriterFixture.settings())
        for index in 0..<90 {
            try sink.appendVideo(MovieWriterFixture.solidFrame(width: 320, height: 180, y: 90),
                                 at: MediaTime(value: Int64(index), timescale: 30), keyframe: index == 0)
            // 44.1 kHz stereo; nothing between 1 s and 2 s (a gap to fill), and every chunk after 2 s starts
            // 20 ms early (an overlap to trim).
            guard index < 30 || index >= 60 else { continue }
            var chunk = MovieWriterFixture.audioChunk(index: index, sampleRate: 44_100, channels: 2)
            if index >= 60 { chunk.pts = chunk.pts - .milliseconds(20) }
            try sink.appendAudio(chunk)
        }
        let summary = try sink.finish(chapters: [])
        let streams = try MovieWriterFixture.probe(summary.path, ["-show_streams"])["streams"] as? [[String: Any]] ?? []
        XCTAssertEqual(streams.last?["sample_rate"] as? String, "48000")
        let durations = streams.compactMap { MovieWriterFixture.double($0["duration"]) }
        XCTAssertEqual(durations.count, 2)
        XCTAssertEqual(durations[1], durations[0], accuracy: 1024.0 / 48_000 + 1e-3, "audio stays as long as video")
        XCTAssertEqual(Double(summary.audioSamplesWritten) / 48_000, 3.0, accuracy: 0.03)
    }

    func testMatroskaAndMP4AlsoCarryChapters() throws {
        for container in [MovieSettings.Container.mkv, .mp4] {
            var settings = MovieWriterFixture.settings()
            settings.container = container
            let summary = try record("container-\(container.rawValue)", settings: settings, frames: 30,
                                     chapters: [Chapter(title: "One", start: .zero, end: .milliseconds(500)),
                                                Chapter(title: "Two", start: .milliseconds(500), end: .seconds(1))])
            XCTAssertTrue(summary.path.hasSuffix(".\(container.rawValue)"))
            let json = try MovieWriterFixture.probe(summary.path, ["-show_chapters", "-show_streams", "-count_frames"])
            XCTAssertEqual((json["chapters"] as? [[String: Any]])?.count, 2, "\(container)")
            let streams = json["streams"] as? [[String: Any]] ?? []
            XCTAssertEqual(streams.first?["nb_read_frames"] as? String, "30", "\(container)")
        }
    }

    func testPackedAndPlanar422SourcesKeepTheirLuma() throws {
        // yuyv422 (Y0 U Y1 V), what UVC webcams send uncompressed.
        let packed = VideoFrame(pts: .zero, width: 320, height: 180, format: .yuyv422,
                                planes: [Plane(bytes: [UInt8]((0..<(320 * 180)).flatMap { _ in [150, 100] }),
                                               stride: 640)], lens: "yuyv")
        var luma = try lumaOfMovie("yuyv", frame: packed)
        XCTAssertEqual(Int(luma[90 * 320 + 160]), 150, accuracy: 4)
        // yuv422p, what MJPEG decodes to.
        let planar = VideoFrame(pts: .zero, width: 320, height: 180, format: .yuv422p,
                                planes: [Plane(bytes: [UInt8](repeating: 70, count: 320 * 180), stride: 320),
                                         Plane(bytes: [UInt8](repeating: 128, count: 160 * 180), stride: 160),
                                         Plane(bytes: [UInt8](repeating: 128, count: 160 * 180), stride: 160)],
                                lens: "422p")
        luma = try lumaOfMovie("yuv422p", frame: planar)
        XCTAssertEqual(Int(luma[90 * 320 + 160]), 70, accuracy: 4)
    }
}
