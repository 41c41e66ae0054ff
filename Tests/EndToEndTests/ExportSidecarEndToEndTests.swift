import Foundation
import Glibc
import XCTest

/// `pausecam export` given sidecars a recorder never writes — edited, damaged or hostile ones, and files that are
/// not sidecars at all — and sidecars far larger than usual: it refuses what it cannot use with a reason and exit
/// status 2, writes only beside the sidecar, and never crashes or hangs.
final class ExportSidecarEndToEndTests: XCTestCase {
    func pausecam(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(BinaryLocator.pausecam.path, arguments)
    }

    /// A sidecar's JSON at 30 fps: `scenes` as (title, start, duration, marker times), `movie` as given.
    static func sidecar(movie: String = "clip.mov", duration: Double = 10,
                        scenes: [(String, Double, Double, [Double])] = [("Intro", 0, 10, [2])]) -> [String: Any] {
        [
            "schema": 1, "rig": "Desk", "movie": movie, "complete": true, "started": "2026-01-01T00:00:00Z",
            "duration": duration,
            "video": ["codec": "h264", "width": 320, "height": 180, "fps": 30, "frames_written": 300,
                      "frames_dropped": 0, "late_frames_dropped": 0],
            "scenes": scenes.enumerated().map { index, scene in
                ["index": index + 1, "title": scene.0, "start": scene.1, "duration": scene.2, "lenses": [],
                 "no_signal": [], "markers": scene.3.map { ["time": $0, "text": "mark at \($0)"] }] as [String: Any]
            },
            "pauses": [], "switches": [], "devices": [], "warnings": [],
        ]
    }

