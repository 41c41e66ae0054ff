import XCTest
@testable import PauseCamCore

/// Where a scene with a preroll begins, and what `check` says it costs.
final class PrerollPolicyTests: XCTestCase {
    func testRecordEdgeTable() {
        let s = MediaTime.seconds
        let rows: [(press: MediaTime, length: MediaTime, oldest: MediaTime?, edge: MediaTime, why: String)] = [
            (s(10), s(3), s(5), s(7), "the whole preroll"),
            (s(10), s(3), s(8), s(8), "a rig started lately has only what it kept"),
            (s(10), s(3), nil, s(10), "nothing kept: the press"),
            (s(10), s(3), s(11), s(10), "kept only after the press: the press"),
            (s(2), s(3), .zero, .zero, "a press sooner than the preroll after the clock's start"),
        ]
        for row in rows {
            XCTAssertEqual(PrerollPolicy.recordEdge(press: row.press, length: row.length, oldestKept: row.oldest),
                           row.edge, row.why)
        }
    }

    func testResumeEdgeNeverReachesBeforeThePause() {
        let s = MediaTime.seconds
        let rows: [(press: MediaTime, length: MediaTime, paused: MediaTime, edge: MediaTime, why: String)] = [
            (s(21), s(3), s(16), s(18), "a long pause: the whole preroll"),
            (s(14), s(3), s(12), s(12), "2 s after the pause with 3 s of preroll: back to the pause only"),
            (s(15), s(3), s(12), s(12), "exactly the preroll after the pause"),
            (s(12), s(3), s(12), s(12), "a resume at the pause's instant"),
        ]
        for row in rows {
            XCTAssertEqual(PrerollPolicy.resumeEdge(press: row.press, length: row.length, pausedAt: row.paused),
                           row.edge, row.why)
        }
    }

    func testCheckStatesTheBudgetAndTheWorstNeed() {
        var rig = Rig(name: "T", lenses: [])
        XCTAssertNil(PrerollPolicy.summaryLine(for: rig))
        rig.preroll = Rig.Preroll(length: .seconds(3), memoryBytes: 64 << 20)
        rig.lenses = [Rig.Lens(name: "main", zoom: 1, source: .camera(.name("cam")), format: .yuyv, width: 1280,
                               height: 720, rate: FrameRate(30))]
        // 1280 × 720 × 2 bytes × 30 fps × 3.5 s = 193.5 MB of pictures, plus the sound.
        let need = PrerollPolicy.estimatedBytes(for: rig) ?? 0
        XCTAssertGreaterThanOrEqual(need, 1280 * 720 * 2 * 30 * 7 / 2)
        XCTAssertLessThan(need, 1280 * 720 * 2 * 30 * 7 / 2 + 2 << 20)
        let line = PrerollPolicy.summaryLine(for: rig) ?? ""
        XCTAssertTrue(line.contains("memory at most 64 MiB (needs about 186 MiB at worst); over the budget"), line)
    }
}
