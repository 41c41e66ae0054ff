import Foundation
import XCTest
@testable import PauseCamCore

/// `MulticamTimeline`: a group's clips placed by their grid slots, the ISO cut list from lens segments, the
/// checks of a hand-made timeline, and the FCPXML multicam document's layout.
final class MulticamTimelineTests: XCTestCase {
    /// `ExportSample`'s clip as member `host`'s, started by a `record` on `slot` (`outcome`), arriving at
    /// `arrivedSlot` (the same slot when nil).
    private func member(_ host: String, slot: Int64, outcome: String = "on_time", arrivedSlot: Int64? = nil,
                        group: String = "studio", fps: Double = 30000.0 / 1001, epoch: Int64 = 0,
                        first: String = "record Intro") -> MulticamTimeline.MemberClip {
        var sidecar = ExportSample.sidecar(fps: fps)
        sidecar.movie = "\(host).mov"
        let grid = EpochGrid(rate: FrameRate(sidecarFPS: fps)!, epochNanoseconds: epoch)
        let at = grid.instant(ofSlot: slot)!
        // Arrived a quarter frame into the slot before `arrivedSlot`, so "the first slot after" is `arrivedSlot`.
        let arrived = arrivedSlot.map { grid.instant(ofSlot: $0 - 1)! + 8_000_000 } ?? at - 500_000_000
        sidecar.group = Sidecar.Group(
            name: group, host: host, epochNs: epoch, lead: 0.25, membersSeen: [],
            commands: [.init(from: "cam-a", seq: 1, command: first, atNs: at, slot: slot, arrivedNs: arrived,
                             outcome: outcome, lateBy: 0),
                       .init(from: "cam-a", seq: 2, command: "stop", atNs: at + 1, slot: slot + 18500,
                             arrivedNs: at, outcome: "on_time", lateBy: 0)],
            dropped: nil)
        return .init(label: "\(host).json", sidecar: sidecar)
    }

    func testAnglesAreOffsetByTheirRecordSlotsFromTheEarliest() throws {
        let table: [(slots: [Int64], offsets: [Int64])] = [
            ([1000, 1000, 1000], [0, 0, 0]),
            ([1000, 1030, 1010], [0, 30, 10]),
            ([52_000_000_123, 52_000_000_000], [123, 0]),
            ([-5, 5], [0, 10]),
        ]
        for (slots, offsets) in table {
            let clips = slots.enumerated().map { member("cam-\($0.offset)", slot: $0.element) }
            let result = try MulticamTimeline.group(clips)
            XCTAssertEqual(result.timeline.angles.map(\.offsetFrames), offsets, "\(slots)")
            XCTAssertEqual(result.timeline.angles.map(\.name), clips.map { $0.sidecar.group!.host })
            XCTAssertEqual(result.timeline.angles.map(\.movie), clips.map(\.sidecar.movie))
            XCTAssertEqual(result.timeline.cuts, [.init(startFrame: 0, angle: 0)], "the first clip throughout")
            XCTAssertEqual(result.timeline.audioAngle, 0)
            XCTAssertEqual(result.timeline.durationFrames, 18500 + offsets.max()!)
            XCTAssertEqual(result.warnings, [])
        }
    }

    func testARecordAppliedOnArrivalIsPlacedAtTheFirstSlotAfterItWithAWarning() throws {
        for outcome in ["late", "local_only"] {
            let result = try MulticamTimeline.group([member("cam-a", slot: 1000),
                                                     member("cam-b", slot: 1000, outcome: outcome, arrivedSlot: 1012)])
            XCTAssertEqual(result.timeline.angles.map(\.offsetFrames), [0, 12], outcome)
            XCTAssertEqual(result.warnings.count, 1)
            XCTAssertTrue(result.warnings[0].contains("cam-b.json") && result.warnings[0].contains("(\(outcome))"),
                          result.warnings[0])
        }
    }

    func testChaptersAndMarkersSharedByTheMembersAreKeptOnceAndShiftedByTheOffset() throws {
        let together = try MulticamTimeline.group([member("cam-a", slot: 7), member("cam-b", slot: 7)]).timeline
        let single = try ExportSample.timeline()
        XCTAssertEqual(together.chapters, single.chapters)
        XCTAssertEqual(together.markers, single.markers)

        let apart = try MulticamTimeline.group([member("cam-a", slot: 100), member("cam-b", slot: 10)]).timeline
        XCTAssertEqual(apart.angles.map(\.offsetFrames), [90, 0])
        XCTAssertEqual(apart.chapters.map(\.startFrame), [0, 90, 1800, 1890, 17982, 18072])
        XCTAssertEqual(apart.chapters.map(\.title),
                       ["Intro", "Intro 2", "Interview", "Interview 3", "Interview 2", "Interview 2 2"])
        XCTAssertEqual(apart.markers.map(\.frame), [450, 540, 1800, 1890, 17990, 18080])
    }

