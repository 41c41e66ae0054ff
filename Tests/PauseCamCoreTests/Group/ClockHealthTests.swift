import XCTest
@testable import PauseCamCore

/// The clock verdict from the kernel's values: a table across rates, with the quarter-frame line exact.
final class ClockHealthTests: XCTestCase {
    private func status(_ unsync: Bool, est: Int64, max: Int64 = 100_000) -> ClockSynchronisation {
        ClockSynchronisation(unsynchronised: unsync, maximumErrorMicroseconds: max, estimatedErrorMicroseconds: est)
    }

    private func kind(_ health: ClockHealth) -> String {
        switch health {
        case .ok: return "ok"
        case .warn: return "warn"
        case .unsynchronised: return "unsync"
        }
    }

    func testVerdictTable() {
        struct Row { var status: ClockSynchronisation; var rate: FrameRate; var verdict: String }
        let rows = [
            Row(status: status(false, est: 0), rate: FrameRate(30), verdict: "ok"),
            // A quarter frame at 30 fps is 8333.3 µs: 8333 is within, 8334 past it.
            Row(status: status(false, est: 8333), rate: FrameRate(30), verdict: "ok"),
            Row(status: status(false, est: 8334), rate: FrameRate(30), verdict: "warn"),
            // At 25 fps exactly 10 000 µs: equal is still within.
            Row(status: status(false, est: 10_000), rate: FrameRate(25), verdict: "ok"),
            Row(status: status(false, est: 10_001), rate: FrameRate(25), verdict: "warn"),
            // 29.97: 1001/120000 s = 8341.6 µs.
            Row(status: status(false, est: 8341), rate: FrameRate(30000, 1001), verdict: "ok"),
            Row(status: status(false, est: 8342), rate: FrameRate(30000, 1001), verdict: "warn"),
            Row(status: status(false, est: 4167), rate: FrameRate(60), verdict: "warn"),
            // Unsynchronised wins, whatever the estimate says (the kernel's esterror is stale then).
            Row(status: status(true, est: 0), rate: FrameRate(30), verdict: "unsync"),
            Row(status: status(true, est: 50_000, max: 16_000_000), rate: FrameRate(30), verdict: "unsync"),
        ]
        for row in rows {
            XCTAssertEqual(kind(ClockHealth.judge(row.status, rate: row.rate)), row.verdict,
                           "\(row.status) at \(row.rate)")
        }
    }

    func testRecordIsRefusedOnlyOnAnUnsynchronisedClockWithRequireSync() {
        let unsync = ClockHealth.judge(status(true, est: 0), rate: FrameRate(30))
        XCTAssertFalse(unsync.allowsRecord(requireSync: true))
        XCTAssertTrue(unsync.allowsRecord(requireSync: false))
        let warn = ClockHealth.judge(status(false, est: 20_000), rate: FrameRate(30))
        XCTAssertTrue(warn.allowsRecord(requireSync: true))
        guard case .warn(let message) = warn else { return XCTFail("\(warn)") }
        XCTAssertTrue(message.contains("20000 µs") && message.contains("8333 µs"), message)
        guard case .unsynchronised(let why) = unsync else { return XCTFail("\(unsync)") }
        XCTAssertTrue(why.contains("refuses to start recording") && why.contains("require_sync: false"), why)
    }

    /// The advice to allow an unsynchronised clock is for a rig that does not already: one that does is told it
    /// records all the same, and what that costs.
    func testTheAdviceNeverSuggestsWhatTheRigAlreadySays() {
        guard case .unsynchronised(let lenient) = ClockHealth.judge(status(true, est: 0), rate: FrameRate(30),
                                                                     requireSync: false) else { return XCTFail() }
        XCTAssertFalse(lenient.contains("write group: {require_sync: false}"), lenient)
        XCTAssertFalse(lenient.contains("refuses"), lenient)
        XCTAssertTrue(lenient.contains("records all the same (require_sync: false)"), lenient)
    }
}
