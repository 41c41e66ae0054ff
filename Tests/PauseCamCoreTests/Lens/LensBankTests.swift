import XCTest
@testable import PauseCamCore

/// The lens policy as a table: events in, actions out, no devices (like `SessionTests`).
final class LensBankTests: XCTestCase {
    typealias Step = (event: LensBank.Event, actions: [LensBank.Action])

    func makeBank(standby: Rig.Standby = .hot, onAttach: Rig.AttachPolicy = .switch,
                  withCamera: Set<String> = ["wide", "main", "tele"]) -> LensBank {
        var rig = EngineFixture.makeRig()
        rig.standby = standby
        rig.onAttach = onAttach
        return LensBank(rig: rig, withCamera: withCamera)
    }

    func ms(_ value: Int64) -> MediaTime { .milliseconds(value) }

    /// Runs the steps in order and checks each one's actions; returns the bank for checks of its state.
    @discardableResult
    func run(_ bank: LensBank, _ steps: [Step], file: StaticString = #filePath, line: UInt = #line) -> LensBank {
        var bank = bank
        for (index, step) in steps.enumerated() {
            XCTAssertEqual(bank.handle(step.event), step.actions, "step \(index + 1): \(step.event)", file: file, line: line)
        }
        return bank
    }

    func testHotStandbyStartsEveryCameraAndColdOnlyTheActiveOne() {
        run(makeBank(), [(.startDevices, [.startCamera("wide"), .startCamera("main"), .startCamera("tele")])])
        run(makeBank(standby: .cold), [(.startDevices, [.startCamera("main")])])
    }

    func testAHotSwitchToADeliveringLensTakesEffectAtTheCommandsTime() {
        let bank = run(makeBank(), [
            (.startDevices, [.startCamera("wide"), .startCamera("main"), .startCamera("tele")]),
            (.frame(lens: "tele", pts: ms(900)), []),
            (.select(lens: "tele", at: ms(1000), recording: true),
             [.switchLens(to: "tele", requested: ms(1000), effective: ms(1000))]),
        ])
        XCTAssertEqual(bank.state, .live(lens: "tele"))
    }

    func testAColdSwitchWaitsForTheNewLensesFirstFrameWhileTheOldLensGoesOn() {
        let bank = run(makeBank(standby: .cold), [
            (.startDevices, [.startCamera("main")]),
            (.frame(lens: "main", pts: ms(0)), []),
            (.select(lens: "tele", at: ms(1000), recording: true), [.startCamera("tele")]),
            (.frame(lens: "main", pts: ms(1100)), []),
            // A frame stamped before the request does not make the switch.
            (.frame(lens: "tele", pts: ms(990)), []),
            (.frame(lens: "main", pts: ms(1300)), []),
            (.frame(lens: "tele", pts: ms(1400)),
             [.switchLens(to: "tele", requested: ms(1000), effective: ms(1400)), .stopCamera("main")]),
            (.frame(lens: "tele", pts: ms(1433)), []),
        ])
        XCTAssertEqual(bank.state, .live(lens: "tele"))
        XCTAssertEqual(bank.running, ["tele"])
    }

    func testWhileASwitchIsPendingStatusShowsTheNewLensAndAskingAgainKeepsTheFirstRequest() {
        let bank = run(makeBank(standby: .cold), [
            (.startDevices, [.startCamera("main")]),
            (.select(lens: "tele", at: ms(1000), recording: true), [.startCamera("tele")]),
            (.select(lens: "tele", at: ms(1200), recording: true), []),
        ])
        XCTAssertEqual(bank.activeLens, "tele")
        XCTAssertEqual(bank.state, .switching(from: "main", to: "tele", requested: ms(1000)))
        // Back to the lens still showing: the pending switch is dropped and the cold camera closed.
        run(bank, [(.select(lens: "main", at: ms(1300), recording: true), [.stopCamera("tele")])])
    }

    func testWithNoClipASwitchIsInstantAndColdCamerasCloseAtOnce() {
        run(makeBank(standby: .cold), [
            (.startDevices, [.startCamera("main")]),
            (.select(lens: "wide", at: ms(500), recording: false),
             [.startCamera("wide"), .switchLens(to: "wide", requested: ms(500), effective: ms(500)),
              .stopCamera("main")]),
        ])
    }

