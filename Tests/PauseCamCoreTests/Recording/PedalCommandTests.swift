import XCTest
@testable import PauseCamCore

/// `toggle` and `chapter`: the grammar, the session's rules, and the engine on the simulated clock (the movie's
/// chapters and the sidecar's scenes, with the video untouched).
final class PedalCommandTests: XCTestCase {
    let parser = CommandParser(lenses: ["main"], zoomPresets: [], exposurePresets: [], scripts: [])

    func testTheGrammarOfTheNewVerbs() {
        let table: [(String, Result<Command, CommandParser.Failure>)] = [
            ("toggle", .success(.toggle)),
            ("TOGGLE", .success(.toggle)),
            ("toggle now", .failure(.init("\"toggle\" takes no argument (got \"now\")", part: .argument))),
            ("chapter", .success(.chapter(name: nil))),
            ("chapter Questions and answers", .success(.chapter(name: "Questions and answers"))),
            ("chapter \"Q&A\"", .success(.chapter(name: "Q&A"))),
            ("chaptre", .failure(.init("unknown command \"chaptre\"; did you mean \"chapter\"?", part: .word))),
        ]
        for (line, expected) in table { XCTAssertEqual(parser.parse(line), expected, line) }
        for command in [Command.toggle, .chapter(name: nil), .chapter(name: "Two words")] {
            XCTAssertEqual(try? parser.parse(CommandParser.line(for: command)).get(), command)
            XCTAssertTrue(command.isScriptStep, "\(command) is a script step")
            XCTAssertEqual(try? parser.parseScriptStep(word: command.word, argument: nil).get().word, command.word)
        }
        XCTAssertTrue(Command.words.contains("toggle") && Command.words.contains("chapter"))
    }

    private let frame = MediaTime(value: 1, timescale: 30)
    private func t(_ ms: Int64) -> MediaTime { .seconds(100) + .milliseconds(ms) }

    func testAChapterIsAcceptedOnlyWhileRecording() {
        var idle = Session(frameDuration: frame)
        guard case .failure = idle.handle(.chapter(name: "x"), at: t(0)) else { return XCTFail("chapter while idle") }
        var recording = idle
        _ = recording.handle(.record(name: "One"), at: t(0))
        var paused = recording
        _ = paused.handle(.pause, at: t(50))
        guard case .failure(let rejection) = paused.handle(.chapter(name: "x"), at: t(60)) else {
            return XCTFail("chapter while paused")
        }
        XCTAssertTrue(rejection.message.contains("resume NAME"), rejection.message)
        XCTAssertEqual(paused.scenes.count, 1, "a rejection changes nothing")
        var stopping = recording
        _ = stopping.handle(.stop, at: t(70))
        guard case .failure = stopping.handle(.chapter(name: nil), at: t(80)) else { return XCTFail("chapter while stopping") }

        XCTAssertEqual(try recording.handle(.chapter(name: "Two"), at: t(100)).get(), [.sceneEnded(1), .sceneBegan(2)])
        XCTAssertEqual(recording.state, .recording, "a chapter does not pause")
        XCTAssertEqual(recording.scenes.map(\.title), ["One", "Two"])
        XCTAssertTrue(recording.pauses.isEmpty)
    }

    /// The chapter's scene owns the frames captured at or after its command; the one before ends where it starts.
    func testAChapterStartsOnTheNextFrameEdgeToEdge() throws {
        var session = Session(frameDuration: frame)
        _ = session.handle(.record(name: nil), at: t(0))
        session.videoAppended(capturePTS: t(10), fileTime: .zero, startsSegment: true)
        session.videoAppended(capturePTS: t(43), fileTime: frame, startsSegment: false)
        _ = try session.handle(.chapter(name: "B"), at: t(60)).get()
        // Captured before the chapter, arriving after it: still scene 1.
        session.videoAppended(capturePTS: t(55), fileTime: MediaTime(value: 2, timescale: 30), startsSegment: false)
        XCTAssertEqual(session.segmentScene, 0)
        session.videoAppended(capturePTS: t(76), fileTime: MediaTime(value: 3, timescale: 30), startsSegment: false)
        XCTAssertEqual(session.segmentScene, 1)
        session.videoAppended(capturePTS: t(110), fileTime: MediaTime(value: 4, timescale: 30), startsSegment: false)
        XCTAssertEqual(session.scenes[0].start, .zero)
        XCTAssertEqual(session.scenes[0].end, MediaTime(value: 3, timescale: 30))
        XCTAssertEqual(session.scenes[1].start, MediaTime(value: 3, timescale: 30))
        XCTAssertEqual(session.scenes[1].end, MediaTime(value: 5, timescale: 30))
        XCTAssertEqual(session.timer, MediaTime(value: 5, timescale: 30))
    }

    func testToggleRecordsPausesAndResumesAndChaptersReachTheMovie() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        var replies: [RigController.Reply] = []
        for step: Command in [.toggle, .wait(.seconds(1)), .toggle, .wait(.seconds(2)), .toggle, .wait(.seconds(1)),
                              .chapter(name: "Questions"), .wait(.seconds(1)), .mark("after"), .stop] {
            let reply = fixture.runner.perform(step)
            XCTAssertTrue(reply.ok, "\(step): \(reply.message)")
            replies.append(reply)
        }
        XCTAssertTrue(replies[0].message.hasPrefix("record: "), replies[0].message)
        XCTAssertTrue(replies[2].message.hasPrefix("pause: "), replies[2].message)
        XCTAssertTrue(replies[4].message.hasPrefix("resume: "), replies[4].message)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        // 1 s + 1 s + 1 s of 30 fps video, the 2 s pause cut out, and no seam at the chapter.
        XCTAssertEqual(sink.video.count, 90)
        let times = sink.video.map(\.time)
        for (a, b) in zip(times, times.dropFirst()) { XCTAssertEqual(b - a, frame) }
        XCTAssertEqual(clip.sidecar.scenes.map(\.title), ["Scene 1", "Scene 2", "Questions"])
        XCTAssertEqual(clip.sidecar.pauses.count, 1, "a chapter is not a pause")
        XCTAssertEqual(sink.chapters.map(\.start), [.zero, .seconds(1), .seconds(2)])
        XCTAssertEqual(clip.sidecar.scenes[2].markers.map(\.text), ["after"])
        XCTAssertEqual(fixture.runner.perform(.toggle).message.prefix(7), "record:", "toggle after a clip records anew")
    }

    func testScriptsCheckTheNewVerbsAgainstTheState() {
        var checker = ScriptStateChecker()
        XCTAssertNotNil(checker.apply(.chapter(name: nil)), "chapter before record")
        XCTAssertNil(checker.apply(.toggle))
        XCTAssertNil(checker.apply(.chapter(name: "B")))
        XCTAssertNil(checker.apply(.toggle))
        XCTAssertNotNil(checker.apply(.chapter(name: nil)), "chapter while paused")
        XCTAssertNil(checker.apply(.resume(name: nil)), "the second toggle left the script paused")
        XCTAssertNil(checker.apply(.stop))
    }
}
