import XCTest
@testable import PauseCamCore

/// Each export format read back: the scene and marker times that went in come out, on the right frames.
final class ExportFormatTests: XCTestCase {
    func testTheTimelinePutsSidecarSecondsOnFramesAndMakesTitlesUnique() throws {
        let timeline = try ExportSample.timeline()
        XCTAssertEqual(timeline.rate, FrameRate(30000, 1001))
        XCTAssertEqual(timeline.chapters, [.init(title: "Intro", startFrame: 0, endFrame: 1800),
                                           .init(title: "Interview", startFrame: 1800, endFrame: 17982),
                                           .init(title: "Interview 2", startFrame: 17982, endFrame: 18500)])
        XCTAssertEqual(timeline.markers.map(\.frame), [450, 1800, 17990])
        XCTAssertEqual(timeline.markers.map(\.chapter), ["Intro", "Interview", "Interview 2"])
        XCTAssertEqual(timeline.durationFrames, 18500)
    }

    func testTimesNoMovieHasAreRefusedNamingTheField() {
        var cases: [(Sidecar, String)] = []
        var sidecar = ExportSample.sidecar()
        sidecar.duration = 1e13
        cases.append((sidecar, ".duration"))
        sidecar = ExportSample.sidecar()
        sidecar.scenes[1].start = 1e18
        cases.append((sidecar, ".scenes[1].start"))
        sidecar = ExportSample.sidecar()
        sidecar.scenes[2].duration = -0.5
        cases.append((sidecar, ".scenes[2].duration"))
        sidecar = ExportSample.sidecar()
        sidecar.scenes[2].markers[0].time = .infinity
        cases.append((sidecar, ".scenes[2].markers[0].time"))
        sidecar = ExportSample.sidecar()
        sidecar.scenes[0].markers[0].time = -1e300
        cases.append((sidecar, ".scenes[0].markers[0].time"))
        for (sidecar, field) in cases {
            XCTAssertThrowsError(try ExportTimeline(sidecar: sidecar), field) { error in
                XCTAssertTrue("\(error)".hasPrefix(field + " is "), "\(error)")
            }
        }
        sidecar = ExportSample.sidecar()
        sidecar.duration = ExportTimeline.latestSeconds
        XCTAssertEqual(try ExportTimeline(sidecar: sidecar).durationFrames,
                       Int64(ExportTimeline.latestSeconds) * 30000 / 1001)
        XCTAssertEqual(ExportTimeline.frame(atSeconds: 1e300, rate: FrameRate(30)),
                       Int64(ExportTimeline.latestSeconds) * 30, "past the range: clamped, never a trap")
    }

    func testSecondsBetweenFramesGoToTheFrameShowingThen() {
        let rate = FrameRate(30)
        XCTAssertEqual(ExportTimeline.frame(atSeconds: 1.0, rate: rate), 30)
        XCTAssertEqual(ExportTimeline.frame(atSeconds: 0.9999999, rate: rate), 30, "printing noise")
        XCTAssertEqual(ExportTimeline.frame(atSeconds: 1.0 + 0.9 / 30, rate: rate), 30, "inside frame 30")
        XCTAssertEqual(ExportTimeline.frame(atSeconds: 60.06, rate: FrameRate(30000, 1001)), 1800)
        XCTAssertEqual(ExportTimeline.frame(atSeconds: -1, rate: rate), 0)
    }

