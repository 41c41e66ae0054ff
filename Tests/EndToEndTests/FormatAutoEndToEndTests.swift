import Foundation
import XCTest

/// `format: auto` decides each camera lens's encoding from the USB plan, and `pausecam check` plans the rig in the
/// encodings chosen and says why each was chosen.
final class FormatAutoEndToEndTests: XCTestCase {
    func testCheckChoosesMJPEGForCamerasSharingAControllerAndYUYVForOneAlone() throws {
        try UmockdevScenario.run("usbplan",
                                 test: "EndToEndTests.FormatAutoInsideTestbedTests/testCheckPlansTheAutoFormats")
    }

    func testCheckKeepsHotTheLensesOnABusWithRoomAndColdTheOthers() throws {
        try UmockdevScenario.run("usbplan",
                                 test: "EndToEndTests.FormatAutoInsideTestbedTests/testCheckPlansTheAutoStandby")
    }
}

/// Runs inside the umockdev "usbplan" testbed (bus 1: two C920s at 1-1.1 and 1-1.2 and a BRIO at 1-4, all at 480
/// Mbit/s on controller 0000:00:14.0; bus 3 another controller with a C920 at 3-2); skipped anywhere else. The
/// nodes answer no V4L2 ioctl, so each camera is taken to offer both encodings at the size the lens asks.
final class FormatAutoInsideTestbedTests: XCTestCase {
    func testCheckPlansTheAutoFormats() throws {
        guard ProcessInfo.processInfo.environment["PAUSECAM_UMOCKDEV_SCENARIO"] == "usbplan" else {
            throw XCTSkip("runs inside the umockdev testbed (FormatAutoEndToEndTests starts it)")
        }
        let folder = try ProcessRunner.temporaryDirectory("format-auto")
        // `format: auto` written, and left out: auto is the default, so both rigs plan the same.
        for (file, format) in [("desk.yaml", ", format: auto"), ("default.yaml", "")] {
            let path = folder.appendingPathComponent(file).path
            try """
            name: Desk
            output: {size: 1280x720, fps: 30}
            audio: {device: none}
            lenses:
              wide: {zoom: 1, match: {serial: "AAAA1111"}\(format)}
              tele: {zoom: 2, match: {serial: "BBBB2222"}\(format)}
              main: {zoom: 1.5, match: {serial: "CCCC3333"}\(format)}
              side: {zoom: 3, match: {serial: "DDDD4444"}\(format), size: 640x480}
            """.write(toFile: path, atomically: true, encoding: .utf8)
            let expected = """
                    bus 1 (USB 2.0 high speed, controller 0000:00:14.0): budget 384.0 Mbit/s
                      wide: port 1-1.1, 480 Mbit/s, MJPEG 1280x720@30, about 110.6 Mbit/s (29 %), up to 196.6 Mbit/s
                      tele: port 1-1.2, 480 Mbit/s, MJPEG 1280x720@30, about 110.6 Mbit/s (29 %), up to 196.6 Mbit/s
                      main: port 1-4, 480 Mbit/s, MJPEG 1280x720@30, about 110.6 Mbit/s (29 %), up to 196.6 Mbit/s
                      total 331.8 Mbit/s (86 %): may not fit: within the budget by the MJPEG estimate
                """
            let reasons = """
                    wide: format auto: MJPEG (shares controller 0000:00:14.0 with lenses tele, main)
                    tele: format auto: MJPEG (shares controller 0000:00:14.0 with lenses wide, main)
                    main: format auto: MJPEG (shares controller 0000:00:14.0 with lenses wide, tele)
                    side: format auto: YUYV (alone on controller 0000:03:00.0, and YUYV 640x480@30 fits)

                """
            for command in [["check", path], ["devices", "--rig", path]] {
                let result = try ProcessRunner.run(BinaryLocator.pausecam.path, command)
                let text = result.stdoutText
                XCTAssertEqual(result.status, 0, text + result.stderr)
                XCTAssertTrue(text.contains(expected), text)
                XCTAssertTrue(text.contains("      side: port 3-2, 480 Mbit/s, YUYV 640x480@30, 147.5 Mbit/s (38 %)\n"
                                            + "      total 147.5 Mbit/s (38 %): fits\n"), text)
                XCTAssertTrue(text.contains(reasons), text)
                XCTAssertFalse(text.contains("does not fit"), text)
            }
        }
    }

    func testCheckPlansTheAutoStandby() throws {
        guard ProcessInfo.processInfo.environment["PAUSECAM_UMOCKDEV_SCENARIO"] == "usbplan" else {
            throw XCTSkip("runs inside the umockdev testbed (FormatAutoEndToEndTests starts it)")
        }
        let folder = try ProcessRunner.temporaryDirectory("standby-auto")
        let path = folder.appendingPathComponent("desk.yaml").path
        try """
        name: Desk
        output: {size: 1280x720, fps: 30}
        audio: {device: none}
        standby: auto
        lenses:
          wide: {zoom: 1, match: {serial: "AAAA1111"}, format: yuyv, size: 640x480}
          tele: {zoom: 2, match: {serial: "BBBB2222"}, format: yuyv, size: 640x480}
          main: {zoom: 1.5, match: {serial: "CCCC3333"}, format: yuyv, size: 640x480}
          side: {zoom: 3, match: {serial: "DDDD4444"}, format: yuyv, size: 640x480}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", path])
        let text = result.stdoutText
        XCTAssertEqual(result.status, 0, text + result.stderr)
        XCTAssertTrue(text.contains("  USB bandwidth (periodic budget per bus; standby auto: hot on a bus with room for "
                                    + "all its lenses, cold on the others):\n"), text)
        // Bus 1 cannot carry its three YUYV lenses at once, so it is planned cold (two stream during a switch).
        XCTAssertTrue(text.contains("      total 294.9 Mbit/s (77 %): fits\n"), text)
        XCTAssertFalse(text.contains("does not fit"), text)
        XCTAssertTrue(text.contains("""
                wide: standby auto: cold (bus 1 cannot carry all 3 camera lenses streaming at once (442.4 Mbit/s at most of 384.0 Mbit/s))
                tele: standby auto: cold (bus 1 cannot carry all 3 camera lenses streaming at once (442.4 Mbit/s at most of 384.0 Mbit/s))
                main: standby auto: cold (bus 1 cannot carry all 3 camera lenses streaming at once (442.4 Mbit/s at most of 384.0 Mbit/s))
                side: standby auto: hot (bus 3 carries its camera lens streaming at once (147.5 Mbit/s at most of 384.0 Mbit/s))

            """), text)
    }
}
