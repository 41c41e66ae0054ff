import PauseCamCore
import XCTest

/// `retake` as one more offset: the discarded take's span of the `.partial` leaves the movie, and the new take's
/// first frame lands at the discarded scene's start in movie time. Driven through a `Retimer` as the recorder does,
/// with 30 fps frames captured on the grid.
final class SessionRetakeTests: XCTestCase {
    private let frame = MediaTime(value: 1, timescale: 30)
    private func s(_ frames: Int64) -> MediaTime { MediaTime(value: frames, timescale: 30) }

    /// A session and its retimer fed frames 0, 1/30 s, … up to `end`, with the commands given at their times.
    private func run(_ commands: [(Int64, Session.Command)], through end: Int64) -> Session {
        var session = Session(frameDuration: frame)
        var retimer = Retimer(frameDuration: frame)
        var pending = commands[...]
        for index in 0...end {
            let pts = s(index)
            while let (time, command) = pending.first, s(time) <= pts {
                pending = pending.dropFirst()
                guard case .success(let actions) = session.handle(command, at: s(time)) else {
                    XCTFail("\(command) at \(time) refused"); continue
                }
                for action in actions {
                    switch action {
                    case .startRetimer(let t): retimer.start(at: t)
                    case .pauseRetimer(let t): retimer.pause(at: t)
                    case .stopRetimer(let t): retimer.stop(at: t)
                    default: break
                    }
                }
            }
            if case .append(let fileTime, let startsSegment) = retimer.retimeVideo(pts: pts) {
                session.videoAppended(capturePTS: pts, fileTime: fileTime, startsSegment: startsSegment)
            }
        }
        return session
    }

    private struct Row {
        var name: String
        var commands: [(Int64, Session.Command)]
        var timer: Int64
        var scenes: [(index: Int, start: Int64, end: Int64)]
        var discarded: [Int64]
        var spans: [Range<Int64>]
    }

    func testRetakeTable() {
        let rows = [
            Row(name: "retake mid-scene",
                commands: [(0, .record(name: "A")), (60, .chapter(name: "B")), (90, .retake), (135, .stop)],
                timer: 105, scenes: [(1, 0, 60), (2, 60, 105)], discarded: [30], spans: [60..<90]),
            Row(name: "retake right after a resume",
                commands: [(0, .record(name: nil)), (30, .pause), (60, .resume(name: "B")), (60, .retake),
                           (90, .stop)],
                timer: 60, scenes: [(1, 0, 30), (2, 30, 60)], discarded: [0], spans: []),
            Row(name: "retake one frame after a resume",
                commands: [(0, .record(name: nil)), (30, .pause), (60, .resume(name: "B")), (61, .retake),
                           (91, .stop)],
                timer: 60, scenes: [(1, 0, 30), (2, 30, 60)], discarded: [1], spans: [30..<31]),
            Row(name: "retake twice",
                commands: [(0, .record(name: "A")), (30, .chapter(name: "B")), (60, .retake), (90, .retake),
                           (120, .stop)],
                timer: 60, scenes: [(1, 0, 30), (2, 30, 60)], discarded: [30, 30], spans: [30..<60, 60..<90]),
            Row(name: "retake of scene 1",
                commands: [(0, .record(name: "A")), (30, .retake), (75, .stop)],
                timer: 45, scenes: [(1, 0, 45)], discarded: [30], spans: [0..<30]),
            Row(name: "retake, then a pause and a resume",
                commands: [(0, .record(name: "A")), (30, .retake), (60, .pause), (90, .resume(name: nil)),
                           (120, .stop)],
                timer: 60, scenes: [(1, 0, 30), (2, 30, 60)], discarded: [30], spans: [0..<30]),
            // The second retake throws away a scene that got no frame: the first retake's span is still the one
            // left out, and C starts where B's discarded take began.
            Row(name: "retake, chapter, retake at one instant",
                commands: [(0, .record(name: "A")), (60, .chapter(name: "B")), (90, .retake),
                           (90, .chapter(name: "C")), (90, .retake), (120, .stop)],
                timer: 90, scenes: [(1, 0, 60), (3, 60, 90)], discarded: [30, 0], spans: [60..<90]),
            Row(name: "retake right after a chapter",
                commands: [(0, .record(name: "A")), (60, .chapter(name: "B")), (60, .retake), (90, .stop)],
                timer: 90, scenes: [(1, 0, 60), (2, 60, 90)], discarded: [0], spans: []),
            Row(name: "retake, chapter, a frame later retake",
                commands: [(0, .record(name: "A")), (60, .chapter(name: "B")), (90, .retake),
                           (90, .chapter(name: "C")), (91, .retake), (121, .stop)],
                timer: 90, scenes: [(1, 0, 60), (3, 60, 90)], discarded: [30, 1], spans: [60..<90, 90..<91]),
            Row(name: "retake, a frame of the new take, chapter, retake",
                commands: [(0, .record(name: "A")), (60, .chapter(name: "B")), (90, .retake),
                           (91, .chapter(name: "C")), (91, .retake), (121, .stop)],
                timer: 91, scenes: [(1, 0, 60), (2, 60, 61), (3, 61, 91)], discarded: [30, 0], spans: [60..<90]),
        ]
        for row in rows {
            let session = run(row.commands, through: row.commands.last!.0 + 5)
            XCTAssertEqual(session.timer, s(row.timer), row.name)
            XCTAssertEqual(session.scenes.filter { $0.start != nil }.map { [$0.index] },
                           row.scenes.map { [$0.index] }, row.name)
            let kept = session.scenes.filter { $0.start != nil }
            XCTAssertEqual(kept.map(\.start), row.scenes.map { s($0.start) }, row.name)
            XCTAssertEqual(kept.map(\.end), row.scenes.map { s($0.end) }, row.name)
            XCTAssertEqual(session.retakes.map(\.discardedDuration), row.discarded.map(s), row.name)
            XCTAssertEqual(session.discardedSpans, row.spans.map { s($0.lowerBound)..<s($0.upperBound) }, row.name)
        }
    }

