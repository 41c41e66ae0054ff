import Foundation
import PauseCamCore
import XCTest

/// Movies finished in place — the program and an ISO — read by two players that share no code with FFmpeg's
/// demuxer: GStreamer (qtdemux, through `gst-discoverer-1.0` and a decoding `gst-launch-1.0`) and mpv. Each must see
/// the duration, the streams and (mpv) the chapters that ffprobe sees, and GStreamer must decode every frame.
/// GStreamer 1.22's qtdemux reads no QuickTime chapters (nor those of a movie FFmpeg's own muxer wrote), so the
/// chapters are mpv's to check.
final class OutsideReadersEndToEndTests: XCTestCase {
    /// ffprobe's view of one movie: what the other readers must agree with.
    struct Reference {
        var duration: Double
        var width: Int, height: Int, frameRate: String, frames: Int
        var sampleRate: Int, channels: Int
        var chapters: [(title: String, start: Double)]
    }

    nonisolated(unsafe) private static var recorded: (program: String, iso: String)?

    /// One clip with a lens switch, a pause, three scenes and an ISO, finished in place (recorded once per run).
    private func movies() throws -> (program: String, iso: String) {
        if let recorded = Self.recorded { return recorded }
        let directory = try ProcessRunner.temporaryDirectory("readers")
        let rig = """
        name: Readers
        output: {name: "{rig}", size: 320x180, fps: 30, video: {preset: veryfast, crf: 30}, iso: [tele]}
        audio: {device: virtual}
        lenses:
          main: {zoom: 1, virtual: {color: "#c03020"}, size: 320x180, fps: 30}
          tele: {zoom: 3, virtual: {color: "#3050e0"}, size: 256x144, fps: 30}
        default_lens: main
        scripts:
          demo: [{record: One}, {wait: 1s}, {lens: tele}, {wait: 1s}, pause, {wait: 1s}, {resume: Two}, {wait: 1s},
                 {chapter: Three}, {wait: 1s}, stop]
        """
        let rigPath = directory.appendingPathComponent("readers.yaml")
        try rig.write(to: rigPath, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "run", rigPath.path, "--script", "demo", "--clock", "simulated", "--output", directory.path,
        ])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertFalse(result.stderr.contains("finishing by a copy"), result.stderr)
        let movies = (directory.appendingPathComponent("readers.mov").path,
                      directory.appendingPathComponent("readers.iso/tele.mov").path)
        for movie in [movies.0, movies.1] {
            // Finished in place: the old fragmented header became media, the new index is last (a copy by
            // FFmpeg's muxer puts its index first, before `wide` and `mdat`).
            XCTAssertEqual(try Self.topLevelBoxes(movie), ["ftyp", "mdat", "moov"], movie)
        }
        Self.recorded = movies
        return movies
    }

    func testGStreamerSeesTheDurationAndStreamsFfprobeSeesAndDecodesEveryFrame() throws {
        let discoverer = try Self.tool("gst-discoverer-1.0", package: "gstreamer1.0-plugins-base-apps")
        let launcher = try Self.tool("gst-launch-1.0", package: "gstreamer1.0-tools")
        for movie in [try movies().program, try movies().iso] {
            let reference = try Self.reference(movie)
            let result = try ProcessRunner.run(discoverer, [movie])
            XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
            let text = result.stdoutText
            XCTAssertEqual(try XCTUnwrap(Self.gstDuration(text), text), reference.duration, accuracy: 0.001, movie)
            XCTAssertEqual(Self.field("Width", in: text), "\(reference.width)", text)
            XCTAssertEqual(Self.field("Height", in: text), "\(reference.height)", text)
            XCTAssertEqual(Self.field("Frame rate", in: text), reference.frameRate, text)
            XCTAssertEqual(Self.field("Sample rate", in: text), "\(reference.sampleRate)", text)
            XCTAssertEqual(Self.field("Channels", in: text)?.split(separator: " ").first.map(String.init),
                           "\(reference.channels)", text)

            // Every picture decoded: raw I420 frames to a file, counted by its size.
            let raw = try ProcessRunner.temporaryDirectory("gst-raw").appendingPathComponent("video.yuv")
            let decoded = try ProcessRunner.run(launcher, [
                "-q", "filesrc", "location=\(movie)", "!", "qtdemux", "name=d", "d.video_0", "!", "queue", "!",
                "avdec_h264", "!", "videoconvert", "!", "video/x-raw,format=I420", "!", "filesink", "location=\(raw.path)",
            ])
            XCTAssertEqual(decoded.status, 0, decoded.stdoutText + decoded.stderr)
            let bytes = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: raw.path)[.size] as? NSNumber)
            let frameBytes = reference.width * reference.height * 3 / 2
            XCTAssertEqual(bytes.intValue % frameBytes, 0)
            XCTAssertEqual(bytes.intValue / frameBytes, reference.frames, movie)
        }
    }

    func testMpvSeesTheDurationStreamsAndChaptersFfprobeSees() throws {
        let mpv = try Self.tool("mpv", package: "mpv")
        for movie in [try movies().program, try movies().iso] {
            let reference = try Self.reference(movie)
            XCTAssertEqual(reference.chapters.map(\.title), ["One", "Two", "Three"])
            var message = "duration=${=duration}|chapters=${chapter-list/count}|tracks=${track-list/count}"
                + "|video=${track-list/0/type} ${track-list/0/demux-w}x${track-list/0/demux-h} ${track-list/0/demux-fps}"
                + "|audio=${track-list/1/type} ${track-list/1/demux-samplerate} ${track-list/1/demux-channel-count}"
            for index in reference.chapters.indices {
                message += "|chapter=${chapter-list/\(index)/title} ${=chapter-list/\(index)/time}"
            }
            let result = try ProcessRunner.run(mpv, [
                "--no-config", "--vo=null", "--ao=null", "--frames=1", "--msg-level=all=no,term-msg=info",
                "--term-playing-msg=\(message)", movie,
            ])
            XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
            let fields = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|")
                .map(String.init)
            XCTAssertEqual(fields.count, 5 + reference.chapters.count, result.stdoutText)
            guard fields.count == 5 + reference.chapters.count else { continue }
            XCTAssertEqual(Double(fields[0].dropFirst("duration=".count)) ?? -1, reference.duration, accuracy: 0.001)
            XCTAssertEqual(fields[1], "chapters=\(reference.chapters.count)")
            XCTAssertEqual(fields[2], "tracks=2", "video and audio; the chapter track is no track to play")
            let rate = reference.frameRate.split(separator: "/").compactMap { Double($0) }
            XCTAssertEqual(fields[3], String(format: "video=video %dx%d %.3f", reference.width, reference.height,
                                             rate[0] / rate[1]))
            XCTAssertEqual(fields[4], "audio=audio \(reference.sampleRate) \(reference.channels)")
            for (field, chapter) in zip(fields.dropFirst(5), reference.chapters) {
                let parts = field.dropFirst("chapter=".count).split(separator: " ")
                XCTAssertEqual(parts.first.map(String.init), chapter.title, field)
                XCTAssertEqual(parts.last.flatMap { Double($0) } ?? -1, chapter.start, accuracy: 0.001, field)
            }
        }
    }

    // MARK: - Helpers

    /// The program's path, or a skip that names the Debian package to install.
    static func tool(_ name: String, package: String) throws -> String {
        let path = "/usr/bin/\(name)"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw XCTSkip("\(name) is not installed (Debian package \(package); scripts/install-deps installs it)")
        }
        return path
    }

    static func reference(_ movie: String) throws -> Reference {
        let probe = MediaProbe(path: movie)
        let result = try ProcessRunner.run("/usr/bin/ffprobe", [
            "-v", "error", "-of", "default=nw=1", "-show_entries", "stream=codec_type,r_frame_rate,channels", movie,
        ])
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        let rate = lines.first { $0.hasPrefix("r_frame_rate=") && !$0.hasSuffix("0/0") }?.dropFirst(13) ?? ""
        let channels = Int(lines.first { $0.hasPrefix("channels=") }?.dropFirst(9) ?? "") ?? -1
        let streams = try probe.streams()
        let video = try XCTUnwrap(streams.first { $0.codecType == "video" })
        let audio = try XCTUnwrap(streams.first { $0.codecType == "audio" })
        return Reference(duration: try probe.duration(), width: video.width ?? -1, height: video.height ?? -1,
                         frameRate: String(rate), frames: try probe.videoFrames().count,
                         sampleRate: Int(audio.sampleRate ?? "") ?? -1, channels: channels,
                         chapters: try probe.chapters().map { ($0.title ?? "", $0.start) })
    }

    /// `Duration: 0:00:04.000000000` in gst-discoverer's report, in seconds.
    static func gstDuration(_ text: String) -> Double? {
        guard let value = field("Duration", in: text) else { return nil }
        let parts = value.split(separator: ":").compactMap { Double($0) }
        guard parts.count == 3 else { return nil }
        return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }

    /// The first `NAME: value` line of a gst-discoverer report.
    static func field(_ name: String, in text: String) -> String? {
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(name + ": ") { return String(trimmed.dropFirst(name.count + 2)) }
        }
        return nil
    }

    /// The four-character types of a file's top-level boxes, in order.
    static func topLevelBoxes(_ path: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var types: [String] = []
        var offset = 0
        func integer(_ at: Int, _ count: Int) -> Int { data[at..<at + count].reduce(0) { $0 << 8 | Int($1) } }
        while offset + 8 <= data.count {
            var size = integer(offset, 4)
            if size == 1, offset + 16 <= data.count { size = integer(offset + 8, 8) }
            if size == 0 { size = data.count - offset }
            types.append(String(decoding: data[offset + 4..<offset + 8], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        return types
    }
}
