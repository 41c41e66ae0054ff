import Foundation
import XCTest
@testable import PauseCamCore

/// The watchdog's decisions as a table: the frame count it is shown at each check, and what it answers.
final class FreezeWatchdogTests: XCTestCase {
    private func ms(_ value: Int64) -> MediaTime { .milliseconds(value) }

    func testRestartsStreamThenReopensTwiceWithDoublingWaitsThenGivesUpAndStillHearsALateFrame() {
        var watchdog = FreezeWatchdog(limit: .seconds(2))
        XCTAssertEqual(watchdog.checkInterval, ms(500))
        XCTAssertEqual(watchdog.handle(.started(at: .zero, frames: 0)), [])
        // (time in ms, frames counted so far, the actions expected)
        let table: [(Int64, Int, [FreezeWatchdog.Action])] = [
            (500, 15, []),
            (1000, 30, []),                      // the last frame: nothing after this
            (2999, 30, []),                      // 1.999 s of silence: not yet
            (3000, 30, [.restart(attempt: 1, reopen: false, silence: ms(2000))]),
            (4999, 30, []),                      // waits the limit after the first restart
            (5000, 30, [.restart(attempt: 2, reopen: true, silence: ms(4000))]),
            (8999, 30, []),                      // then twice the limit
            (9000, 30, [.restart(attempt: 3, reopen: true, silence: ms(8000))]),
            (16999, 30, []),                     // then four times
            (17000, 30, [.gaveUp(restarts: 3, silence: ms(16000))]),
            (60000, 30, []),                     // given up: said once
            (60500, 31, [.recovered(restarts: 3)]),
            (61000, 60, []),
        ]
        for (time, frames, expected) in table {
            XCTAssertEqual(watchdog.handle(.check(now: ms(time), frames: frames)), expected, "at \(time) ms")
        }
    }

    func testAFrameAfterARestartIsARecoveryAndTheNextFreezeStartsOverAtAttemptOne() {
        var watchdog = FreezeWatchdog(limit: .seconds(1))
        _ = watchdog.handle(.started(at: .zero, frames: 0))
        XCTAssertEqual(watchdog.handle(.check(now: ms(1000), frames: 0)),
                       [.restart(attempt: 1, reopen: false, silence: ms(1000))], "no frame at all since the start")
        XCTAssertEqual(watchdog.handle(.check(now: ms(1250), frames: 1)), [.recovered(restarts: 1)])
        XCTAssertEqual(watchdog.handle(.check(now: ms(2249), frames: 1)), [])
        XCTAssertEqual(watchdog.handle(.check(now: ms(2250), frames: 1)),
                       [.restart(attempt: 1, reopen: false, silence: ms(1000))])
    }

    func testAStoppedCameraIsNotWatchedAndAStartGivesItTheWholeLimitAgain() {
        var watchdog = FreezeWatchdog(limit: .seconds(2))
        _ = watchdog.handle(.started(at: .zero, frames: 0))
        XCTAssertEqual(watchdog.handle(.stopped), [])
        XCTAssertEqual(watchdog.handle(.check(now: .seconds(10), frames: 0)), [], "a stopped camera sends nothing")
        _ = watchdog.handle(.started(at: .seconds(10), frames: 0))
        XCTAssertEqual(watchdog.handle(.check(now: ms(11999), frames: 0)), [])
        XCTAssertEqual(watchdog.handle(.check(now: .seconds(12), frames: 0)).count, 1)
    }

    func testACheckAfterTheProcessStoodStillStartsTheWaitOver() {
        var watchdog = FreezeWatchdog(limit: .seconds(2))
        _ = watchdog.handle(.started(at: .zero, frames: 0))
        XCTAssertEqual(watchdog.handle(.check(now: ms(500), frames: 15)), [])
        // Stopped with Ctrl-Z for 10 s: the camera's frames of that time were never taken.
        XCTAssertEqual(watchdog.handle(.resumed(at: ms(10500), frames: 15)), [])
        XCTAssertEqual(watchdog.handle(.check(now: ms(12499), frames: 15)), [])
        XCTAssertEqual(watchdog.handle(.check(now: ms(12500), frames: 15)),
                       [.restart(attempt: 1, reopen: false, silence: ms(2000))])
    }
}