    func testTheTimerGoesBackToTheScenesStartAtTheCommand() {
        var session = run([(0, .record(name: "A")), (60, .chapter(name: "B"))], through: 89)
        XCTAssertEqual(session.timer, s(90))
        guard case .success(let actions) = session.handle(.retake, at: s(90)) else { return XCTFail("refused") }
        XCTAssertEqual(actions, [.pauseRetimer(at: s(90)), .startRetimer(at: s(90))])
        XCTAssertEqual(session.timer, s(60))
        XCTAssertEqual(session.scenes.count, 2, "no new scene: the new take is scene 2 again")
    }

    func testAFrameOfTheDiscardedTakeThatArrivesLateStaysDiscarded() {
        var session = run([(0, .record(name: "A")), (60, .chapter(name: "B"))], through: 88)
        _ = session.handle(.retake, at: s(90))
        session.videoAppended(capturePTS: s(89), fileTime: s(89), startsSegment: false)
        XCTAssertEqual(session.timer, s(60))
        session.videoAppended(capturePTS: s(90), fileTime: s(90), startsSegment: true)
        XCTAssertEqual(session.discardedSpans, [s(60)..<s(90)])
        XCTAssertEqual(session.scenes.last?.start, s(60))
        XCTAssertEqual(session.timer, s(61))
    }

    func testRetakeIsRefusedWhileIdleOrPaused() {
        var session = Session(frameDuration: frame)
        guard case .failure(let idle) = session.handle(.retake, at: s(0)) else { return XCTFail("accepted") }
        XCTAssertTrue(idle.message.contains("not recording"), idle.message)
        _ = session.handle(.record(name: nil), at: s(0))
        _ = session.handle(.pause, at: s(10))
        guard case .failure(let paused) = session.handle(.retake, at: s(20)) else { return XCTFail("accepted") }
        XCTAssertTrue(paused.message.contains("resume"), paused.message)
    }

    func testMovieTimeOfAFileTimeSkipsTheDiscardedSpans() {
        let session = run([(0, .record(name: "A")), (30, .retake), (60, .retake), (100, .stop)], through: 105)
        XCTAssertEqual(session.discardedSpans, [s(0)..<s(30), s(30)..<s(60)])
        XCTAssertNil(session.movieTime(ofFileTime: s(10)))
        XCTAssertNil(session.movieTime(ofFileTime: s(59)))
        XCTAssertEqual(session.movieTime(ofFileTime: s(70)), s(10))
    }

    /// The shell, scripts, `ctl` and the monitor's command endpoint share the one grammar.
    func testRetakeIsOneWordOfTheSharedGrammar() {
        XCTAssertEqual(CommandParser().parse("retake"), .success(.retake))
        XCTAssertEqual(CommandParser.line(for: .retake), "retake")
        XCTAssertTrue(Command.retake.isScriptStep)
        XCTAssertEqual(ControlRequest.parse("RETAKE", parser: CommandParser()), .success(.command(.retake)))
        guard case .failure(let failure) = CommandParser().parse("retake now") else { return XCTFail("accepted") }
        XCTAssertTrue(failure.message.contains("takes no argument"), failure.message)
    }
}