    func testResolveEDLLinesFollowTheMarkerLayout() throws {
        let start = try Timecode(rate: ExportSample.rate).frame(parsing: "01:00:00;00")
        let text = ResolveMarkerEDL.render(try ExportSample.timeline(), startFrame: start)
        let lines = text.components(separatedBy: "\r\n")
        XCTAssertEqual(lines[0], "TITLE: clip")
        XCTAssertEqual(lines[1], "FCM: DROP FRAME")
        XCTAssertEqual(lines[2], "")
        let tc = #"(\d\d:\d\d:\d\d[:;]\d\d)"#
        let event = try NSRegularExpression(
            pattern: #"^(\d{3})  001      V     C        "# + "\(tc) \(tc) \(tc) \(tc)  $")
        let comment = try NSRegularExpression(pattern: #"^ \|C:(ResolveColor[A-Za-z]+) \|M:([^|]*) \|D:(\d+)$"#)
        var found: [(number: String, tcIn: String, color: String, name: String, duration: Int)] = []
        var index = 3
        while index + 2 < lines.count, !lines[index].isEmpty {
            let eventLine = lines[index], commentLine = lines[index + 1]
            let e = try XCTUnwrap(event.firstMatch(in: eventLine,
                                                   range: NSRange(eventLine.startIndex..., in: eventLine)),
                                  "event line \(eventLine.debugDescription)")
            let c = try XCTUnwrap(comment.firstMatch(in: commentLine,
                                                     range: NSRange(commentLine.startIndex..., in: commentLine)),
                                  "comment line \(commentLine.debugDescription)")
            func group(_ m: NSTextCheckingResult, _ i: Int, _ s: String) -> String {
                String(s[Range(m.range(at: i), in: s)!])
            }
            XCTAssertEqual(group(e, 2, eventLine), group(e, 4, eventLine), "source in = record in")
            XCTAssertEqual(group(e, 3, eventLine), group(e, 5, eventLine), "source out = record out")
            found.append((group(e, 1, eventLine), group(e, 2, eventLine), group(c, 1, commentLine),
                          group(c, 2, commentLine), Int(group(c, 3, commentLine))!))
            XCTAssertEqual(lines[index + 2], "", "a blank line after each event")
            index += 3
        }
        // The chapter "Interview" and the marker on its first frame are one marker (Resolve keeps one per frame).
        XCTAssertEqual(found.map(\.number), ["001", "002", "003", "004", "005"])
        XCTAssertEqual(found.map(\.tcIn), ["01:00:00;00", "01:00:15;00", "01:01:00;02", "01:10:00;00",
                                           "01:10:00;08"])
        XCTAssertEqual(found.map(\.name), ["Intro", "Laugh", "Interview + Key / point, \"quoted\"", "Interview 2",
                                           "=SUM(A1)"])
        XCTAssertEqual(found.map(\.color), ["ResolveColorGreen", "ResolveColorBlue", "ResolveColorGreen",
                                            "ResolveColorGreen", "ResolveColorBlue"])
        XCTAssertEqual(found.map(\.duration), [1800, 1, 16182, 518, 1])
        XCTAssertEqual(Set(found.map(\.tcIn)).count, found.count, "two events at one timecode")
    }

    func testFCPXMLTimesAreRationalFrameTimes() throws {
        let text = FCPXMLDocument.render(try ExportSample.timeline(), mediaURL: "file:///v/clip%20a.mov")
        XCTAssertTrue(text.contains(#"<fcpxml version="1.9">"#))
        XCTAssertTrue(text.contains(#"frameDuration="1001/30000s""#))
        XCTAssertTrue(text.contains(#"tcFormat="DF""#))
        XCTAssertTrue(text.contains(#"<media-rep kind="original-media" src="file:///v/clip%20a.mov"/>"#))
        // 1800 frames × 1001/30000 s = 3003/50 s, reduced.
        XCTAssertTrue(text.contains(#"<chapter-marker start="3003/50s" duration="1001/30000s" value="Interview""#))
        XCTAssertTrue(text.contains(#"value="Interview 2""#))
        XCTAssertTrue(text.contains(
            #"<marker start="3003/50s" duration="1001/30000s" value="Key | point, &quot;quoted&quot;"/>"#))
        XCTAssertEqual(FCPXMLDocument.time(17982, try ExportSample.timeline()), "2999997/5000s")
        XCTAssertEqual(FCPXMLDocument.escape("a<b>&'\u{1}"), "a&lt;b&gt;&amp;&apos; ")
    }

    func testCSVRoundTripsSceneAndMarkerTimes() throws {
        let timeline = try ExportSample.timeline()
        let rows = Self.parseCSV(MarkerCSV.render(timeline))
        XCTAssertEqual(rows.first, MarkerCSV.columns)
        let body = rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(MarkerCSV.columns, $0)) }
        let chapters = body.filter { $0["type"] == "chapter" }
        let markers = body.filter { $0["type"] == "marker" }
        XCTAssertEqual(chapters.map { $0["name"]! }, timeline.chapters.map(\.title))
        XCTAssertEqual(chapters.map { Int64($0["start_frame"]!)! }, timeline.chapters.map(\.startFrame))
        XCTAssertEqual(markers.map { $0["name"]! }, ["Laugh", "Key | point, \"quoted\"", "'=SUM(A1)"])
        XCTAssertEqual(markers.map { Int64($0["start_frame"]!)! }, [450, 1800, 17990])
        let timecode = Timecode(rate: ExportSample.rate)
        for row in body {
            let frame = Int64(row["start_frame"]!)!
            XCTAssertEqual(try timecode.frame(parsing: row["start_timecode"]!), frame)
            XCTAssertEqual(Double(row["start_seconds"]!)!, ExportSample.seconds(frame), accuracy: 0.000_001)
        }
        XCTAssertEqual(chapters[1]["duration_frames"], "16182")
        XCTAssertEqual(chapters[1]["end_timecode"], "00:10:00;00")
    }

    func testFFMetadataRoundTripsChapterTimes() throws {
        let timeline = try ExportSample.timeline()
        let text = FFMetadataDocument.render(timeline)
        XCTAssertTrue(text.hasPrefix(";FFMETADATA1\n"))
        var chapters: [(start: Int64, end: Int64, title: String)] = []
        var timebase = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "[CHAPTER]" { chapters.append((0, 0, "")) }
            if line.hasPrefix("TIMEBASE=") { timebase = String(line.dropFirst(9)) }
            if line.hasPrefix("START=") { chapters[chapters.count - 1].start = Int64(line.dropFirst(6))! }
            if line.hasPrefix("END=") { chapters[chapters.count - 1].end = Int64(line.dropFirst(4))! }
            if line.hasPrefix("title="), !chapters.isEmpty {
                chapters[chapters.count - 1].title = String(line.dropFirst(6))
            }
        }
        XCTAssertEqual(timebase, "1001/30000")
        XCTAssertEqual(chapters.map(\.start), timeline.chapters.map(\.startFrame))
        XCTAssertEqual(chapters.map(\.end), timeline.chapters.map(\.endFrame))
        XCTAssertEqual(chapters.map(\.title), ["Intro", "Interview", "Interview 2"])
        XCTAssertEqual(FFMetadataDocument.escape("a=b;c#d\\e"), "a\\=b\\;c\\#d\\\\e")
    }

    func testYouTubeRulesNameTheRuleABrokenListBreaksWithItsNumbers() throws {
        var timeline = try ExportSample.timeline()
        XCTAssertNil(YouTubeChapterList.problem(with: timeline))
        // 2.5 s and 1 s at 30 fps: two chapters, too few.
        let chapters = { (ends: [Int64]) in
            zip([0] + ends.dropLast(), ends).enumerated().map { index, span in
                ExportTimeline.Chapter(title: "S\(index + 1)", startFrame: span.0, endFrame: span.1)
            }
        }
        timeline.rate = FrameRate(30, 1)
        timeline.chapters = chapters([75, 105])
        timeline.durationFrames = 105
        let twoShort = try XCTUnwrap(YouTubeChapterList.problem(with: timeline))
        XCTAssertTrue(twoShort.hasPrefix("the clip has 2 chapters (2.5 s, 1.0 s); "), twoShort)
        XCTAssertTrue(twoShort.contains("at least 3, each at least 10 s long"), twoShort)
        // Three chapters, the middle one a frame short of 10 s.
        timeline.chapters = chapters([300, 599, 900])
        timeline.durationFrames = 900
        let short = try XCTUnwrap(YouTubeChapterList.problem(with: timeline))
        XCTAssertTrue(short.hasPrefix("chapter 2 of 3 (\"S2\") is 9.9 s long; "), short)
        // Exactly 10 s each is enough.
        timeline.chapters = chapters([300, 600, 900])
        XCTAssertNil(YouTubeChapterList.problem(with: timeline))
        // The last chapter runs to the movie's end.
        timeline.durationFrames = 899
        XCTAssertNotNil(YouTubeChapterList.problem(with: timeline))
        timeline.chapters = []
        XCTAssertEqual(YouTubeChapterList.problem(with: timeline)?.hasPrefix("the clip has 0 chapters; "), true)
    }

    func testYouTubeListStartsAtZeroAndRoundTripsWholeSeconds() throws {
        let timeline = try ExportSample.timeline()
        let lines = YouTubeChapterList.render(timeline).split(separator: "\n").map(String.init)
        // Frame 17982 is at 599.9994 s: the second it starts in is 9:59 (rounded down, never after the start).
        XCTAssertEqual(lines, ["0:00 Intro", "1:00 Interview", "9:59 Interview 2"])
        for (line, chapter) in zip(lines, timeline.chapters) {
            let clock = line.prefix { $0 != " " }.split(separator: ":").map { Int64($0)! }
            let seconds = clock.reduce(0) { $0 * 60 + $1 }
            XCTAssertEqual(Double(seconds), ExportSample.seconds(chapter.startFrame).rounded(.down))
        }
        XCTAssertEqual(YouTubeChapterList.clock(3723, withHours: true), "1:02:03")
        XCTAssertEqual(YouTubeChapterList.clock(65, withHours: false), "1:05")
    }

    func testEveryFormatHasItsOwnSuffix() {
        XCTAssertEqual(Set(ExportFormat.allCases.map(\.fileSuffix)).count, ExportFormat.allCases.count)
        XCTAssertEqual(AddOnlyName.candidate(stem: "/v/clip", suffix: ".edl", attempt: 1), "/v/clip.edl")
        XCTAssertEqual(AddOnlyName.candidate(stem: "/v/clip", suffix: ".edl", attempt: 3), "/v/clip-3.edl")
        XCTAssertTrue(AddOnlyName.split("/a.b/c.youtube.txt") == ("/a.b/c", ".youtube.txt"))
        XCTAssertTrue(AddOnlyName.split("/a/.hidden") == ("/a/.hidden", ""))
        XCTAssertTrue(AddOnlyName.split("out") == ("out", ""))
    }

    /// A small RFC 4180 reader: quoted fields, doubled quotes, CRLF rows.
    static func parseCSV(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false
        var characters = Array(text)[...]
        while let c = characters.popFirst() {
            if quoted {
                if c == "\"" {
                    if characters.first == "\"" { field.append("\""); characters.removeFirst() } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" { quoted = true }
            else if c == "," { row.append(field); field = "" }
            else if c == "\r\n" || c == "\n" { row.append(field); rows.append(row); row = []; field = "" }
            else { field.append(c) }
        }
        return rows
    }
}
