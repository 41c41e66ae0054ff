import Foundation
import XCTest

/// What the real `ffprobe` and `ffmpeg` tools say about a movie. The tests never trust PauseCam's own reader.
struct MediaProbe {
    let path: String

    struct Stream: Decodable {
        var codecName: String?
        var codecType: String
        var duration: String?
        var width: Int?
        var height: Int?
        var sampleRate: String?
        var nbFrames: String?
        var channels: Int?
        var startTime: String?
        var tags: [String: String]?
    }

    struct Chapter: Decodable {
        var startTime: String
        var endTime: String
        var tags: [String: String]?
        var title: String? { tags?["title"] }
        var start: Double { Double(startTime) ?? -1 }
    }

    struct VideoFrameInfo {
        var time: Double
        var keyframe: Bool
    }

    private func json(_ arguments: [String]) throws -> [String: Any] {
        let result = try ProcessRunner.run("/usr/bin/ffprobe", ["-v", "error", "-of", "json"] + arguments + [path])
        guard result.status == 0 else {
            throw NSError(domain: "ffprobe", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr])
        }
        return (try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]) ?? [:]
    }

    private func decode<T: Decodable>(_ type: T.Type, key: String, _ arguments: [String]) throws -> T {
        let object = try json(arguments)
        let data = try JSONSerialization.data(withJSONObject: object[key] ?? [])
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(T.self, from: data)
    }

    func streams() throws -> [Stream] { try decode([Stream].self, key: "streams", ["-show_streams"]) }
    func chapters() throws -> [Chapter] { try decode([Chapter].self, key: "chapters", ["-show_chapters"]) }

    /// How far a movie that is still being written (a fragmented `.partial`) plays now: its last video frame's
    /// time plus one frame at `rate`; 0 while it holds no complete fragment (or does not exist yet).
    func heldSeconds(rate: Double = 30) -> Double {
        guard let frames = try? videoFrames(), let last = frames.last else { return 0 }
        return last.time + 1 / rate
    }

    /// Waits (at most `timeout` seconds) until every movie in `paths` plays at least `seconds`, and returns how
    /// far each plays: the condition a test waits on instead of guessing how long the recording takes to get there.
    static func waitUntilHeld(_ paths: [String], seconds: Double, rate: Double = 30,
                              timeout: TimeInterval = 30) -> [Double] {
        let deadline = Date().addingTimeInterval(timeout)
        var held = paths.map { MediaProbe(path: $0).heldSeconds(rate: rate) }
        while held.contains(where: { $0 < seconds }) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            held = paths.map { MediaProbe(path: $0).heldSeconds(rate: rate) }
        }
        return held
    }

    /// Container duration in seconds.
    func duration() throws -> Double {
        let format = try json(["-show_format"])["format"] as? [String: Any]
        return Double(format?["duration"] as? String ?? "") ?? -1
    }

    /// Every video frame's presentation time and key flag, in presentation order.
    func videoFrames() throws -> [VideoFrameInfo] {
        let object = try json(["-select_streams", "v:0", "-show_entries", "frame=pts_time,key_frame", "-show_frames"])
        let frames = object["frames"] as? [[String: Any]] ?? []
        return frames.map {
            VideoFrameInfo(time: Double($0["pts_time"] as? String ?? "") ?? -1,
                           keyframe: ($0["key_frame"] as? Int) == 1)
        }
    }

    /// Duration of the audio stream's decoded packets: the last packet's end.
    func audioDuration() throws -> Double {
        let object = try json(["-select_streams", "a:0", "-show_entries", "packet=pts_time,duration_time", "-show_packets"])
        let packets = object["packets"] as? [[String: Any]] ?? []
        return packets.map { (Double($0["pts_time"] as? String ?? "") ?? 0) + (Double($0["duration_time"] as? String ?? "") ?? 0) }
            .max() ?? 0
    }

    /// The mean RGB of a rectangle of every decoded video frame (one triple per frame, in order).
    func regionColors(x: Int, y: Int, width: Int, height: Int) throws -> [(Int, Int, Int)] {
        let result = try ProcessRunner.run("/usr/bin/ffmpeg", [
            "-v", "error", "-i", path, "-map", "0:v:0",
            "-vf", "crop=\(width):\(height):\(x):\(y),scale=1:1:flags=area", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let bytes = [UInt8](result.stdout)
        return stride(from: 0, to: bytes.count - 2, by: 3).map { (Int(bytes[$0]), Int(bytes[$0 + 1]), Int(bytes[$0 + 2])) }
    }

    /// The decoded audio of audio track `track` (0: the first) as mono 16-bit samples at 48 kHz.
    func audioSamples(track: Int = 0) throws -> [Int16] {
        let result = try ProcessRunner.run("/usr/bin/ffmpeg", [
            "-v", "error", "-i", path, "-map", "0:a:\(track)", "-f", "s16le", "-ac", "1", "-ar", "48000", "-",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// The video stream's frame rates as ffprobe states them (`r_frame_rate`, `avg_frame_rate`, e.g. "30/1").
    func videoFrameRates() throws -> (real: String, average: String) {
        let object = try json(["-select_streams", "v:0", "-show_entries", "stream=r_frame_rate,avg_frame_rate",
                               "-show_streams"])
        let stream = (object["streams"] as? [[String: Any]])?.first ?? [:]
        return (stream["r_frame_rate"] as? String ?? "?", stream["avg_frame_rate"] as? String ?? "?")
    }

    /// MediaInfo's frame rate mode of the video stream, as `mediainfo --Inform="Video;%FrameRate_Mode%"` prints it:
    /// "CFR" for what its report calls "Frame rate mode: Constant", "VFR" for "Variable" (MediaInfo 23.04, Debian
    /// package `mediainfo`). Editors that refuse variable-rate footage read the same boxes MediaInfo does.
    func mediaInfoFrameRateMode() throws -> String {
        let tool = "/usr/bin/mediainfo"
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw NSError(domain: "mediainfo", code: 127, userInfo: [NSLocalizedDescriptionKey:
                "\(tool) is not installed: scripts/install-deps installs it (Debian package mediainfo)"])
        }
        let result = try ProcessRunner.run(tool, ["--Inform=Video;%FrameRate_Mode%", path])
        guard result.status == 0 else {
            throw NSError(domain: "mediainfo", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: result.stderr])
        }
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Checks that the movie is constant-rate at `fps` (numerator/denominator): ffprobe's real and average rates
    /// are exactly it, every video frame lasts exactly one frame duration (presentation times one duration
    /// apart, in the stream's own ticks, so no rounding can hide a hole or a double), and MediaInfo calls its
    /// frame rate mode constant ("CFR").
    func assertConstantRate(_ numerator: Int, _ denominator: Int = 1, file: StaticString = #filePath,
                            line: UInt = #line) throws {
        XCTAssertEqual(try mediaInfoFrameRateMode(), "CFR", "MediaInfo's frame rate mode", file: file, line: line)
        let rates = try videoFrameRates()
        XCTAssertEqual(rates.real, "\(numerator)/\(denominator)", "r_frame_rate", file: file, line: line)
        XCTAssertEqual(rates.average, "\(numerator)/\(denominator)", "avg_frame_rate", file: file, line: line)
        let object = try json(["-select_streams", "v:0", "-show_entries", "stream=time_base:packet=pts,duration",
                               "-show_streams", "-show_packets"])
        let timeBase = ((object["streams"] as? [[String: Any]])?.first?["time_base"] as? String ?? "")
            .split(separator: "/").compactMap { Int($0) }
        guard timeBase.count == 2, timeBase[0] > 0 else { return XCTFail("no time base", file: file, line: line) }
        // Ticks per frame: time_base = num/den seconds per tick; a frame is denominator/numerator seconds.
        let ticks = timeBase[1] * denominator
        guard ticks % (timeBase[0] * numerator) == 0 else {
            return XCTFail("time base \(timeBase) cannot hold \(numerator)/\(denominator) fps exactly", file: file, line: line)
        }
        let perFrame = ticks / (timeBase[0] * numerator)
        let packets = object["packets"] as? [[String: Any]] ?? []
        let pts = packets.compactMap { $0["pts"] as? Int }.sorted()
        XCTAssertEqual(pts.count, packets.count, "every packet has a pts", file: file, line: line)
        let steps = zip(pts, pts.dropFirst()).map { $1 - $0 }.filter { $0 != perFrame }
        XCTAssertTrue(steps.isEmpty, "frames not one duration (\(perFrame) ticks) apart: \(Set(steps).sorted().prefix(8))",
                      file: file, line: line)
        let durations = Set(packets.compactMap { $0["duration"] as? Int })
        XCTAssertTrue(durations.isSubset(of: [perFrame]), "packet durations \(durations)", file: file, line: line)
    }

    /// What `ffmpeg -v error -i FILE -f null -` prints: nothing for a clean file.
    func decodeErrors() throws -> String {
        let result = try ProcessRunner.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"])
        return result.stderr + (result.status == 0 ? "" : "exit \(result.status)")
    }
}