    /// Writes `json` as `name` in `folder` (made if needed), with an empty movie file beside it unless `movie` is
    /// nil; returns the sidecar's path.
    @discardableResult
    static func write(_ json: [String: Any], to folder: URL, name: String = "clip.json",
                      movie: String? = "clip.mov") throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        if let movie { try Data().write(to: folder.appendingPathComponent(movie)) }
        return path
    }

    /// Every file under `folder`, relative to it, sorted.
    static func files(under folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var names: [String] = []
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = folder.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                names.append(name)
            }
        }
        return names.sorted()
    }

    func testTimesNoMovieHasAreRefusedNamingTheFileAndTheField() throws {
        let folder = try ProcessRunner.temporaryDirectory("export-range")
        let cases: [([String: Any], String)] = [
            (Self.sidecar(duration: 1e13), ".duration is 10000000000000.0"),
            (Self.sidecar(scenes: [("A", 1e18, 1, [])]), ".scenes[0].start is 1e+18"),
            (Self.sidecar(scenes: [("A", 0, 5, []), ("B", 5, 1e18, [])]), ".scenes[1].duration is 1e+18"),
            (Self.sidecar(scenes: [("A", 0, 10, [1, 1e300])]), ".scenes[0].markers[1].time is 1e+300"),
            (Self.sidecar(scenes: [("A", 0, 10, [-1e300])]), ".scenes[0].markers[0].time is -1e+300"),
            (Self.sidecar(scenes: [("A", 3e7, 3e7, [])]), ".scenes[0].start + duration is 60000000.0"),
        ]
        for (index, (json, field)) in cases.enumerated() {
            let sidecar = try Self.write(json, to: folder.appendingPathComponent("case\(index)"))
            let result = try pausecam(["export", sidecar, "--format", "all"])
            XCTAssertEqual(result.status, 2, "\(field): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("pausecam: \(sidecar): \(field), not a time in a movie"),
                          "\(field): \(result.stderr)")
            XCTAssertEqual(result.stdoutText, "", field)
        }
        XCTAssertEqual(Self.files(under: folder).filter { !$0.hasSuffix(".json") && !$0.hasSuffix(".mov") }, [],
                       "nothing is written for a refused sidecar")
    }

    func testAStartTimecodeOfADayOrMoreIsRefusedAndLabelsWrapAt24Hours() throws {
        let folder = try ProcessRunner.temporaryDirectory("export-timecode")
        let sidecar = try Self.write(Self.sidecar(scenes: [("Intro", 0, 1, [0.5])]), to: folder)
        for text in ["99999999999999:00:00:00", "24:00:00:00"] {
            let result = try pausecam(["export", sidecar, "--format", "edl", "--start-timecode", text])
            XCTAssertEqual(result.status, 2, "\(text): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("--start-timecode: \"\(text)\" is out of range: hours go to 23"),
                          "\(text): \(result.stderr)")
        }
        // The last frame of the day is followed by the first, as on a real timecode: there is no hour 24.
        let edl = try pausecam(["export", sidecar, "--format", "edl", "--start-timecode", "23:59:59:29",
                                "--output", "-"])
        XCTAssertEqual(edl.status, 0, edl.stderr)
        XCTAssertTrue(edl.stdoutText.contains("23:59:59:29 00:00:00:00 23:59:59:29 00:00:00:00"), edl.stdoutText)
        XCTAssertTrue(edl.stdoutText.contains("00:00:00:14 00:00:00:15 00:00:00:14 00:00:00:15"), edl.stdoutText)
        let csv = try pausecam(["export", sidecar, "--format", "csv", "--start-timecode", "23:59:59:00",
                                "--output", "-"])
        XCTAssertEqual(csv.status, 0, csv.stderr)
        XCTAssertTrue(csv.stdoutText.contains("chapter,Intro,Intro,23:59:59:00,00:00:00:00,"), csv.stdoutText)
        XCTAssertFalse(edl.stdoutText.contains("24:") || csv.stdoutText.contains("24:"))
        let help = try pausecam(["help", "export"])
        XCTAssertTrue(help.stdoutText.contains("wrap at 24 hours"), "the help says what the labels do")
    }

    func testExportsGoBesideTheSidecarWhateverItsMovieSays() throws {
        let root = try ProcessRunner.temporaryDirectory("export-beside")
        let folder = root.appendingPathComponent("a/b/c")
        let cases: [(movie: String, written: String)] = [
            ("../../../escaped.mov", "escaped.edl"), ("/etc/passwd", "passwd.edl"), ("", "clip.edl"),
            ("..", "clip.edl"), (".hidden.mov", "hidden.edl"), ("sub/", "clip.edl"),
        ]
        for (index, item) in cases.enumerated() {
            let caseFolder = folder.appendingPathComponent("case\(index)")
            let sidecar = try Self.write(Self.sidecar(movie: item.movie), to: caseFolder, movie: nil)
            let result = try pausecam(["export", sidecar, "--format", "edl"])
            XCTAssertEqual(result.status, 0, "\(item.movie): \(result.stderr)")
            XCTAssertEqual(result.stdoutText, caseFolder.appendingPathComponent(item.written).path + "\n",
                           item.movie)
            XCTAssertEqual(Self.files(under: caseFolder), ["clip.json", item.written].sorted(), item.movie)
        }
        XCTAssertEqual(Self.files(under: root).filter { !$0.hasPrefix("a/b/c/") }, [], "written outside")

        // An existing export is never replaced: the next name is taken.
        let sidecar = folder.appendingPathComponent("case0/clip.json").path
        let again = try pausecam(["export", sidecar, "--format", "edl"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdoutText, folder.appendingPathComponent("case0/escaped-2.edl").path + "\n")
    }

    func testAMissingMovieIsAWarningAndOnlyWhatWasAskedIsWritten() throws {
        let folder = try ProcessRunner.temporaryDirectory("export-nomovie")
        let scenes = [("Intro", 0.0, 10.0, [2.0]), ("Talk", 10.0, 10.0, []), ("End", 20.0, 10.0, [])]
        let sidecar = try Self.write(Self.sidecar(movie: "gone.mov", duration: 30, scenes: scenes), to: folder,
                                     movie: nil)
        let result = try pausecam(["export", sidecar, "--format", "edl,youtube"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("warning: the movie \(folder.appendingPathComponent("gone.mov").path)"),
                      result.stderr)
        XCTAssertEqual(Self.files(under: folder), ["clip.json", "gone.edl", "gone.youtube.txt"])

        // With the movie there, no warning.
        try Data().write(to: folder.appendingPathComponent("gone.mov"))
        let present = try pausecam(["export", sidecar, "--format", "csv"])
        XCTAssertEqual(present.status, 0, present.stderr)
        XCTAssertEqual(present.stderr, "")
    }

    func testAYouTubeListYouTubeWouldIgnoreIsRefusedBeforeAnythingIsWritten() throws {
        let folder = try ProcessRunner.temporaryDirectory("export-youtube")
        let sidecar = try Self.write(Self.sidecar(duration: 3.5, scenes: [("Intro", 0, 2.5, []), ("Answer", 2.5, 1, [])]),
                                     to: folder)
        let result = try pausecam(["export", sidecar, "--format", "youtube"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("YouTube would ignore this chapter list: the clip has 2 chapters "
                                             + "(2.5 s, 1.0 s); YouTube shows chapters only when there are at "
                                             + "least 3, each at least 10 s long"), result.stderr)
        XCTAssertEqual(result.stdoutText, "")
        XCTAssertEqual(Self.files(under: folder), ["clip.json", "clip.mov"], "something was written")
        // Three chapters, one of them short: the short one is named.
        let short = try Self.write(Self.sidecar(duration: 30, scenes: [("A", 0, 10, []), ("B", 10, 4, []),
                                                                       ("C", 14, 16, [])]), to: folder,
                                     name: "short.json")
        let shortResult = try pausecam(["export", short, "--format", "youtube"])
        XCTAssertEqual(shortResult.status, 2, shortResult.stderr)
        XCTAssertTrue(shortResult.stderr.contains("chapter 2 of 3 (\"B\") is 4.0 s long"), shortResult.stderr)
        // The other formats do not care.
        XCTAssertEqual(try pausecam(["export", short, "--format", "edl"]).status, 0)
    }

    /// A format whose rules refuse the clip does not stop the others: each of those is written, the refused one is
    /// named with its reason, and the status is 1.
    func testAllFormatsAreWrittenButTheRefusedYouTubeListWhichIsNamed() throws {
        for (index, format) in ["all", "edl,fcpxml,youtube"].enumerated() {
            let folder = try ProcessRunner.temporaryDirectory("export-all-\(index)")
            let sidecar = try Self.write(Self.sidecar(duration: 30, scenes: [("A", 0, 10, []), ("B", 10, 4, []),
                                                                             ("C", 14, 16, [])]), to: folder)
            let result = try pausecam(["export", sidecar, "--format", format])
            XCTAssertEqual(result.status, 1, "\(format): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("the youtube export was not written: YouTube would ignore this "
                                                 + "chapter list: chapter 2 of 3 (\"B\") is 4.0 s long"),
                          "\(format): \(result.stderr)")
            let expected = format == "all" ? ["clip.csv", "clip.edl", "clip.ffmeta", "clip.fcpxml"]
                                           : ["clip.edl", "clip.fcpxml"]
            XCTAssertEqual(Self.files(under: folder), (["clip.json", "clip.mov"] + expected).sorted(), format)
            XCTAssertEqual(result.stdoutText.split(separator: "\n").map { URL(fileURLWithPath: String($0)).lastPathComponent }
                               .sorted(), expected.sorted(), format)
        }
    }

    /// Resolve keeps one marker per frame: a scene start and marks on one frame come out as one marker naming all.
    func testAChapterAndMarksOnOneFrameAreOneResolveMarker() throws {
        let folder = try ProcessRunner.temporaryDirectory("export-edl-same-frame")
        let sidecar = try Self.write(Self.sidecar(duration: 20, scenes: [("Intro", 0, 10, [5]),
                                                                         ("Talk", 10, 10, [10, 10, 12])]), to: folder)
        let result = try pausecam(["export", sidecar, "--format", "edl", "--output", "-"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdoutText.components(separatedBy: "\r\n")
        let events = lines.filter { $0.first?.isNumber ?? false }
        let timecodes = events.map { $0.split(separator: " ")[4] }
        XCTAssertEqual(timecodes, ["00:00:00:00", "00:00:05:00", "00:00:10:00", "00:00:12:00"], "\(events)")
        XCTAssertEqual(lines.filter { $0.hasPrefix(" |C:") }[2],
                       " |C:ResolveColorGreen |M:Talk + mark at 10.0 + mark at 10.0 |D:300")
    }

    func testAFIFOOrADeviceIsNotARegularFileAndNeverBlocks() throws {
        let folder = try ProcessRunner.temporaryDirectory("export-fifo")
        let fifo = folder.appendingPathComponent("clip.json").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0, String(cString: strerror(errno)))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.json").path,
                                                   withDestinationPath: fifo)
        for (path, kind) in [(fifo, "a FIFO"), (folder.appendingPathComponent("link.json").path, "a FIFO"),
                             ("/dev/urandom", "a character device")] {
            let command = try RunningCommand(["export", path, "--format", "edl"])
            // A bound that only a blocked open reaches: the answer needs no I/O beyond one stat.
            guard let status = command.waitForExit(seconds: 60) else {
                return XCTFail("export of \(path) did not end: it opened what it should only have looked at")
            }
            XCTAssertEqual(status, 2, "\(path): \(command.stderr)")
            XCTAssertTrue(command.stderr.contains("\(path) is not a regular file but \(kind)"),
                          "\(path): \(command.stderr)")
        }
    }

    func testTwentyThousandScenesOfOneNameExportInFull() throws {
        let folder = try ProcessRunner.temporaryDirectory("export-many")
        let count = 20_000
        // Scenes of 10 s (the shortest a YouTube chapter may be), all "Take", each with a marker half way; titles
        // must come out unique.
        let scenes = (0..<count).map { ("Take", Double($0) * 10, 10.0, [Double($0) * 10 + 5]) }
        let sidecar = try Self.write(Self.sidecar(duration: Double(count) * 10, scenes: scenes), to: folder)
        let result = try pausecam(["export", sidecar, "--format", "edl,ffmetadata,youtube"])
        XCTAssertEqual(result.status, 0, result.stderr)

        let edl = try String(contentsOfFile: folder.appendingPathComponent("clip.edl").path, encoding: .utf8)
        let comments = edl.components(separatedBy: "\r\n").filter { $0.hasPrefix(" |C:") }
        XCTAssertEqual(comments.count, 2 * count)
        XCTAssertEqual(comments.filter { $0.hasPrefix(" |C:ResolveColorGreen") }.count, count)
        XCTAssertEqual(comments[2 * count - 2], " |C:ResolveColorGreen |M:Take \(count) |D:300")
        XCTAssertEqual(comments[2 * count - 1], " |C:ResolveColorBlue |M:mark at \(Double(count - 1) * 10 + 5) |D:1")

        let ffmetadata = try String(contentsOfFile: folder.appendingPathComponent("clip.ffmeta").path,
                                    encoding: .utf8).components(separatedBy: "\n")
        XCTAssertEqual(ffmetadata.filter { $0 == "[CHAPTER]" }.count, count)
        let markerLines = ffmetadata.filter { $0.hasPrefix("; marker ") }
        XCTAssertEqual(markerLines.count, count, "each chapter keeps its one marker")
        XCTAssertEqual(markerLines.last, "; marker \(300 * (count - 1) + 150) mark at \(Double(count - 1) * 10 + 5)")

        let youtube = try String(contentsOfFile: folder.appendingPathComponent("clip.youtube.txt").path,
                                 encoding: .utf8).components(separatedBy: "\n").filter { !$0.isEmpty }
        XCTAssertEqual(youtube.count, count)
        XCTAssertEqual(Set(youtube.map { $0.split(separator: " ", maxSplits: 1)[1] }).count, count)
        XCTAssertEqual(youtube.last, "55:33:10 Take \(count)")
    }
}
