import Foundation
import XCTest

/// `pausecam check` and `pausecam devices --rig` print the USB bandwidth plan: per bus each camera lens's port,
/// mode and share, the total, the verdict and the fixes. A plan that does not fit is a warning, not an error.
final class USBPlanEndToEndTests: XCTestCase {
    func testThreeYUYV720p30CamerasDeclaredOnOneUSB2BusDoNotFitAndTheFixIsNamed() throws {
        let folder = try ProcessRunner.temporaryDirectory("usb-plan-declared")
        let path = folder.appendingPathComponent("venue.yaml").path
        try """
        name: Venue
        output: {size: 1280x720, fps: 30}
        audio: {device: none}
        lenses:
          wide: {zoom: 1, match: {serial: "VENUE-1"}, format: yuyv, usb_port: {port: 1-1.1}}
          tele: {zoom: 2, match: {serial: "VENUE-2"}, format: yuyv, usb_port: {port: 1-1.2, speed: 480}}
          side: {zoom: 3, match: {serial: "VENUE-3"}, format: yuyv, usb_port: {port: 1-2}}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", path])
        let text = result.stdoutText
        XCTAssertEqual(result.status, 0, "a plan is advice, not a rig error: " + text + result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(text.contains("  USB bandwidth (periodic budget per bus; standby hot: every lens streams at once):\n"
                                    + "    bus 1 (USB 2.0 high speed"), text)
        XCTAssertTrue(text.contains("      wide: port 1-1.1 (declared), 480 Mbit/s, YUYV 1280x720@30, 442.4 Mbit/s "
                                    + "(115 %): more than one stream can carry at 480 Mbit/s (196.6 Mbit/s)\n"), text)
        XCTAssertTrue(text.contains("      total 1327.1 Mbit/s (346 %): does not fit: a camera will fail to start "
                                    + "(VIDIOC_STREAMON: No space left on device)\n"), text)
        for lens in ["wide", "tele", "side"] {
            XCTAssertTrue(text.contains("      fix: `format: mjpeg` on lens \(lens) (YUYV 1280x720@30 needs 442.4 "
                                        + "Mbit/s; MJPEG about 110.6 Mbit/s)\n"), text)
        }
    }

    func testTheVirtualRigHasNoUSBPlan() throws {
        let path = ProcessRunner.rigsFolder.appendingPathComponent("virtual.yaml").path
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", path])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertFalse(result.stdoutText.contains("USB bandwidth"), result.stdoutText)
    }

    func testCheckAndDevicesPrintThePlanOfTheCamerasWhereSysfsSaysTheySit() throws {
        try UmockdevScenario.run("usbplan", test: "EndToEndTests.USBPlanInsideTestbedTests/testPlanFromSysfs")
    }
}

/// Runs inside the umockdev "usbplan" testbed (bus 1: two C920s on a USB 2.0 hub at 1-1.1 and 1-1.2, a USB 3
/// BRIO held to 480 Mbit/s at 1-4; bus 2 the same controller's SuperSpeed root hub; bus 3 another controller with
/// a C920 at 3-2); skipped anywhere else. The nodes answer no V4L2 ioctl, so each lens is planned in the mode it asks.
final class USBPlanInsideTestbedTests: XCTestCase {
    func testPlanFromSysfs() throws {
        guard ProcessInfo.processInfo.environment["PAUSECAM_UMOCKDEV_SCENARIO"] == "usbplan" else {
            throw XCTSkip("runs inside the umockdev testbed (USBPlanEndToEndTests starts it)")
        }
        let folder = try ProcessRunner.temporaryDirectory("usb-plan-sysfs")
        let path = folder.appendingPathComponent("desk.yaml").path
        try """
        name: Desk
        output: {size: 1280x720, fps: 30}
        audio: {device: none}
        lenses:
          wide: {zoom: 1, match: {serial: "AAAA1111"}, format: yuyv, size: 640x480}
          tele: {zoom: 2, match: {serial: "BBBB2222"}, format: yuyv, size: 640x480}
          main: {zoom: 1.5, match: {serial: "CCCC3333"}, format: yuyv, size: 640x480}
          side: {zoom: 3, match: {serial: "DDDD4444"}}
          spare: {zoom: 4, match: {serial: "NOT-HERE"}}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let check = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", path])
        XCTAssertEqual(check.status, 0, check.stdoutText + check.stderr)
        let expected = """
              USB bandwidth (periodic budget per bus; standby hot: every lens streams at once):
                bus 1 (USB 2.0 high speed, controller 0000:00:14.0): budget 384.0 Mbit/s
                  wide: port 1-1.1, 480 Mbit/s, YUYV 640x480@30, 147.5 Mbit/s (38 %)
                  tele: port 1-1.2, 480 Mbit/s, YUYV 640x480@30, 147.5 Mbit/s (38 %)
                  main: port 1-4, 480 Mbit/s, YUYV 640x480@30, 147.5 Mbit/s (38 %)
                  total 442.4 Mbit/s (115 %): does not fit: a camera will fail to start (VIDIOC_STREAMON: No space left on device)
                  fix: `format: mjpeg` on lens wide (YUYV 640x480@30 needs 147.5 Mbit/s; MJPEG about 36.9 Mbit/s)
                  fix: `format: mjpeg` on lens tele (YUYV 640x480@30 needs 147.5 Mbit/s; MJPEG about 36.9 Mbit/s)
                  fix: `format: mjpeg` on lens main (YUYV 640x480@30 needs 147.5 Mbit/s; MJPEG about 36.9 Mbit/s)
                  fix: plug lens main's camera (USB 3.20) into a USB 3 port (bus 2 (USB 3 SuperSpeed 5 Gbit/s, controller 0000:00:14.0)), with a USB 3 cable and no USB 2 hub on the way
                  fix: move lens wide to a port on bus 3 (USB 2.0 high speed, controller 0000:03:00.0), which has 187.4 Mbit/s free
                  fix: `standby: cold`: only the active lens streams (two during a switch), at most 294.9 Mbit/s
                  fix: a smaller `size` or a lower `fps` on lens wide (the largest share, 147.5 Mbit/s)
                  note: lens main: its camera is USB 3.20 but runs at 480 Mbit/s on port 1-4: a USB 2 port, hub or cable is on its way
                bus 3 (USB 2.0 high speed, controller 0000:03:00.0): budget 384.0 Mbit/s
                  side: port 3-2, 480 Mbit/s, MJPEG 1280x720@30, about 110.6 Mbit/s (29 %), up to 196.6 Mbit/s
                  total 110.6 Mbit/s (29 %): fits
                side: format auto: MJPEG (YUYV 1280x720@30 needs 442.4 Mbit/s, more than its bus carries; MJPEG 1280x720@30 instead)
                spare: not planned: not connected; `usb_port:` declares where it sits for the plan

            """
        XCTAssertTrue(check.stdoutText.contains(expected), check.stdoutText)

        let devices = try ProcessRunner.run(BinaryLocator.pausecam.path, ["devices", "--rig", path])
        XCTAssertEqual(devices.status, 0, devices.stdoutText + devices.stderr)
        XCTAssertTrue(devices.stdoutText.contains(expected), devices.stdoutText)
    }
}
