import XCTest
@testable import PauseCamCore

/// The sidecar's accounting of slots, as tables of offered frames and decided slots.
final class SlotLedgerTests: XCTestCase {
    let frame = FrameRate(30).frameDuration

    func picture(_ lens: String, _ pts: MediaTime) -> VideoFrame {
        VideoFrame(pts: pts, width: 16, height: 16, format: .yuv420p, planes: [], lens: lens)
    }

    func slot(_ lens: String, at time: MediaTime, captured: MediaTime, repeated: Bool = false,
              lensChanged: Bool = false) -> OutputClock.Slot {
        OutputClock.Slot(frame: picture(lens, time), capturedAt: captured, repeated: repeated, lensChanged: lensChanged)
    }

    func slotTime(_ index: Int64) -> MediaTime { MediaTime(value: index, timescale: 30) }

    func testFramesNoKeptSlotShowedAreSkippedAndRepeatsCounted() {
        var ledger = SlotLedger()
        var log = SceneLog(frameDuration: frame)
        // A 60 fps lens: two frames per slot, the second superseded by the next slot's.
        for index in 0..<4 { ledger.offered(picture("tele", MediaTime(value: Int64(index), timescale: 60))) }
        ledger.decided(slot("tele", at: slotTime(0), captured: .zero), fileTime: .zero, startsSegment: true,
                       scene: 1, log: &log)
        ledger.decided(slot("tele", at: slotTime(1), captured: MediaTime(value: 2, timescale: 60)),
                       fileTime: slotTime(1), startsSegment: false, scene: 1, log: &log)
        ledger.decided(slot("tele", at: slotTime(2), captured: MediaTime(value: 2, timescale: 60), repeated: true),
                       fileTime: slotTime(2), startsSegment: false, scene: 1, log: &log)
        XCTAssertEqual(log.lensSegments.map(\.skippedFrames), [1])
        XCTAssertEqual(log.lensSegments.map(\.repeatedFrames), [1])
    }

    func testSlotsDroppedByAPauseCountNothing() {
        var ledger = SlotLedger()
        var log = SceneLog(frameDuration: frame)
        ledger.offered(picture("main", .zero))
        ledger.offered(picture("main", MediaTime(value: 1, timescale: 60)))
        ledger.decided(slot("main", at: slotTime(1), captured: MediaTime(value: 1, timescale: 60)), fileTime: nil,
                       startsSegment: false, scene: 0, log: &log)
        XCTAssertEqual(log.lensSegments, [])
    }

    func testTheLastPicturesOwnSlotDoesNotEndTheHoldItsRepeatsAre() {
        var ledger = SlotLedger()
        var log = SceneLog(frameDuration: frame)
        ledger.lost(lens: "main", since: slotTime(29), fileTime: slotTime(29))
        // The last frame's own slot, decided after the loss was noted, then its repeats, then a new picture.
        ledger.decided(slot("main", at: slotTime(29), captured: slotTime(29)), fileTime: slotTime(29),
                       startsSegment: false, scene: 1, log: &log)
        for index in Int64(30)..<33 {
            ledger.decided(slot("main", at: slotTime(index), captured: slotTime(29), repeated: true),
                           fileTime: slotTime(index), startsSegment: false, scene: 1, log: &log)
        }
        ledger.decided(slot("main", at: slotTime(33), captured: slotTime(33)), fileTime: slotTime(33),
                       startsSegment: false, scene: 1, log: &log)
        ledger.decided(slot("main", at: slotTime(34), captured: slotTime(33), repeated: true), fileTime: slotTime(34),
                       startsSegment: false, scene: 1, log: &log)
        XCTAssertEqual(log.noSignal.map(\.kind), [.hold])
        XCTAssertEqual(log.noSignal.first?.start, slotTime(30))
        XCTAssertEqual(log.noSignal.first?.end, slotTime(33))
        XCTAssertNil(ledger.lostAt)
    }

    func testASwitchIsLoggedAtItsFirstKeptSlotWithTheTimeItWasAskedFor() {
        var ledger = SlotLedger()
        var log = SceneLog(frameDuration: frame)
        ledger.decided(slot("main", at: slotTime(0), captured: slotTime(0)), fileTime: .zero, startsSegment: true,
                       scene: 1, log: &log)
        ledger.switchAsked(to: "tele", requested: slotTime(30))
        ledger.decided(slot("main", at: slotTime(40), captured: slotTime(40)), fileTime: slotTime(40),
                       startsSegment: false, scene: 1, log: &log)
        ledger.decided(slot("tele", at: slotTime(42), captured: slotTime(42), lensChanged: true),
                       fileTime: slotTime(42), startsSegment: false, scene: 1, log: &log)
        XCTAssertEqual(log.switches, [SceneLog.Switch(lens: "tele", requested: slotTime(30), effective: slotTime(42))])
        // Asked while paused: placed at the pause point, where the resumed segment starts.
        ledger.switchAsked(to: "wide", requested: slotTime(60))
        ledger.decided(slot("wide", at: slotTime(90), captured: slotTime(90), lensChanged: true),
                       fileTime: slotTime(43), startsSegment: true, scene: 2, log: &log)
        XCTAssertEqual(log.switches.last, SceneLog.Switch(lens: "wide", requested: slotTime(43), effective: slotTime(43)))
    }
}

/// A switch `follow` made is logged with the voices that spoke; a mark for a lens no switch waits for marks nothing.
extension SlotLedgerTests {
    func testAFollowedSwitchIsLoggedWithItsVoices() {
        var ledger = SlotLedger()
        var log = SceneLog(frameDuration: frame)
        XCTAssertFalse(ledger.markPendingSwitchFollowed(lens: "wide", voices: ["host"]), "no switch waits")
        ledger.switchAsked(to: "wide", requested: slotTime(1))
        XCTAssertFalse(ledger.markPendingSwitchFollowed(lens: "tele", voices: ["host"]), "another lens's")
        XCTAssertTrue(ledger.markPendingSwitchFollowed(lens: "wide", voices: ["host", "guest"]))
        ledger.decided(slot("wide", at: slotTime(1), captured: slotTime(1), lensChanged: true), fileTime: slotTime(1),
                       startsSegment: false, scene: 1, log: &log)
        ledger.switchAsked(to: "main", requested: slotTime(2))
        ledger.decided(slot("main", at: slotTime(2), captured: slotTime(2), lensChanged: true), fileTime: slotTime(2),
                       startsSegment: false, scene: 1, log: &log)
        XCTAssertEqual(log.switches.map(\.followedVoices), [["host", "guest"], nil])
    }
}
