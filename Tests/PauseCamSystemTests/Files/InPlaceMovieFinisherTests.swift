import Foundation
import XCTest
@testable import PauseCamCore
@testable import PauseCamSystem

/// The in-place finish on files made by the real ffmpeg: a fragmented mp4 becomes a normal movie with its chapters
/// (the same file, only an index longer), and a file that is not fragmented is refused before anything is written.
final class InPlaceMovieFinisherTests: XCTestCase {
    private func make(_ path: String, fragmented: Bool, format: String, rate: String = "30") throws {
        let (_, errors) = try MovieWriterFixture.run("ffmpeg", [
            "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=\(rate)", "-f", "lavfi", "-i",
            "sine=frequency=1000:sample_rate=48000", "-t", "3", "-c:v", "libx264", "-preset", "veryfast", "-g", "30",
            "-c:a", "aac"] + (fragmented ? ["-movflags", "+frag_keyframe+empty_moov+default_base_moof+skip_trailer",
                                            "-frag_duration", "500000"] : []) + ["-f", format, path])
        XCTAssertEqual(errors, "")
    }

    func testAFragmentedMP4BecomesANormalMovieWithItsChaptersWithoutACopy() throws {
        let folder = try MovieWriterFixture.directory("in-place-mp4")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let partial = folder + "/clip.mp4.partial", movie = folder + "/clip.mp4"
        try make(partial, fragmented: true, format: "mp4")
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int)
        let outcome = try InPlaceMovieFinisher(partialPath: partial, moviePath: movie, container: .mp4).finish(chapters: [
            Chapter(title: "Intro", start: .zero, end: .milliseconds(1500)),
            Chapter(title: "Questions", start: .milliseconds(1500), end: .seconds(3)),
        ])
        XCTAssertEqual(outcome.movieBytes, Int64(size) + outcome.appendedBytes)
        let chapters = try MovieWriterFixture.probe(movie, ["-show_chapters"])["chapters"] as? [[String: Any]] ?? []
        XCTAssertEqual(chapters.compactMap { ($0["tags"] as? [String: String])?["title"] }, ["Intro", "Questions"])
        let format = try MovieWriterFixture.probe(movie, ["-show_format"])["format"] as? [String: Any]
        XCTAssertEqual(Double(format?["duration"] as? String ?? "") ?? 0, 3, accuracy: 0.1)
        let (_, errors) = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-i", movie, "-f", "null", "-"])
        XCTAssertEqual(errors, "")
        // Not fragmented any more: the only moov is the new one, and no moof is left outside the big mdat.
        let top = try topLevelBoxes(movie)
        XCTAssertEqual(top, ["ftyp", "mdat", "moov"])
    }

    /// The timecode track the finish writes reads back as libavformat's own (`-timecode`) does, in mov and mp4, with
    /// chapters and without: the same `tmcd` stream, start, one sample lasting the movie, drop-frame at 29.97.
    func testTheTimecodeTrackReadsBackAsFFmpegsOwn() throws {
        let folder = try MovieWriterFixture.directory("in-place-timecode")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fields = ["-show_entries", "stream=codec_type,codec_tag_string,time_base,duration,nb_frames:stream_tags=timecode"]
        for (format, chapters) in [("mov", true), ("mov", false), ("mp4", false)] {
            let movie = folder + "/clip-\(chapters).\(format)", partial = movie + ".partial"
            try make(partial, fragmented: true, format: format, rate: "30000/1001")
            var finisher = InPlaceMovieFinisher(partialPath: partial, moviePath: movie,
                                                container: format == "mp4" ? .mp4 : .mov)
            finisher.timecode = MovieIndexWriter.TimecodeTrack(startFrame: 1_078_920, rate: FrameRate(30000, 1001))
            _ = try finisher.finish(chapters: chapters ? [Chapter(title: "Only", start: .zero, end: .seconds(3))] : [])
            let reference = folder + "/reference-\(chapters).\(format)"
            let (_, errors) = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-i", movie, "-map", "0:v",
                                                                     "-c", "copy", "-timecode", "10:00:00;00", reference])
            XCTAssertEqual(errors, "")
            let streams = { (path: String) throws -> [[String: Any]] in
                (try MovieWriterFixture.probe(path, fields)["streams"] as? [[String: Any]] ?? [])
                    .filter { $0["codec_type"] as? String != "audio" && $0["codec_tag_string"] as? String != "text" }
            }
            let ours = try streams(movie), theirs = try streams(reference)
            XCTAssertEqual(ours.count, 2, "\(ours)")
            XCTAssertEqual(ours.map { $0["codec_tag_string"] as? String }, theirs.map { $0["codec_tag_string"] as? String })
            for (mine, libav) in zip(ours, theirs) {
                XCTAssertEqual((mine["tags"] as? [String: String])?["timecode"], "10:00:00;00", "\(format) \(mine)")
                XCTAssertEqual((mine["tags"] as? [String: String])?["timecode"],
                               (libav["tags"] as? [String: String])?["timecode"])
                for key in ["time_base", "nb_frames", "duration"] {
                    XCTAssertEqual(mine[key] as? String, libav[key] as? String, "\(format) \(key): \(mine) vs \(libav)")
                }
            }
        }
    }

    /// The finish tells its hooks each step in order, and the file grows as each step says: the chapters, half the
    /// new index, the rest of it; the switch and the link add nothing. The hooks see the file as a crash at that
    /// step would leave it (`PAUSECAM_FAULT_FINISH_KILL_AT_STEP` kills the process there).
    func testTheHooksAreToldEveryStepWithTheFileAsThatStepLeavesIt() throws {
        let folder = try MovieWriterFixture.directory("in-place-steps")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let partial = folder + "/clip.mov.partial", movie = folder + "/clip.mov"
        try make(partial, fragmented: true, format: "mov")
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int64)
        let steps = FinishStepRecorder(path: partial)
        var finisher = InPlaceMovieFinisher(partialPath: partial, moviePath: movie, container: .mov)
        finisher.hooks = steps
        let outcome = try finisher.finish(chapters: [Chapter(title: "Only", start: .zero, end: .seconds(3))])
        let seen = steps.seen
        XCTAssertEqual(seen.map(\.step), InPlaceFinishStep.allCases)
        XCTAssertEqual(seen.map(\.bytes).last, outcome.movieBytes)
        let sizes = Dictionary(uniqueKeysWithValues: seen.map { ($0.step, $0.bytes) })
        let chapters = try XCTUnwrap(sizes[.chaptersAppended]), half = try XCTUnwrap(sizes[.halfIndexWritten])
        let index = try XCTUnwrap(sizes[.indexAppended])
        XCTAssertGreaterThan(chapters, size, "the chapters' mdat is appended first")
        XCTAssertEqual(half - chapters, (index - chapters) / 2, "half the index, then the rest")
        XCTAssertEqual(sizes[.switched], index)
        XCTAssertEqual(sizes[.linked], index)
    }

    func testAFileThatIsNotFragmentedIsRefusedUntouched() throws {
        let folder = try MovieWriterFixture.directory("in-place-plain")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let partial = folder + "/clip.mov.partial", movie = folder + "/clip.mov"
        try make(partial, fragmented: false, format: "mov")
        let before = try Data(contentsOf: URL(fileURLWithPath: partial))
        XCTAssertThrowsError(try InPlaceMovieFinisher(partialPath: partial, moviePath: movie, container: .mov)
            .finish(chapters: [])) { error in
            XCTAssertTrue(error is FragmentedMovieIndex.IndexError, "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: partial)), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: movie))
    }

    private func topLevelBoxes(_ path: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var types: [String] = []
        var offset: Int64 = 0
        while offset < Int64(data.count) {
            let box = try XCTUnwrap(MovieBox.header(data[Int(offset)..<min(data.count, Int(offset) + 16)], at: offset,
                                                     limit: Int64(data.count)))
            types.append(box.type)
            offset = box.end
        }
        return types
    }
}

/// The tests' `SystemHooks` for the in-place finish: the steps it is told, with the `.partial`'s size at each.
private final class FinishStepRecorder: SystemHooks {
    let path: String
    private let steps = Guarded<[(step: InPlaceFinishStep, bytes: Int64)]>([])

    init(path: String) { self.path = path }

    var seen: [(step: InPlaceFinishStep, bytes: Int64)] { steps.withLock { $0 } }

    func didReachFinishStep(_ step: InPlaceFinishStep) {
        var info = stat()
        let bytes = stat(path, &info) == 0 ? Int64(info.st_size) : -1
        steps.withLock { $0.append((step, bytes)) }
    }
}
