import Foundation
import XCTest

/// `pausecam devices` tells a PTZ camera apart: one `PTZ:` line with the ranges of its motor controls, and a `ptz`
/// list in the JSON. Tested in the umockdev "ioctl" testbed, whose Fake C920 answers `VIDIOC_QUERYCTRL` for
/// `zoom_absolute` 100…500 and `pan_absolute`/`tilt_absolute` −36000…36000 step 3600, like a real C920. The VM test
/// cannot cover PTZ: vivid has no pan, tilt or zoom control.
final class DevicesPTZEndToEndTests: XCTestCase {
    func testDevicesNamesThePTZControlsWithTheirRanges() throws {
        try UmockdevScenario.run("ioctl", test: "EndToEndTests.DevicesPTZInsideTestbedTests/testPTZLine")
    }
}

/// Runs inside the umockdev "ioctl" testbed; skipped anywhere else.
final class DevicesPTZInsideTestbedTests: XCTestCase {
    func testPTZLine() throws {
        guard ProcessInfo.processInfo.environment["PAUSECAM_UMOCKDEV_SCENARIO"] == "ioctl" else {
            throw XCTSkip("runs inside the umockdev testbed (DevicesPTZEndToEndTests starts it)")
        }
        let text = try ProcessRunner.run(BinaryLocator.pausecam.path, ["devices"])
        XCTAssertEqual(text.status, 0, text.stdoutText + text.stderr)
        XCTAssertTrue(text.stdoutText.contains(
            "\t  pan_absolute -3600 (-36000…36000 step 3600, default 0)\n"
            + "\t  tilt_absolute 0 (-36000…36000 step 3600, default 0)\n"
            + "\tPTZ: zoom_absolute 100…500, pan_absolute -36000…36000 step 3600, "
            + "tilt_absolute -36000…36000 step 3600 (zoom presets' optical: and ptz:)\n"), text.stdoutText)

        let json = try ProcessRunner.run(BinaryLocator.pausecam.path, ["devices", "--json"])
        XCTAssertEqual(json.status, 0, json.stdoutText + json.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdoutText.utf8)) as? [String: Any]
        let camera = (object?["cameras"] as? [[String: Any]])?.first
        XCTAssertEqual(camera?["ptz"] as? [String], ["zoom_absolute", "pan_absolute", "tilt_absolute"], json.stdoutText)
    }
}
