import XCTest
@testable import PauseCamCore

/// The recording state machine: accepted commands and their actions, rejections that change nothing, scenes,
/// pauses and the timer.
final class SessionTests: XCTestCase {
    private let frame = MediaTime(value: 1, timescale: 30)
    private func t(_ ms: Int64) -> MediaTime { .seconds(100) + .milliseconds(ms) }

    /// Everything a caller can see of a session, to prove a rejection changed nothing.
    private struct Snapshot: Equatable {
        var state: Session.State
        var scenes: [Session.Scene]
        var pauses: [Session.Pause]
        var timer: MediaTime
        var currentScene: Session.Scene?
        init(_ session: Session) {
            state = session.state
            scenes = session.scenes
            pauses = session.pauses
            timer = session.timer
            currentScene = session.currentScene
        }
    }

    private func accept(_ session: inout Session, _ command: Session.Command, at time: MediaTime,
                        file: StaticString = #filePath, line: UInt = #line) -> [Session.Action] {
        switch session.handle(command, at: time) {
        case .success(let actions): return actions
        case .failure(let rejection):
            XCTFail("\(command) rejected: \(rejection)", file: file, line: line)
            return []
        }
    }

    private func assertRejected(_ session: inout Session, _ command: Session.Command, at time: MediaTime,
                                file: StaticString = #filePath, line: UInt = #line) {
        let before = Snapshot(session)
        switch session.handle(command, at: time) {
        case .success(let actions): XCTFail("\(command) in \(before.state) accepted: \(actions)", file: file, line: line)
        case .failure(let rejection):
            XCTAssertFalse(rejection.message.isEmpty, file: file, line: line)
            XCTAssertEqual(rejection.description, rejection.message, file: file, line: line)
        }
        XCTAssertEqual(Snapshot(session), before, "\(command) in \(before.state) changed the session", file: file, line: line)
    }

    /// Sessions in every state, with some history, to try misuse on.
    private func sessions() -> [Session] {
        var idle = Session(frameDuration: frame)
        var recording = idle
        _ = accept(&recording, .record(name: "intro"), at: t(0))
        recording.videoAppended(capturePTS: t(10), fileTime: .zero, startsSegment: true)
        var paused = recording
        _ = accept(&paused, .pause, at: t(50))
        var stopping = paused
        _ = accept(&stopping, .stop, at: t(80))
        var finished = stopping
        finished.markFinished()
        _ = idle.handle(.pause, at: t(0))
        return [idle, recording, paused, stopping, finished]
    }

    func testMisuseIsRejectedAndChangesNothing() {
        let all = sessions()
        XCTAssertEqual(all.map(\.state), [.idle, .recording, .paused, .stopping, .finished])
        let commands: [Session.Command] = [.record(name: nil), .record(name: "x"), .pause, .resume(name: nil), .stop,
                                           .chapter(name: "c"), .retake]
        let allowed: [Session.State: Set<String>] = [
            .idle: ["record"], .recording: ["pause", "stop", "chapter", "retake"], .paused: ["resume", "stop"], .stopping: [], .finished: [],
        ]
        for session in all {
            for command in commands {
                let name: String
                switch command {
                case .record: name = "record"
                case .pause: name = "pause"
                case .resume: name = "resume"
                case .stop: name = "stop"
                case .chapter: name = "chapter"
                case .retake: name = "retake"
                }
                if allowed[session.state]!.contains(name) { continue }
                var copy = session
                assertRejected(&copy, command, at: t(1000))
            }
        }
    }

    func testActionsOfAWholeClip() {
        var session = Session(frameDuration: frame)
        XCTAssertNil(session.currentScene)
        XCTAssertEqual(accept(&session, .record(name: "intro"), at: t(0)),
                       [.openMovie, .startRetimer(at: t(0)), .sceneBegan(1)])
        XCTAssertEqual(session.state, .recording)
        session.videoAppended(capturePTS: t(10), fileTime: .zero, startsSegment: true)
        session.videoAppended(capturePTS: t(43), fileTime: frame, startsSegment: false)
        XCTAssertEqual(session.timer, MediaTime(value: 2, timescale: 30))
        XCTAssertEqual(accept(&session, .pause, at: t(60)), [.pauseRetimer(at: t(60)), .sceneEnded(1)])
        XCTAssertEqual(session.state, .paused)
        // A frame captured before the pause arrives after it: it belongs to scene 1 and moves the cut.
        session.videoAppended(capturePTS: t(56), fileTime: MediaTime(value: 2, timescale: 30), startsSegment: false)
        XCTAssertEqual(session.pauses, [Session.Pause(afterScene: 1, at: MediaTime(value: 3, timescale: 30),
                                                      began: t(60), ended: nil)])
        XCTAssertEqual(accept(&session, .resume(name: nil), at: t(900)), [.startRetimer(at: t(900)), .sceneBegan(2)])
        XCTAssertEqual(session.pauses.last?.ended, t(900))
        session.videoAppended(capturePTS: t(910), fileTime: MediaTime(value: 3, timescale: 30), startsSegment: true)
        XCTAssertEqual(accept(&session, .pause, at: t(950)), [.pauseRetimer(at: t(950)), .sceneEnded(2)])
        XCTAssertEqual(accept(&session, .resume(name: "end"), at: t(990)), [.startRetimer(at: t(990)), .sceneBegan(3)])
        // Scene 3 gets no frame before the stop.
        XCTAssertEqual(accept(&session, .stop, at: t(995)),
                       [.stopRetimer(at: t(995)), .sceneEnded(3), .finalize(at: t(995))])
        XCTAssertEqual(session.state, .stopping)
        session.markFinished()
        XCTAssertEqual(session.state, .finished)

        XCTAssertEqual(session.scenes.map(\.index), [1, 2, 3])
        XCTAssertEqual(session.scenes.map(\.title), ["intro", "Scene 2", "end"])
        XCTAssertEqual(session.scenes.map(\.start), [.zero, MediaTime(value: 3, timescale: 30), nil])
        XCTAssertEqual(session.scenes.map(\.duration), [MediaTime(value: 3, timescale: 30), frame, .zero])
        XCTAssertEqual(session.timer, MediaTime(value: 4, timescale: 30))
        XCTAssertEqual(session.pauses.count, 2)
        XCTAssertEqual(session.pauses[1].at, MediaTime(value: 4, timescale: 30))
    }

    func testStopWhilePausedEndsThePauseWithoutEndingASceneAgain() {
        var session = Session(frameDuration: frame)
        _ = accept(&session, .record(name: nil), at: t(0))
        _ = accept(&session, .pause, at: t(10))
        XCTAssertEqual(accept(&session, .stop, at: t(20)), [.stopRetimer(at: t(20)), .finalize(at: t(20))])
        XCTAssertEqual(session.pauses.last?.ended, t(20))
        XCTAssertEqual(session.scenes.count, 1)
        XCTAssertEqual(session.timer, .zero, "no frame: the movie is empty")
    }
}
