import XCTest
@testable import PauseCamCore

/// The lens bank's part when a camera's USB bus refuses a stream for lack of bandwidth: which hot lens on the same
/// bus it gives up (never the one shown, never for a lens the rig is not switching to, once per start), and that
/// the lens stopped stays cold afterwards.
final class LensBankBandwidthTests: XCTestCase {
    private func makeBank(standby: Rig.Standby, cold: Set<String> = []) -> LensBank {
        var rig = EngineFixture.makeRig()
        rig.standby = standby
        rig.autoColdLenses = cold
        return LensBank(rig: rig, withCamera: ["wide", "main", "tele"])
    }

    func testASwitchToAColdLensStopsAHotLensOnItsBusButNotTheOneShownAndRetriesOnce() {
        var bank = makeBank(standby: .auto, cold: ["tele"])
        _ = bank.handle(.startDevices)
        _ = bank.handle(.frame(lens: "wide", pts: .zero))
        _ = bank.handle(.frame(lens: "main", pts: .zero))
        XCTAssertEqual(bank.handle(.select(lens: "tele", at: .seconds(1), recording: true)), [.startCamera("tele")])
        // main shows: wide is the one to give up.
        XCTAssertEqual(bank.bandwidthVictim(for: "tele", sharingBus: ["wide", "main"]), "wide")
        XCTAssertEqual(bank.bandwidthVictim(for: "tele", sharingBus: ["main"]), nil, "the lens shown is never stopped")
        XCTAssertEqual(bank.bandwidthVictim(for: "tele", sharingBus: []), nil, "nothing else on the bus")
        XCTAssertEqual(bank.handle(.stoppedForBandwidth(lens: "tele", stopped: "wide")),
                       [.stopCamera("wide"), .startCamera("tele")])
        XCTAssertEqual(bank.state, .switching(from: "main", to: "tele", requested: .seconds(1)),
                       "main keeps filling the movie while tele starts again")
        XCTAssertEqual(bank.bandwidthVictim(for: "tele", sharingBus: ["wide", "main"]), nil, "one retry per start")
        XCTAssertEqual(bank.handle(.frame(lens: "tele", pts: .milliseconds(1200))),
                       [.switchLens(to: "tele", requested: .seconds(1), effective: .milliseconds(1200))])
        XCTAssertEqual(bank.running, ["main", "tele"])
        XCTAssertEqual(bank.stoppedForBandwidth, ["wide"])
        // wide is cold now: a switch to it starts it, and once it delivers the cold tele closes; main stays hot.
        XCTAssertEqual(bank.handle(.select(lens: "wide", at: .seconds(2), recording: true)), [.startCamera("wide")])
        XCTAssertEqual(bank.handle(.frame(lens: "wide", pts: .milliseconds(2100))),
                       [.switchLens(to: "wide", requested: .seconds(2), effective: .milliseconds(2100)),
                        .stopCamera("tele")])
        // And leaving wide closes it too, although the rig's standby would have kept it hot.
        _ = bank.handle(.select(lens: "main", at: .seconds(3), recording: true))
        XCTAssertEqual(bank.running, ["main"])
    }

    func testOnlyTheLensTheRigSwitchesToGetsAVictim() {
        var bank = makeBank(standby: .hot)
        // Starting: main is the active lens; a hot lens that is not active failing gets no room made for it.
        _ = bank.handle(.startDevices)
        XCTAssertEqual(bank.bandwidthVictim(for: "tele", sharingBus: ["wide", "main"]), nil)
        XCTAssertEqual(bank.bandwidthVictim(for: "main", sharingBus: ["wide", "tele"]), "wide")
        // A stopped hot lens on a hot rig is closed once the rig leaves it.
        XCTAssertEqual(bank.handle(.stoppedForBandwidth(lens: "main", stopped: "wide")),
                       [.stopCamera("wide"), .startCamera("main")])
        _ = bank.handle(.frame(lens: "main", pts: .zero))
        _ = bank.handle(.frame(lens: "tele", pts: .zero))
        XCTAssertEqual(bank.handle(.select(lens: "wide", at: .seconds(1), recording: true)), [.startCamera("wide")])
        _ = bank.handle(.frame(lens: "wide", pts: .milliseconds(1100)))
        XCTAssertEqual(bank.handle(.select(lens: "tele", at: .seconds(2), recording: true)),
                       [.switchLens(to: "tele", requested: .seconds(2), effective: .seconds(2)), .stopCamera("wide")])
    }

    func testAFailedRetryIsAPlainFailure() {
        var bank = makeBank(standby: .auto, cold: ["tele"])
        _ = bank.handle(.startDevices)
        _ = bank.handle(.frame(lens: "main", pts: .zero))
        _ = bank.handle(.select(lens: "tele", at: .seconds(1), recording: true))
        _ = bank.handle(.stoppedForBandwidth(lens: "tele", stopped: "wide"))
        XCTAssertEqual(bank.handle(.startFailed(lens: "tele", at: .seconds(1))),
                       [.reject("lens tele has no camera right now; recording stays on main")])
        XCTAssertEqual(bank.state, .live(lens: "main"))
        // A later switch to tele starts it afresh; wide, cold now, does not stream and main shows: nothing to stop.
        XCTAssertEqual(bank.handle(.select(lens: "tele", at: .seconds(2), recording: true)), [.startCamera("tele")])
        XCTAssertEqual(bank.bandwidthVictim(for: "tele", sharingBus: ["wide", "main"]), nil)
    }
}