    func testALensWithoutACameraIsRefusedAndNothingChanges() {
        let bank = run(makeBank(withCamera: ["main"]), [
            (.startDevices, [.startCamera("main")]),
            (.select(lens: "tele", at: ms(500), recording: true),
             [.reject("lens tele has no camera right now; recording stays on main")]),
        ])
        XCTAssertEqual(bank.state, .live(lens: "main"))
        XCTAssertEqual(bank.activeLens, "main")
    }

    func testACameraThatFailsToStartRevertsThePendingSwitch() {
        let bank = run(makeBank(standby: .cold), [
            (.startDevices, [.startCamera("main")]),
            (.select(lens: "tele", at: ms(500), recording: true), [.startCamera("tele")]),
            (.startFailed(lens: "tele", at: ms(500)),
             [.reject("lens tele has no camera right now; recording stays on main")]),
        ])
        XCTAssertEqual(bank.state, .live(lens: "main"))
        XCTAssertEqual(bank.activeLens, "main")
    }

    func testUnpluggingTheActiveLensFallsBackToTheNearestZoomAtOnceWhenItDelivers() {
        let bank = run(makeBank(), [
            (.startDevices, [.startCamera("wide"), .startCamera("main"), .startCamera("tele")]),
            (.frame(lens: "wide", pts: ms(900)), []),
            (.frame(lens: "tele", pts: ms(900)), []),
            (.frame(lens: "main", pts: ms(900)), []),
            // main (zoom 1) is nearer to wide (0.5) than to tele (3).
            (.detached(lens: "main", at: ms(1000)),
             [.switchLens(to: "wide", requested: ms(1000), effective: ms(1000)), .notify(.lensSwitched(lens: "wide"))]),
        ])
        XCTAssertEqual(bank.state, .live(lens: "wide"))
    }

    func testAColdFallbackHoldsThePictureUntilItsFirstFrame() {
        let bank = run(makeBank(standby: .cold), [
            (.startDevices, [.startCamera("main")]),
            (.frame(lens: "main", pts: ms(900)), []),
            (.detached(lens: "main", at: ms(1000)),
             [.startCamera("wide"), .hold(lens: "main", since: ms(900)), .notify(.lensSwitched(lens: "wide"))]),
            (.frame(lens: "wide", pts: ms(1300)),
             [.switchLens(to: "wide", requested: ms(900), effective: ms(1300))]),
        ])
        XCTAssertEqual(bank.state, .live(lens: "wide"))
    }

    func testWithNoLensLeftThePictureIsHeldForHoldThenTheSlateFillsTheMovie() {
        let bank = run(makeBank(withCamera: ["main"]), [
            (.startDevices, [.startCamera("main")]),
            (.recordingStarted(at: .zero), []),
            (.frame(lens: "main", pts: ms(1000)), []),
            (.detached(lens: "main", at: ms(1010)),
             [.hold(lens: "main", since: ms(1000)),
              .notify(.noCameraLeft)]),
            (.tick(now: ms(2900)), []),
            // rig.hold is 2 s: the slate is due 2 s after the last picture.
            (.tick(now: ms(3050)), [.slate(lens: "main", lostAt: ms(1000), at: ms(3000))]),
            (.tick(now: ms(3150)), []),
        ])
        XCTAssertEqual(bank.state, .lost(lens: "main", since: ms(1000), slateAt: ms(3000), slated: true, waitingFor: nil))
        // A resumed scene opens on the slate: the held picture cannot reach the new frame grid.
        run(bank, [(.recordingStarted(at: ms(5000)), [.slate(lens: "main", lostAt: ms(1000), at: ms(5000))])])
    }

    func testAClipStartedWhileTheFallbackStartsWaitsForItsFirstFrameNotTheSlate() {
        // Unplugged while idle: the cold fallback starts, but no frame reaches the bank before the clip.
        let bank = run(makeBank(standby: .cold), [
            (.startDevices, [.startCamera("main")]),
            (.frame(lens: "main", pts: ms(900)), []),
            (.detached(lens: "main", at: ms(1000)),
             [.startCamera("wide"), .hold(lens: "main", since: ms(900)), .notify(.lensSwitched(lens: "wide"))]),
            (.recordingStarted(at: ms(5000)), []),
            (.tick(now: ms(5100)), []),
            (.frame(lens: "wide", pts: ms(5033)),
             [.switchLens(to: "wide", requested: ms(5000), effective: ms(5033))]),
        ])
        XCTAssertEqual(bank.state, .live(lens: "wide"))
    }

