import XCTest
@testable import PauseCamCore

/// `format: auto` per lens: MJPEG when cameras share a controller, YUYV for a camera alone whose YUYV fits,
/// MJPEG when it does not, and what a camera offers when it offers only one.
final class USBFormatAutoChoiceTests: XCTestCase {
    private func mode(_ encoding: USBStreamMode.Encoding, _ width: Int, _ height: Int) -> USBStreamMode {
        USBStreamMode(encoding: encoding, width: width, height: height, rate: FrameRate(30))
    }

    private func lens(_ name: String, bus: Int?, port: String = "1", size: (Int, Int) = (640, 480),
                      yuyv: Bool = true, mjpeg: Bool = true, speed: USBSpeed = .high) -> USBFormatAutoChoice.Candidate {
        USBFormatAutoChoice.Candidate(lens: name, placement: bus.map { USBPlacement(bus: $0, port: port, speed: speed) },
                                      yuyv: yuyv ? mode(.yuyv, size.0, size.1) : nil,
                                      mjpeg: mjpeg ? mode(.mjpeg, size.0, size.1) : nil)
    }

    /// Bus 1 (USB 2.0) and bus 2 (SuperSpeed) are one xHCI controller's; bus 3 is another controller.
    private let buses = [USBBus(number: 1, speed: .high, controller: "0000:00:14.0"),
                         USBBus(number: 2, speed: .superSpeed, controller: "0000:00:14.0"),
                         USBBus(number: 3, speed: .high, controller: "0000:03:00.0")]

    func testTheChoicePerLens() {
        let table: [(String, [USBFormatAutoChoice.Candidate], [USBStreamMode.Encoding?])] = [
            ("alone, VGA YUYV fits", [lens("a", bus: 1)], [.yuyv]),
            ("alone, 720p30 YUYV is more than one USB 2.0 stream", [lens("a", bus: 1, size: (1280, 720))], [.mjpeg]),
            ("alone on SuperSpeed, 1080p YUYV fits",
             [lens("a", bus: 2, size: (1920, 1080), speed: .superSpeed)], [.yuyv]),
            ("two on one controller", [lens("a", bus: 1, port: "1"), lens("b", bus: 1, port: "2")], [.mjpeg, .mjpeg]),
            ("one controller, its USB 2 and USB 3 buses",
             [lens("a", bus: 1), lens("b", bus: 2, speed: .superSpeed)], [.mjpeg, .mjpeg]),
            ("separate controllers", [lens("a", bus: 1), lens("b", bus: 3)], [.yuyv, .yuyv]),
            ("three 720p30 YUYV-capable cameras on one USB 2.0 controller",
             [lens("a", bus: 1, port: "1", size: (1280, 720)), lens("b", bus: 1, port: "2", size: (1280, 720)),
              lens("c", bus: 1, port: "3", size: (1280, 720))], [.mjpeg, .mjpeg, .mjpeg]),
            ("shared, but one offers no MJPEG", [lens("a", bus: 1), lens("b", bus: 1, mjpeg: false)], [.mjpeg, .yuyv]),
            ("alone, offers no YUYV", [lens("a", bus: 1, yuyv: false)], [.mjpeg]),
            ("offers neither", [lens("a", bus: 1, yuyv: false, mjpeg: false)], [nil]),
            ("not on USB: as `format: any`", [lens("a", bus: nil), lens("b", bus: nil)], [.mjpeg, .mjpeg]),
            ("on a bus sysfs did not list: its own controller", [lens("a", bus: 7), lens("b", bus: 8)], [.yuyv, .yuyv]),
        ]
        for (name, candidates, expected) in table {
            XCTAssertEqual(USBFormatAutoChoice.choose(candidates, buses: buses).map(\.encoding), expected, name)
        }
    }

    func testTheReasonNamesWhatDecided() {
        let shared = USBFormatAutoChoice.choose([lens("wide", bus: 1), lens("tele", bus: 1), lens("side", bus: 1)],
                                                buses: buses)
        XCTAssertEqual(shared[0].reason, "shares controller 0000:00:14.0 with lenses tele, side")
        let big = USBFormatAutoChoice.choose([lens("wide", bus: 3, size: (1280, 720))], buses: buses)
        XCTAssertEqual(big[0].reason, "YUYV 1280x720@30 needs 442.4 Mbit/s, more than its bus carries; "
                       + "MJPEG 1280x720@30 instead")
        let alone = USBFormatAutoChoice.choose([lens("wide", bus: 3)], buses: buses)
        XCTAssertEqual(alone[0].reason, "alone on controller 0000:03:00.0, and YUYV 640x480@30 fits")
    }
}
