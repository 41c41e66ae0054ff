import XCTest
@testable import PauseCamCore

/// The optical/digital split of a zoom factor on a PTZ lens, and the positions a ramp steps through.
final class OpticalZoomTests: XCTestCase {
    /// A Logitech-like range: 100…500 for 1×…5×.
    private let fiveTimes = OpticalZoom(range: PTZRange(minimum: 100, maximum: 500, defaultValue: 100),
                                        maximumFactor: 5)

    func testSplitTable() {
        let rows: [(factor: Double, units: Int, digital: Double)] = [
            (1, 100, 1),          // the lens's own zoom: widest, no digital
            (0.5, 100, 1),        // below the optics: still the widest
            (2, 200, 1),          // linear: 1× at 100, 5× at 500
            (2.5, 250, 1),
            (3.333, 233 + 100, 1),  // the nearest unit (332.3 → 333)
            (5, 500, 1),          // the far end exactly
            (6, 500, 1.2),        // beyond it: the optics' end, then digital
            (20, 500, 4),
        ]
        for row in rows {
            let split = fiveTimes.split(row.factor)
            XCTAssertEqual(split.units, row.units, "factor \(row.factor)")
            XCTAssertEqual(split.digital, row.digital, accuracy: 1e-9, "factor \(row.factor)")
        }
    }

    func testUnitsFollowTheControlsStepAndFactorInvertsThem() {
        // A 0…10 range in steps of 2 (a coarse camera), 3× at its end.
        let coarse = OpticalZoom(range: PTZRange(minimum: 0, maximum: 10, step: 2, defaultValue: 0), maximumFactor: 3)
        XCTAssertEqual(coarse.units(forFactor: 1.5), 2, "2.5 units → the nearest step")
        XCTAssertEqual(coarse.units(forFactor: 2), 6, "5 units → rounds up to the step 6")
        XCTAssertEqual(coarse.factor(atUnits: 10), 3)
        XCTAssertEqual(coarse.factor(atUnits: 0), 1)
        XCTAssertEqual(coarse.factor(atUnits: 99), 3, "clamped into the range")
        for units in stride(from: 100, through: 500, by: 25) {
            XCTAssertEqual(fiveTimes.units(forFactor: fiveTimes.factor(atUnits: units)), units)
        }
    }

    func testAnEmptyRangeOrNoReachIsAlwaysTheMinimum() {
        let fixed = OpticalZoom(range: PTZRange(minimum: 7, maximum: 7, defaultValue: 7), maximumFactor: 1)
        XCTAssertEqual(fixed.split(3).units, 7)
        XCTAssertEqual(fixed.split(3).digital, 3)
        XCTAssertEqual(fixed.factor(atUnits: 7), 1)
    }

    func testLensForZoomUsesTheOpticsBeforeDigitalAndCountsThemInTheLimit() {
        let lenses = [Rig.Lens(name: "wide", zoom: 0.5, source: .virtual(color: RGBColor(red: 0, green: 0, blue: 0))),
                      Rig.Lens(name: "main", zoom: 1, source: .camera(.usb("046d:0853")))]
        let optics = ["main": OpticalZoom(range: PTZRange(minimum: 100, maximum: 500, defaultValue: 100),
                                          maximumFactor: 3)]
        func choose(_ factor: Double) -> Result<LensForZoom, LensForZoom.Refusal> {
            LensForZoom.choose(factor: factor, lenses: lenses, maxDigitalZoom: 2, optics: optics)
        }
        XCTAssertEqual(try choose(2).get(), LensForZoom(lens: "main", digital: 1, optical: 300))
        XCTAssertEqual(try choose(4.5).get(), LensForZoom(lens: "main", digital: 1.5, optical: 500))
        XCTAssertEqual(try choose(0.75).get(), LensForZoom(lens: "wide", digital: 1.5), "a fixed lens: digital only")
        XCTAssertEqual(try choose(0.25).get().optical, nil, "the widest fixed lens has no optics")
        guard case .failure(let refusal) = choose(7) else { return XCTFail("7x is beyond 3x optical × 2x digital") }
        XCTAssertEqual(refusal.message, "zoom 7x is beyond this rig: digital zoom is limited to 2x (max_digital_zoom), "
                                        + "so with main (3x at its longest optical zoom) the most is 6x")
        XCTAssertEqual(try LensForZoom.choose(factor: 2, lenses: lenses, maxDigitalZoom: 2).get(),
                       LensForZoom(lens: "main", digital: 2), "without optics nothing changes")
    }

    func testRampPositionsTable() {
        let ramp = PTZRamp(from: PTZPosition(zoom: 100, pan: 0), to: PTZPosition(zoom: 200, pan: -3600, tilt: 50),
                           start: .seconds(10), duration: .seconds(1))
        let rows: [(time: MediaTime, position: PTZPosition)] = [
            (.seconds(9), PTZPosition(zoom: 100, pan: 0, tilt: 50)),            // before: where it stands
            (.seconds(10), PTZPosition(zoom: 100, pan: 0, tilt: 50)),           // tilt has no start: at once
            (.milliseconds(10_250), PTZPosition(zoom: 125, pan: -900, tilt: 50)),
            (.milliseconds(10_500), PTZPosition(zoom: 150, pan: -1800, tilt: 50)),
            (.milliseconds(10_999), PTZPosition(zoom: 200, pan: -3596, tilt: 50)),
            (.seconds(11), PTZPosition(zoom: 200, pan: -3600, tilt: 50)),       // the end exactly
            (.seconds(60), PTZPosition(zoom: 200, pan: -3600, tilt: 50)),
        ]
        for row in rows { XCTAssertEqual(ramp.position(at: row.time), row.position, "at \(row.time.seconds) s") }
        let instant = PTZRamp(from: PTZPosition(zoom: 100), to: PTZPosition(zoom: 300), start: .seconds(1),
                              duration: .zero)
        XCTAssertEqual(instant.position(at: .zero), PTZPosition(zoom: 300), "no ramp: the target at once")
    }

    func testRangeClampsOntoItsStepGrid() {
        let pan = PTZRange(minimum: -36000, maximum: 36000, step: 3600, defaultValue: 0)
        XCTAssertEqual(pan.clamp(-3600), -3600)
        XCTAssertEqual(pan.clamp(1000), 0)
        XCTAssertEqual(pan.clamp(2000), 3600)
        XCTAssertEqual(pan.clamp(99999), 36000)
        XCTAssertEqual(pan.clamp(-99999), -36000)
        XCTAssertEqual(pan.text, "-36000…36000 step 3600")
    }
}
