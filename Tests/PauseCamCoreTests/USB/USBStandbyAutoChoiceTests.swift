import XCTest
@testable import PauseCamCore

/// `standby: auto` per lens: hot where the bus carries every camera lens on it at once (even at the MJPEG worst
/// case), cold where it does not or may not.
final class USBStandbyAutoChoiceTests: XCTestCase {
    private let buses = [USBBus(number: 1, speed: .high, controller: "0000:00:14.0"),
                         USBBus(number: 2, speed: .superSpeed, controller: "0000:00:14.0"),
                         USBBus(number: 3, speed: .high, controller: "0000:03:00.0")]

    private func load(_ name: String, bus: Int, _ encoding: USBStreamMode.Encoding, _ width: Int, _ height: Int,
                      speed: USBSpeed = .high) -> USBCameraLoad {
        USBCameraLoad(lens: name, placement: USBPlacement(bus: bus, port: name, speed: speed),
                      mode: USBStreamMode(encoding: encoding, width: width, height: height, rate: FrameRate(30)))
    }

    func testTheStandbyPerLens() {
        let table: [(String, [USBCameraLoad], [String: Rig.Standby])] = [
            ("no camera lenses", [], [:]),
            ("one VGA YUYV camera fits", [load("a", bus: 1, .yuyv, 640, 480)], ["a": .hot]),
            ("two VGA YUYV on one USB 2.0 bus fit (295 of 384)",
             [load("a", bus: 1, .yuyv, 640, 480), load("b", bus: 1, .yuyv, 640, 480)], ["a": .hot, "b": .hot]),
            ("three VGA YUYV on one USB 2.0 bus do not fit",
             [load("a", bus: 1, .yuyv, 640, 480), load("b", bus: 1, .yuyv, 640, 480),
              load("c", bus: 1, .yuyv, 640, 480)], ["a": .cold, "b": .cold, "c": .cold]),
            ("three 720p MJPEG fit only by the estimate: may not fit counts as full",
             [load("a", bus: 1, .mjpeg, 1280, 720), load("b", bus: 1, .mjpeg, 1280, 720),
              load("c", bus: 1, .mjpeg, 1280, 720)], ["a": .cold, "b": .cold, "c": .cold]),
            ("a full bus and a bus with room: each decides for its own lenses",
             [load("a", bus: 1, .yuyv, 640, 480), load("b", bus: 1, .yuyv, 640, 480),
              load("c", bus: 1, .yuyv, 640, 480), load("d", bus: 3, .yuyv, 640, 480)],
             ["a": .cold, "b": .cold, "c": .cold, "d": .hot]),
            ("1080p YUYV on SuperSpeed fits",
             [load("a", bus: 2, .yuyv, 1920, 1080, speed: .superSpeed)], ["a": .hot]),
        ]
        for (name, loads, expected) in table {
            let plan = USBBandwidthPlanner.plan(loads, buses: buses, standby: .hot)
            let choices = USBStandbyAutoChoice.choose(hotPlan: plan)
            XCTAssertEqual(Dictionary(uniqueKeysWithValues: choices.map { ($0.lens, $0.standby) }), expected, name)
        }
    }

    func testTheReasonNamesTheBusAndItsLoad() {
        let plan = USBBandwidthPlanner.plan([load("a", bus: 1, .yuyv, 640, 480), load("b", bus: 1, .yuyv, 640, 480)],
                                            buses: buses, standby: .hot)
        XCTAssertEqual(USBStandbyAutoChoice.choose(hotPlan: plan).first?.reason,
                       "bus 1 carries all 2 camera lenses streaming at once (294.9 Mbit/s at most of 384.0 Mbit/s)")
    }
}