    func testWhatCannotBePlacedExactlyIsRefusedNamingTheSidecars() {
        var noGroup = member("cam-b", slot: 0)
        noGroup.sidecar.group = nil
        let table: [(clips: [MulticamTimeline.MemberClip], message: String)] = [
            ([], "needs the sidecars"),
            ([member("cam-a", slot: 0), noGroup], "cam-b.json has no group block"),
            ([member("cam-a", slot: 0), member("cam-b", slot: 0, group: "other")],
             "cam-b.json has group other but cam-a.json has studio"),
            ([member("cam-a", slot: 0), member("cam-b", slot: 0, fps: 25)],
             "cam-b.json has frame rate 25 fps but cam-a.json has 29.97 fps"),
            ([member("cam-a", slot: 0), member("cam-b", slot: 0, epoch: 5)], "grid epoch"),
            ([member("cam-a", slot: 0, outcome: "refused_unsynchronised")], "no applied record command"),
            ([member("cam-a", slot: 0, first: "toggle")], "started by toggle"),
            ([member("cam-a", slot: 3), member("cam-a", slot: 3)], "are the same clip (cam-a, grid slot 3)"),
        ]
        for (clips, message) in table {
            XCTAssertThrowsError(try MulticamTimeline.group(clips), message) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
    }

    func testTheProgramCutFollowsTheLensSegments() throws {
        let segments: [[(lens: String, start: Double)]] = [[("wide", 0), ("tele", 2)], [("tele", 3), ("wide", 5)]]
        var sidecar = ExportSample.sidecar(fps: 30)
        sidecar.scenes = segments.enumerated().map { index, lenses in
            Sidecar.Scene(index: index + 1, title: "S", start: lenses[0].start, duration: 1,
                          lenses: lenses.map { .init(lens: $0.lens, start: $0.start, duration: 1) }, markers: [])
        }
        let table: [(angles: [String], cuts: [MulticamTimeline.Cut])] = [
            (["wide", "tele"], [.init(startFrame: 0, angle: 0), .init(startFrame: 60, angle: 1),
                                .init(startFrame: 150, angle: 0)]),
            (["tele", "wide"], [.init(startFrame: 0, angle: 1), .init(startFrame: 60, angle: 0),
                                .init(startFrame: 150, angle: 1)]),
            (["tele"], [.init(startFrame: 0, angle: 0)]),
            (["close"], [.init(startFrame: 0, angle: 0)]),
        ]
        for (angles, cuts) in table {
            XCTAssertEqual(try MulticamTimeline.programCuts(of: sidecar, angles: angles), cuts, "\(angles)")
        }
    }

    func testAHandMadeTimelineIsChecked() {
        let angle = MulticamTimeline.Angle(name: "a", movie: "a.mov", width: 64, height: 36, durationFrames: 10,
                                           offsetFrames: 0, hasAudio: false)
        var late = angle
        late.offsetFrames = -1
        let table: [(angles: [MulticamTimeline.Angle], cuts: [MulticamTimeline.Cut], message: String)] = [
            ([], [.init(startFrame: 0, angle: 0)], "at least one angle"),
            ([angle, angle], [.init(startFrame: 0, angle: 0)], "two angles are named \"a\""),
            ([late], [.init(startFrame: 0, angle: 0)], "starts at frame -1"),
            ([angle], [], "starts at frame (none)"),
            ([angle], [.init(startFrame: 2, angle: 0)], "starts at frame 2"),
            ([angle], [.init(startFrame: 0, angle: 1)], "shows angle 1, but there are 1 angles"),
            ([angle], [.init(startFrame: 0, angle: 0), .init(startFrame: 0, angle: 0)], "is not after"),
        ]
        for (angles, cuts, message) in table {
            XCTAssertThrowsError(try MulticamTimeline(name: "x", rate: FrameRate(30), angles: angles, cuts: cuts,
                                                      chapters: [], markers: []), message) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
    }

    func testTheDocumentHasAnAnglePerMovieAndAClipPerCut() throws {
        let b = MulticamTimeline.Angle(name: "b & c", movie: "b.mov", width: 1920, height: 1080, durationFrames: 60,
                                       offsetFrames: 15, hasAudio: true, audioChannels: 2)
        let a = MulticamTimeline.Angle(name: "a", movie: "a.mov", width: 1280, height: 720, durationFrames: 90,
                                       offsetFrames: 0, hasAudio: false)
        let timeline = try MulticamTimeline(
            name: "show", rate: FrameRate(30), angles: [a, b],
            cuts: [.init(startFrame: 0, angle: 0), .init(startFrame: 30, angle: 1)],
            chapters: [.init(title: "One", startFrame: 0, endFrame: 30),
                       .init(title: "Two", startFrame: 30, endFrame: 90)],
            markers: [.init(text: "m", frame: 45, chapter: "Two")])
        let text = FCPXMLMulticamDocument.render(timeline, mediaURLs: ["file:///v/a.mov", "file:///v/b.mov"])
        let expected = [
            #"<format id="r1" name="FFVideoFormat720p30" frameDuration="1/30s" width="1280" height="720"/>"#,
            #"<format id="r2" name="FFVideoFormat1080p30" frameDuration="1/30s" width="1920" height="1080"/>"#,
            #"<asset id="r4" name="b &amp; c" start="0s" duration="2s" hasVideo="1" format="r2" hasAudio="1""#,
            #"<media-rep kind="original-media" src="file:///v/a.mov"/>"#,
            #"<multicam format="r1" duration="3s" tcStart="0s" tcFormat="NDF">"#,
            #"<mc-angle name="a" angleID="angle-1">"#,
            #"<asset-clip ref="r3" offset="0s" name="a" start="0s" duration="3s" format="r1" tcFormat="NDF"/>"#,
            #"<gap name="Gap" offset="0s" start="0s" duration="1/2s"/>"#,
            #"<asset-clip ref="r4" offset="1/2s" name="b &amp; c" start="0s" duration="2s" format="r2""#,
            #"<mc-clip ref="r5" offset="0s" name="show" start="0s" duration="1s">"#,
            #"<mc-source angleID="angle-1" srcEnable="video"/>"#,
            #"<mc-clip ref="r5" offset="1s" name="show" start="1s" duration="2s">"#,
            #"<mc-source angleID="angle-2" srcEnable="all"/>"#,
        ]
        for line in expected { XCTAssertTrue(text.contains(line), "\(line) in\n\(text)") }
        XCTAssertEqual(text.components(separatedBy: "<gap ").count, 2, "only the offset angle has a gap")
        // Each marker sits in the clip of its cut.
        let clips = text.components(separatedBy: "<mc-clip ").dropFirst()
        XCTAssertEqual(clips.count, 2)
        XCTAssertTrue(clips.first!.contains(#"value="One""#) && !clips.first!.contains(#"value="Two""#))
        XCTAssertTrue(clips.last!.contains(#"<chapter-marker start="1s""#) && clips.last!.contains(#"value="m""#))
        XCTAssertTrue(clips.first!.contains(#"<mc-source angleID="angle-2" srcEnable="audio"/>"#), text)
    }

    /// ISOs of some lenses only: the program movie is one more angle, cut to where the program showed a lens with
    /// no ISO, so the cut is the live one throughout; an ISO path that would leave the sidecar's folder is replaced
    /// by the one PauseCam gives it.
    func testIsosOfSomeLensesCutToTheProgramWhereTheyAreMissing() throws {
        var sidecar = ExportSample.sidecar(fps: 30)
        sidecar.scenes = [Sidecar.Scene(index: 1, title: "S", start: 0, duration: 6, lenses: [
            .init(lens: "wide", start: 0, duration: 2), .init(lens: "main", start: 2, duration: 2),
            .init(lens: "tele", start: 4, duration: 2),
        ], markers: [])]
        sidecar.duration = 6
        sidecar.iso = [.init(lens: "wide", file: "clip.iso/wide.mov", width: 640, height: 360, fps: 60, frames: 360),
                       .init(lens: "tele", file: "../../etc/tele.mov", width: 640, height: 360, fps: 30,
                             frames: 180),
                       .init(lens: "program", file: "clip.iso/program.mov", width: 64, height: 36, fps: 30,
                             frames: 180)]
        let timeline = try XCTUnwrap(try MulticamTimeline.iso(of: sidecar, clip: ExportTimeline(sidecar: sidecar)))
        XCTAssertEqual(timeline.angles.map(\.name), ["wide", "tele", "program", "program 2"])
        XCTAssertEqual(timeline.angles.map(\.movie),
                       ["clip.iso/wide.mov", "clip.iso/tele.mov", "clip.iso/program.mov", "clip.mov"])
        XCTAssertEqual(timeline.angles.map(\.rate), [FrameRate(60), nil, nil, nil])
        XCTAssertEqual(timeline.angles.map(\.durationFrames), [180, 180, 180, 180])
        XCTAssertEqual(timeline.cuts, [.init(startFrame: 0, angle: 0), .init(startFrame: 60, angle: 3),
                                       .init(startFrame: 120, angle: 1)])
        sidecar.iso = nil
        XCTAssertNil(try MulticamTimeline.iso(of: sidecar, clip: ExportTimeline(sidecar: sidecar)))
    }

    /// With `follow:`, the program's automatic cuts are lens switches like any other (the sidecar marks them
    /// `"auto": true`): the ISO multicam's edits start at each of them, at the frame of its lens segment, and the
    /// document cuts its angles there.
    func testFollowsAutomaticCutsAreTheMulticamsEdits() throws {
        var sidecar = ExportSample.sidecar(fps: 30)
        // follow cut to tele at 5 s, to wide at 10 s and to main at 12.3 s; a person chose tele at 16 s.
        let program: [(lens: String, start: Double, end: Double, auto: Bool)] = [
            ("main", 0, 5, false), ("tele", 5, 10, true), ("wide", 10, 12.3, true), ("main", 12.3, 16, true),
            ("tele", 16, 18, false),
        ]
        sidecar.scenes = [Sidecar.Scene(index: 1, title: "Talk", start: 0, duration: 18, lenses: program.map {
            .init(lens: $0.lens, start: $0.start, duration: $0.end - $0.start)
        }, markers: [])]
        sidecar.duration = 18
        sidecar.switches = program.dropFirst().map { .init(lens: $0.lens, requested: $0.start, effective: $0.start) }
        sidecar.iso = ["wide", "main", "tele"].map {
            .init(lens: $0, file: "clip.iso/\($0).mov", width: 640, height: 360, fps: 30, frames: 540)
        }
        // The sidecar as a file says which switches follow made.
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: sidecar.encoded()) as? [String: Any])
        json["switches"] = zip(try XCTUnwrap(json["switches"] as? [[String: Any]]), program.dropFirst()).map {
            var entry = $0
            entry["auto"] = $1.auto
            return entry
        }
        let decoded = try Sidecar.decode(JSONSerialization.data(withJSONObject: json))

        let timeline = try XCTUnwrap(try MulticamTimeline.iso(of: decoded, clip: ExportTimeline(sidecar: decoded)))
        XCTAssertEqual(timeline.angles.map(\.name), ["wide", "main", "tele"])
        XCTAssertEqual(timeline.cuts, [.init(startFrame: 0, angle: 1), .init(startFrame: 150, angle: 2),
                                       .init(startFrame: 300, angle: 0), .init(startFrame: 369, angle: 1),
                                       .init(startFrame: 480, angle: 2)])
        let text = FCPXMLMulticamDocument.render(timeline)
        // Each `mc-clip` with the angle whose video it shows.
        var edits: [(offset: String, duration: String, video: String)] = []
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let attribute = { (name: String) -> String in
                guard let start = line.range(of: " \(name)=\"") else { return "" }
                return String(line[start.upperBound...].prefix { $0 != "\"" })
            }
            if line.hasPrefix("<mc-clip ") {
                edits.append((attribute("offset"), attribute("duration"), ""))
            } else if line.hasPrefix("<mc-source "), ["video", "all"].contains(attribute("srcEnable")) {
                edits[edits.count - 1].video = attribute("angleID")
            }
        }
        XCTAssertEqual(edits.map(\.offset), ["0s", "5s", "10s", "123/10s", "16s"])
        XCTAssertEqual(edits.map(\.duration), ["5s", "5s", "23/10s", "37/10s", "2s"])
        XCTAssertEqual(edits.map(\.video), ["angle-2", "angle-3", "angle-1", "angle-2", "angle-3"])
    }
}