    func testAReplugOfTheLostLensEndsTheSlateAtItsFirstFrame() {
        let bank = run(makeBank(withCamera: ["main"]), [
            (.startDevices, [.startCamera("main")]),
            (.frame(lens: "main", pts: ms(1000)), []),
            (.detached(lens: "main", at: ms(1010)),
             [.hold(lens: "main", since: ms(1000)),
              .notify(.noCameraLeft)]),
            (.attached(lens: "main", at: ms(4000)), [.startCamera("main")]),
            // The same lens back is no switch (the frame router still routes it), but the alarm's all-clear.
            (.frame(lens: "main", pts: ms(4400)), [.notify(.lensBack(lens: "main"))]),
        ])
        XCTAssertEqual(bank.state, .live(lens: "main"))
    }

    func testPlugToSwitchIsPendingUntilTheNewCamerasFirstFrame() {
        let bank = run(makeBank(withCamera: ["main"]), [
            (.startDevices, [.startCamera("main")]),
            (.frame(lens: "main", pts: ms(900)), []),
            (.attached(lens: "tele", at: ms(1000)), [.startCamera("tele"), .notify(.lensSwitched(lens: "tele"))]),
            (.frame(lens: "main", pts: ms(1100)), []),
            (.frame(lens: "tele", pts: ms(1300)),
             [.switchLens(to: "tele", requested: ms(1000), effective: ms(1300))]),
        ])
        XCTAssertEqual(bank.state, .live(lens: "tele"))
        XCTAssertEqual(bank.running, ["main", "tele"], "hot standby keeps the old camera streaming")
    }

    func testPluggingInWithOnAttachStayStartsAHotCameraOnlyAndAColdOneNotAtAll() {
        let hot = run(makeBank(onAttach: .stay, withCamera: ["main"]), [
            (.startDevices, [.startCamera("main")]),
            (.attached(lens: "tele", at: ms(1000)), [.startCamera("tele")]),
        ])
        XCTAssertEqual(hot.state, .live(lens: "main"))
        run(makeBank(standby: .cold, onAttach: .stay, withCamera: ["main"]), [
            (.startDevices, [.startCamera("main")]),
            (.attached(lens: "tele", at: ms(1000)), []),
        ])
    }

    func testAStalledCameraLosesThePictureLikeAnUnplugAndGetsItBackWithItsNextFrame() {
        let bank = run(makeBank(withCamera: ["main"]), [
            (.startDevices, [.startCamera("main")]),
            (.recordingStarted(at: .zero), []),
            (.frame(lens: "main", pts: ms(1000)), []),
            // A slow lens (5 fps: 200 ms between frames) is not a stall.
            (.tick(now: ms(1400)), []),
            (.tick(now: ms(1600)),
             [.hold(lens: "main", since: ms(1000)), .notify(.lensHolding(lens: "main"))]),
            // Its next frame is the all-clear of the holding alarm.
            (.frame(lens: "main", pts: ms(1700)), [.notify(.lensBack(lens: "main"))]),
        ])
        XCTAssertEqual(bank.state, .live(lens: "main"))
    }

    func testACameraThatHasNotDeliveredSinceItStartedIsStartingNotStalled() {
        run(makeBank(withCamera: ["main"]), [
            (.startDevices, [.startCamera("main")]),
            (.recordingStarted(at: .zero), []),
            (.tick(now: ms(900)), []),
            (.tick(now: ms(3000)), []),
            (.frame(lens: "main", pts: ms(3100)), []),
            (.tick(now: ms(3700)),
             [.hold(lens: "main", since: ms(3100)), .notify(.lensHolding(lens: "main"))]),
        ])
    }

    func testFramesSeenBeforeTheClipDoNotCountAsAStall() {
        run(makeBank(withCamera: ["main"]), [
            (.startDevices, [.startCamera("main")]),
            (.frame(lens: "main", pts: ms(0)), []),
            (.recordingStarted(at: ms(10_000)), []),
            (.tick(now: ms(10_100)), []),
        ])
    }
}
