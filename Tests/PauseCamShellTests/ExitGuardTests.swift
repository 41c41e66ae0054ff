import XCTest
@testable import PauseCamShell

/// The safe-exit rules of the shell: Ctrl-C asks once while recording, SIGTERM and SIGHUP stop and save at once.
final class ExitGuardTests: XCTestCase {
    func testCtrlCWhileRecordingAsksOnceThenStopsAndSaves() {
        var guardian = ExitGuard(interactive: true)
        guard case .say(let question) = guardian.handle(.signal(.interrupt, recording: true, busy: false)) else {
            return XCTFail("the first Ctrl-C must only ask")
        }
        XCTAssertTrue(question.contains("Ctrl-C again"), question)
        XCTAssertEqual(guardian.handle(.signal(.interrupt, recording: true, busy: false)),
                       .stopAndQuit(message: "Ctrl-C again: stopping and saving the clip", status: 130))
    }

    func testTypingACommandForgetsTheQuestion() {
        var guardian = ExitGuard(interactive: true)
        _ = guardian.handle(.signal(.interrupt, recording: true, busy: false))
        _ = guardian.handle(.commandTyped)
        guard case .say = guardian.handle(.signal(.interrupt, recording: true, busy: false)) else {
            return XCTFail("after a command, Ctrl-C asks again")
        }
    }

    func testCtrlCDuringAWaitOnlyEndsTheWait() {
        var guardian = ExitGuard(interactive: true)
        XCTAssertEqual(guardian.handle(.signal(.interrupt, recording: true, busy: true)),
                       .say("interrupted; the recording goes on"))
        XCTAssertFalse(guardian.asked)
    }

    func testTerminateAndHangUpStopAndSaveAtOnce() {
        var guardian = ExitGuard(interactive: true)
        XCTAssertEqual(guardian.handle(.signal(.terminate, recording: true, busy: false)),
                       .stopAndQuit(message: "SIGTERM: stopping and saving the clip", status: 143))
        XCTAssertEqual(guardian.handle(.signal(.hangUp, recording: true, busy: true)),
                       .stopAndQuit(message: "SIGHUP: the terminal closed; stopping and saving the clip", status: 129))
    }

    func testCtrlCWhenIdle() {
        var terminal = ExitGuard(interactive: true)
        guard case .say = terminal.handle(.signal(.interrupt, recording: false, busy: false)) else {
            return XCTFail("on a terminal, Ctrl-C while idle does not quit")
        }
        var piped = ExitGuard(interactive: false)
        XCTAssertEqual(piped.handle(.signal(.interrupt, recording: false, busy: false)),
                       .stopAndQuit(message: "interrupted; quitting", status: 130))
    }
}
