import Foundation
import PauseCamCore
import XCTest

/// `pausecam export` and the rig's `output.exports` on a real clip of the virtual rig at 29.97 fps, each export
/// checked by the tool that reads it: xmllint against Apple's DTD for FCPXML, ffmpeg for FFmetadata, Resolve's
/// marker layout for EDL.
final class ExportEndToEndTests: XCTestCase {
    static let formats: [(name: String, suffix: String)] = [("edl", ".edl"), ("fcpxml", ".fcpxml"), ("csv", ".csv"),
                                                          ("ffmetadata", ".ffmeta"), ("youtube", ".youtube.txt")]

    func pausecam(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(BinaryLocator.pausecam.path, arguments)
    }

    /// Records the `interview` script; returns the folder and the clip's name (`E2E-exports` style stem).
    func recordClip(script: String = "interview") throws -> (folder: URL, stem: String) {
        let folder = try ProcessRunner.temporaryDirectory("exports")
        let result = try pausecam(["run", ProcessRunner.rig("e2e-exports.yaml"), "--script", script,
                                   "--clock", "simulated", "--output", folder.path, "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let movie = try XCTUnwrap(names.first { $0.hasSuffix(".mov") }, "no movie in \(names)")
        return (folder, String(movie.dropLast(4)))
    }

    func tool(_ name: String) throws -> String {
        for folder in ["/usr/bin", "/usr/local/bin", "/bin"] {
            let path = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw XCTSkip("\(name) is not installed (scripts/install-deps installs it)")
    }

    /// The ffmpeg command the documentation gives (in `help export` and in the README), run word for word on an
    /// exported `.ffmeta` whose titles were edited: the copy's chapters carry the new titles.
    func testTheDocumentedFFmpegCommandRetitlesTheChapters() throws {
        let (folder, stem) = try recordClip()
        let base = folder.appendingPathComponent(stem).path
        var ffmeta = try String(contentsOfFile: base + ".ffmeta", encoding: .utf8)
        XCTAssertTrue(ffmeta.contains("\ntitle=Intro\n"), ffmeta)
        ffmeta = ffmeta.replacingOccurrences(of: "\ntitle=Intro\n", with: "\ntitle=Opening\n")
        try ffmeta.write(toFile: base + ".ffmeta", atomically: true, encoding: .utf8)
        let ffmpeg = try tool("ffmpeg")

        let help = try pausecam(["help", "export"]).stdoutText
        let helpLine = try XCTUnwrap(help.split(separator: "\n").compactMap { line in
            line.range(of: "ffmpeg -i MOVIE").map { String(line[$0.lowerBound...]) }
        }.first, help)
        let readme = try String(contentsOf: ProcessRunner.rigsFolder.deletingLastPathComponent()
            .appendingPathComponent("README.md"), encoding: .utf8)
        let readmeCommand = try XCTUnwrap(readme.firstMatch(of: /`(ffmpeg -i clip\.mov -i clip\.ffmeta[^`]*)`/)?.1, readme)
        let documented: [(source: String, command: String, names: [String: String])] = [
            ("help export", helpLine, ["MOVIE": base + ".mov", "NAME.ffmeta": base + ".ffmeta"]),
            ("README", String(readmeCommand), ["clip.mov": base + ".mov", "clip.ffmeta": base + ".ffmeta"]),
        ]
        for (index, entry) in documented.enumerated() {
            let output = folder.appendingPathComponent("retitled-\(index).mov").path
            let words = entry.command.split(separator: " ").map(String.init)
            XCTAssertEqual(words.first, "ffmpeg", entry.command)
            let arguments = words.dropFirst().map { word -> String in
                if let name = entry.names[word] { return name }
                return word == "OUT" || word == "retitled.mov" ? output : word
            }
            let run = try ProcessRunner.run(ffmpeg, arguments)
            XCTAssertEqual(run.status, 0, "\(entry.source): \(entry.command): \(run.stderr)")
            let titles = try MediaProbe(path: output).chapters().compactMap(\.title)
            XCTAssertEqual(titles, ["Opening", "Interview", "Interview 2"], "\(entry.source): \(entry.command)")
        }
    }

    func testTheRigsExportsAreWrittenBesideTheMovieAndEachReaderAcceptsThem() throws {
        let (folder, stem) = try recordClip()
        let base = folder.appendingPathComponent(stem).path
        for format in Self.formats {
            XCTAssertTrue(FileManager.default.fileExists(atPath: base + format.suffix), "no \(format.name) export")
        }
        let sidecar = try Sidecar.decode(try Data(contentsOf: URL(fileURLWithPath: base + ".json")))
        XCTAssertEqual(sidecar.warnings, [])
        XCTAssertEqual(sidecar.scenes.map(\.title), ["Intro", "Interview", "Interview"])

        // The movie's chapters are unique.
        let chapters = try MediaProbe(path: base + ".mov").chapters()
        XCTAssertEqual(chapters.compactMap(\.title), ["Intro", "Interview", "Interview 2"])

        // FCPXML: valid against Apple's DTD, and it points at the movie.
        try MulticamExportEndToEndTests.assertValidFCPXML(base + ".fcpxml")
        let fcpxml = try String(contentsOfFile: base + ".fcpxml", encoding: .utf8)
        XCTAssertTrue(fcpxml.contains(URL(fileURLWithPath: base + ".mov").absoluteString), fcpxml)
        XCTAssertTrue(fcpxml.contains("value=\"hello, &quot;world&quot; | &lt;tag&gt; &amp; more\""), fcpxml)

        // EDL: drop-frame, every event in Resolve's marker layout.
        let edl = try String(contentsOfFile: base + ".edl", encoding: .utf8)
        XCTAssertTrue(edl.hasPrefix("TITLE: \(stem)\r\nFCM: DROP FRAME\r\n\r\n"), edl)
        let events = edl.components(separatedBy: "\r\n").filter { $0.first?.isNumber ?? false }
        let comments = edl.components(separatedBy: "\r\n").filter { $0.hasPrefix(" |C:") }
        XCTAssertEqual(events.count, 5)
        XCTAssertEqual(comments.count, 5)
        let tc = #"\d\d:\d\d:\d\d;\d\d"#
        for line in events {
            XCTAssertNotNil(line.range(of: #"^\d{3}  001      V     C        "# + "\(tc) \(tc) \(tc) \(tc)  $",
                                       options: .regularExpression), line)
        }
        XCTAssertTrue(comments.contains(" |C:ResolveColorBlue |M:hello, \"world\" / <tag> & more |D:1"), edl)
        XCTAssertTrue(comments.contains { $0.hasPrefix(" |C:ResolveColorGreen |M:Interview 2 |D:") }, edl)

        // FFmetadata: ffmpeg takes it as the chapters of a copy of the movie.
        let ffmpeg = try tool("ffmpeg")
        let copy = folder.appendingPathComponent("with-chapters.mov").path
        let remux = try ProcessRunner.run(ffmpeg, ["-v", "error", "-i", base + ".mov", "-i", base + ".ffmeta",
                                                   "-map_metadata", "1", "-map_chapters", "1", "-c", "copy", copy])
        XCTAssertEqual(remux.status, 0, remux.stderr)
        let copied = try MediaProbe(path: copy).chapters()
        XCTAssertEqual(copied.compactMap(\.title), ["Intro", "Interview", "Interview 2"])
        XCTAssertEqual(copied.map(\.start), chapters.map(\.start))

        // YouTube: first at 0:00.
        let youtube = try String(contentsOfFile: base + ".youtube.txt", encoding: .utf8)
        XCTAssertEqual(youtube, "0:00 Intro\n0:10 Interview\n0:21 Interview 2\n")

        // CSV: the marker times are the sidecar's, on frames.
        let csv = try String(contentsOfFile: base + ".csv", encoding: .utf8)
        let markerRows = csv.components(separatedBy: "\r\n").filter { $0.hasPrefix("marker,") }
        let sidecarMarkers = sidecar.scenes.flatMap(\.markers)
        XCTAssertEqual(markerRows.count, sidecarMarkers.count)
        for (row, marker) in zip(markerRows, sidecarMarkers) {
            let fields = row.components(separatedBy: ",")
            let seconds = try XCTUnwrap(Double(fields[fields.count - 4]), row)
            XCTAssertEqual(seconds, marker.time, accuracy: 1.0 / 29.97, row)
        }
    }

    /// A clip of two short scenes: the rig writes every export but the YouTube list, and the sidecar says why.
    func testTheRigSkipsAYouTubeListYouTubeWouldIgnoreWithAWarning() throws {
        let (folder, stem) = try recordClip(script: "short")
        let base = folder.appendingPathComponent(stem).path
        for format in Self.formats {
            XCTAssertEqual(FileManager.default.fileExists(atPath: base + format.suffix), format.name != "youtube",
                           format.name)
        }
        let sidecar = try Sidecar.decode(try Data(contentsOf: URL(fileURLWithPath: base + ".json")))
        XCTAssertEqual(sidecar.warnings.count, 1, "\(sidecar.warnings)")
        XCTAssertTrue(sidecar.warnings.first?.hasPrefix("the youtube export was not written: the clip has 2 chapters (2.")
                      ?? false, "\(sidecar.warnings)")
    }

    func testExportCommandWritesEveryFormatBesideTheSidecarWithoutOverwriting() throws {
        let (folder, stem) = try recordClip()
        let base = folder.appendingPathComponent(stem).path
        let before = try String(contentsOfFile: base + ".edl", encoding: .utf8)
        let result = try pausecam(["export", base + ".json", "--format", "all", "--start-timecode", "01:00:00;00"])
        XCTAssertEqual(result.status, 0, result.stderr)
        // The rig already wrote NAME.edl…: the command adds NAME-2.edl… and prints each path.
        XCTAssertEqual(result.stdoutText.split(separator: "\n").map(String.init),
                       Self.formats.map { "\(base)-2\($0.suffix)" })
        XCTAssertEqual(try String(contentsOfFile: base + ".edl", encoding: .utf8), before, "overwritten")
        let edl = try String(contentsOfFile: base + "-2.edl", encoding: .utf8)
        XCTAssertTrue(edl.contains("001  001      V     C        01:00:00;00 01:00:00;01 01:00:00;00 01:00:00;01  "),
                      edl)
        try MulticamExportEndToEndTests.assertValidFCPXML(base + "-2.fcpxml")

        // One format to a named file; that file exists once it is written, so the next goes to -2.
        let named = folder.appendingPathComponent("markers.csv").path
        for expected in [named, folder.appendingPathComponent("markers-2.csv").path] {
            let again = try pausecam(["export", base + ".json", "--format", "csv", "--output", named])
            XCTAssertEqual(again.status, 0, again.stderr)
            XCTAssertEqual(again.stdoutText, expected + "\n")
        }
        let stdout = try pausecam(["export", base + ".json", "--format", "youtube", "--output", "-"])
        XCTAssertEqual(stdout.stdoutText, "0:00 Intro\n0:10 Interview\n0:21 Interview 2\n")
    }

    func testMistakesAreSaidPlainlyWithExitStatus2() throws {
        let (folder, stem) = try recordClip()
        let sidecar = folder.appendingPathComponent(stem + ".json").path
        let cases: [([String], String)] = [
            (["export", folder.appendingPathComponent("nope.json").path, "--format", "edl"], "does not exist"),
            (["export", sidecar, "--format", "edll"], "did you mean \"edl\""),
            (["export", sidecar], "export needs --format"),
            (["export", sidecar, "--format", "edl", "--start-timecode", "00:01:00;00"], "does not exist in drop-frame"),
            (["export", sidecar, "--format", "edl,csv", "--output", "x.edl"], "names one file"),
            (["export", folder.appendingPathComponent(stem + ".mov").path, "--format", "edl"],
             "is not a PauseCam sidecar"),
        ]
        for (arguments, message) in cases {
            let result = try pausecam(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdoutText, "", "\(arguments)")
        }
    }
}
