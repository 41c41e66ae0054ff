import XCTest
@testable import PauseCamCore

/// `standby: auto` in the lens bank: lenses in `Rig.autoColdLenses` behave as cold ones, the others as hot ones.
final class LensBankAutoStandbyTests: XCTestCase {
    private func makeBank(cold: Set<String>) -> LensBank {
        var rig = EngineFixture.makeRig()
        rig.standby = .auto
        rig.autoColdLenses = cold
        return LensBank(rig: rig, withCamera: ["wide", "main", "tele"])
    }

    func testOnlyTheHotLensesAndTheActiveOneStartAndAColdOneStopsAfterASwitchAway() {
        var bank = makeBank(cold: ["tele"])
        XCTAssertEqual(bank.handle(.startDevices), [.startCamera("wide"), .startCamera("main")])
        XCTAssertEqual(bank.handle(.frame(lens: "main", pts: .milliseconds(0))), [])
        XCTAssertEqual(bank.handle(.frame(lens: "wide", pts: .milliseconds(0))), [])
        XCTAssertEqual(bank.handle(.select(lens: "tele", at: .milliseconds(1000), recording: true)),
                       [.startCamera("tele")])
        // The hot lenses keep streaming once the cold one has taken over.
        XCTAssertEqual(bank.handle(.frame(lens: "tele", pts: .milliseconds(1100))),
                       [.switchLens(to: "tele", requested: .milliseconds(1000), effective: .milliseconds(1100))])
        XCTAssertEqual(bank.running, ["wide", "main", "tele"])
        // Switching away from the cold lens closes it; the hot ones stay.
        XCTAssertEqual(bank.handle(.select(lens: "wide", at: .milliseconds(2000), recording: true)),
                       [.switchLens(to: "wide", requested: .milliseconds(2000), effective: .milliseconds(2000)),
                        .stopCamera("tele")])
        XCTAssertEqual(bank.running, ["wide", "main"])
    }

    func testAnUndecidedAutoActsAsHot() {
        var bank = makeBank(cold: [])
        XCTAssertEqual(bank.handle(.startDevices), [.startCamera("wide"), .startCamera("main"), .startCamera("tele")])
    }
}
