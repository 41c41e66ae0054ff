import Foundation
import XCTest
@testable import PauseCamCore
@testable import PauseCamSystem

/// The last step of finishing a clip: the fragmented `.partial` copied (no re-encode) into the final movie with
/// one chapter per scene, which appears under its name only when complete, and never over another file.
final class ChapterRemuxerTests: XCTestCase {
    /// A 3 s fragmented `.mov` with H.264 and AAC, as the recorder writes it, made by the real ffmpeg.
    private func partial(in folder: String) throws -> String {
        let path = folder + "/clip.mov.partial"
        let (_, errors) = try MovieWriterFixture.run("ffmpeg", [
            "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=30", "-f", "lavfi", "-i",
            "sine=frequency=1000:sample_rate=48000", "-t", "3", "-c:v", "libx264", "-preset", "ultrafast", "-g", "30",
            "-c:a", "aac", "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-f", "mov", path,
        ])
        XCTAssertEqual(errors, "")
        return path
    }

    private func chapters(_ path: String) throws -> [[String: Any]] {
        let object = try MovieWriterFixture.probe(path, ["-show_chapters"])
        return object["chapters"] as? [[String: Any]] ?? []
    }

    func testTheMovieGetsOneChapterPerSceneAndNothingIsLeftBehind() throws {
        let folder = try MovieWriterFixture.directory("remux")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try partial(in: folder)
        let output = folder + "/clip.mov"
        try ChapterRemuxer(inputPath: input, outputPath: output, container: .mov).remux(chapters: [
            Chapter(title: "Intro", start: .zero, end: .milliseconds(1500)),
            Chapter(title: "Questions", start: .milliseconds(1500), end: .seconds(3)),
        ])
        let found = try chapters(output)
        XCTAssertEqual(found.compactMap { ($0["tags"] as? [String: String])?["title"] }, ["Intro", "Questions"])
        XCTAssertEqual(found.compactMap { Double($0["start_time"] as? String ?? "") }, [0, 1.5])
        let streams = try MovieWriterFixture.probe(output, ["-show_streams"])["streams"] as? [[String: Any]] ?? []
        XCTAssertEqual(Set(streams.compactMap { $0["codec_name"] as? String }).intersection(["h264", "aac"]),
                       ["h264", "aac"], "the streams are copied")
        let duration = try MovieWriterFixture.probe(output, ["-show_format"])["format"] as? [String: Any]
        XCTAssertEqual(Double(duration?["duration"] as? String ?? "") ?? 0, 3, accuracy: 0.1)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        XCTAssertEqual(files, ["clip.mov", "clip.mov.partial"], "no .remux left; the .partial is the caller's")
    }

    /// Sound recorded past the last frame (whole AAC packets after it, and one that crosses it) is left out and
    /// cut: the movie's sound ends with its picture, and the samples left out are counted.
    func testSoundPastThePictureIsLeftOutAndCounted() throws {
        let folder = try MovieWriterFixture.directory("remux-tail")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/clip.mov.partial"
        let (_, errors) = try MovieWriterFixture.run("ffmpeg", [
            "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=30:duration=2", "-f", "lavfi", "-i",
            "sine=frequency=1000:sample_rate=48000:duration=2.3", "-c:v", "libx264", "-preset", "ultrafast",
            "-g", "30", "-c:a", "aac", "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-f", "mov", input,
        ])
        XCTAssertEqual(errors, "")
        let output = folder + "/clip.mov"
        let leftOut = try ChapterRemuxer(inputPath: input, outputPath: output, container: .mov).remux(chapters: [])
        let streams = try MovieWriterFixture.probe(output, ["-show_streams"])["streams"] as? [[String: Any]] ?? []
        func duration(_ type: String) -> Double {
            Double(streams.first { $0["codec_type"] as? String == type }?["duration"] as? String ?? "") ?? -1
        }
        // ffmpeg's fixture starts the picture one AAC packet late (0.021 s), so it ends at about 2.021 s.
        XCTAssertEqual(duration("video"), 2.021, accuracy: 0.002)
        XCTAssertLessThanOrEqual(duration("audio"), duration("video") + 0.0005, "the sound ends with the picture")
        XCTAssertGreaterThan(duration("audio"), duration("video") - 0.001, "only the sound past the picture is left out")
        // About 0.3 s of the 2.32 s of sound lies past the picture: whole packets of 1024 samples (what is cut off
        // the packet that crosses the end is not counted: only whole packets left out are).
        XCTAssertGreaterThanOrEqual(leftOut, 12 * 1024, "whole packets past the picture are counted")
        XCTAssertLessThan(leftOut, 16 * 1024)
    }

    /// A `.remux` from an earlier crash is not ours: the remux refuses and leaves it, and no movie appears.
    func testAStaleTemporaryFileIsNeverOverwritten() throws {
        let folder = try MovieWriterFixture.directory("remux-stale")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try partial(in: folder)
        let output = folder + "/clip.mov"
        let stale = output + ClipFileNames.remuxSuffix
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: stale))
        XCTAssertThrowsError(try ChapterRemuxer(inputPath: input, outputPath: output, container: .mov)
            .remux(chapters: [])) { error in
            XCTAssertTrue("\(error)".contains("exists"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: stale, encoding: .utf8), "someone else's")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    /// The final name taken meanwhile: the remux fails, the file there is untouched, and the temporary is gone.
    func testAnExistingMovieIsNeverOverwritten() throws {
        let folder = try MovieWriterFixture.directory("remux-taken")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = try partial(in: folder)
        let output = folder + "/clip.mov"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: output))
        XCTAssertThrowsError(try ChapterRemuxer(inputPath: input, outputPath: output, container: .mov)
            .remux(chapters: []))
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), "keep me")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output + ClipFileNames.remuxSuffix))
    }
}
