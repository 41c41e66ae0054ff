import Foundation
@testable import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// A lens's `usb_port:` (where its camera sits, for the bandwidth plan of a rig checked without the camera), read
/// through libyaml, and `USBBandwidthCheck` placing lenses from it and from sysfs.
final class USBPortKeyTests: XCTestCase {
    static func rig(_ lensExtra: String) -> String {
        """
        name: T
        output: {size: 1280x720, fps: 30}
        audio: {device: none}
        lenses:
          wide:
            zoom: 1
            match: {serial: "AAAA1111"}
            format: yuyv
        \(lensExtra)
        """
    }

    func testUSBPortIsReadWithItsSpeedOrHighSpeedByDefault() throws {
        let declared = try RigLoader.load(text: Self.rig("    usb_port: {port: 3-1.4, speed: 5000}"), file: "r.yaml")
        XCTAssertEqual(declared.lenses[0].usbPort,
                       USBPlacement(bus: 3, port: "1.4", speed: .superSpeed, declared: true))
        let plain = try RigLoader.load(text: Self.rig("    usb_port: {port: 1-2}"), file: "r.yaml")
        XCTAssertEqual(plain.lenses[0].usbPort, USBPlacement(bus: 1, port: "2", speed: .high, declared: true))
        let lsusb = try RigLoader.load(text: Self.rig("    usb_port: {port: 1-2, speed: 480M}"), file: "r.yaml")
        XCTAssertEqual(lsusb.lenses[0].usbPort?.speed, .high, "lsusb -t writes 480M")
        XCTAssertNil(try RigLoader.load(text: Self.rig(""), file: "r.yaml").lenses[0].usbPort)
    }

    func testAWrongPortOrSpeedIsReportedOnItsLineWithTheFix() {
        let table: [(String, String)] = [
            ("    usb_port: {port: 2}", "r.yaml:9:22: lenses.wide.usb_port.port: \"2\" is not a USB port; write BUS-PORT"),
            ("    usb_port: {port: 1-2.x}", "r.yaml:9:22: lenses.wide.usb_port.port: \"1-2.x\" is not a USB port"),
            ("    usb_port: {port: 1-2, speed: 1.5}",
             "r.yaml:9:34: lenses.wide.usb_port.speed: \"1.5\" is not a USB speed a camera streams at; write one of "
                + "12, 480, 5000, 10000, 20000"),
            ("    usb_port: {speed: 480}", "r.yaml:9:15: lenses.wide.usb_port: missing required key \"port\""),
        ]
        for (line, expected) in table {
            XCTAssertThrowsError(try RigLoader.load(text: Self.rig(line), file: "r.yaml"), line) { error in
                let text = (error as? RigError)?.description ?? "\(error)"
                XCTAssertTrue(text.contains(expected), "\(line):\n\(text)")
            }
        }
    }

    func testAFileLensMayNotDeclareAUSBPort() {
        let text = """
            name: T
            lenses:
              clip: {zoom: 1, file: a.mov, usb_port: {port: 1-1}}
            """
        XCTAssertThrowsError(try RigLoader.load(text: text, file: "r.yaml")) { error in
            XCTAssertTrue("\(error)".contains("\"usb_port\" does not apply to a movie file lens"), "\(error)")
        }
    }

    func testTheSysfsAttributesBecomeAPlacement() {
        XCTAssertEqual(UdevUSBTopology.placement(attributes: ["busnum": "1", "devpath": "1.2", "speed": "480",
                                                             "version": " 3.20"].mapValues {
                           $0.trimmingCharacters(in: .whitespaces)
                       }),
                       USBPlacement(bus: 1, port: "1.2", speed: .high, version: "3.20"))
        XCTAssertNil(UdevUSBTopology.placement(attributes: ["busnum": "1", "devpath": "1.2"]), "no speed")
        XCTAssertNil(UdevUSBTopology.placement(attributes: ["busnum": "1", "devpath": "1", "speed": "unknown"]))
    }

    func testCheckPlansAConnectedCameraInItsChosenModeAndAnAbsentOneWhereItIsDeclared() throws {
        let rig = try RigLoader.load(text: """
            name: T
            output: {size: 1280x720, fps: 30}
            audio: {device: none}
            lenses:
              wide: {zoom: 1, match: {serial: "AAAA1111"}, format: yuyv}
              tele: {zoom: 2, match: {serial: "GONE"}, usb_port: {port: 1-3}}
              spare: {zoom: 3, match: {serial: "GONE-TOO"}}
              main: {zoom: 1.5, virtual: {color: "#20c040"}}
            """, file: "r.yaml")
        let camera = CameraDescription(
            identity: CameraIdentity(devicePath: "/dev/video0", name: "C920", serial: "AAAA1111"),
            modes: [V4L2Mode(pixelFormat: .yuyv, width: 640, height: 480, rates: [FrameRate(30)]),
                    V4L2Mode(pixelFormat: .mjpeg, width: 1280, height: 720, rates: [FrameRate(30)])],
            usbPlacement: USBPlacement(bus: 1, port: "1", speed: .high, version: "2.00"))
        let match = try CameraMatcher.match([camera.identity], to: rig.lenses)
        let (loads, unplanned) = USBBandwidthCheck.loads(rig: rig, cameras: [camera], match: match)
        XCTAssertEqual(loads, [
            USBCameraLoad(lens: "wide", placement: camera.usbPlacement!,
                          mode: USBStreamMode(encoding: .yuyv, width: 640, height: 480, rate: FrameRate(30))),
            USBCameraLoad(lens: "tele", placement: USBPlacement(bus: 1, port: "3", speed: .high, declared: true),
                          mode: USBStreamMode(encoding: .mjpeg, width: 1280, height: 720, rate: FrameRate(30))),
        ])
        XCTAssertEqual(unplanned, [.init(lens: "spare",
                                         reason: "not connected; `usb_port:` declares where it sits for the plan")])
        let report = USBBandwidthCheck.report(rig: rig, cameras: [camera],
                                              buses: [USBBus(number: 1, speed: .high, controller: "0000:00:14.0")])
        XCTAssertTrue(report.contains("      tele: port 1-3 (declared), 480 Mbit/s, MJPEG 1280x720@30, about "
                                      + "110.6 Mbit/s (29 %), up to 196.6 Mbit/s\n"), report)
        // 147.5 + 196.6 Mbit/s at worst: fits even if the MJPEG camera reserves a whole stream.
        XCTAssertTrue(report.contains("      total 258.0 Mbit/s (67 %): fits\n"), report)
    }
}
