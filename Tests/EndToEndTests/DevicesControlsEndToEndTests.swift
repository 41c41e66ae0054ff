import Foundation
import XCTest

/// `pausecam devices` shows each control with the value the camera holds now, its range and its default, so a
/// user sees what a previous program or session left set (the value comes from `VIDIOC_G_CTRL`).
final class DevicesControlsEndToEndTests: XCTestCase {
    func testDevicesShowsEachControlsCurrentValueRangeAndDefaultInAUmockdevTestbed() throws {
        try UmockdevScenario.run("ioctl",
                                 test: "EndToEndTests.DevicesControlsInsideTestbedTests/testControlValueRangeAndDefault")
    }
}

/// Runs inside the umockdev "ioctl" testbed, whose Fake C920 at /dev/video0 has `zoom_absolute` 100…500, default
/// 100, and answers `VIDIOC_G_CTRL` with 250; skipped anywhere else.
final class DevicesControlsInsideTestbedTests: XCTestCase {
    func testControlValueRangeAndDefault() throws {
        guard ProcessInfo.processInfo.environment["PAUSECAM_UMOCKDEV_SCENARIO"] == "ioctl" else {
            throw XCTSkip("runs inside the umockdev testbed (DevicesControlsEndToEndTests starts it)")
        }
        let text = try ProcessRunner.run(BinaryLocator.pausecam.path, ["devices"])
        XCTAssertEqual(text.status, 0, text.stdoutText + text.stderr)
        XCTAssertTrue(text.stdoutText.contains("\tcontrols:\n\t  zoom_absolute 250 (100…500, default 100)\n"),
                      text.stdoutText)

        let json = try ProcessRunner.run(BinaryLocator.pausecam.path, ["devices", "--json"])
        XCTAssertEqual(json.status, 0, json.stdoutText + json.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdoutText.utf8)) as? [String: Any]
        let camera = (object?["cameras"] as? [[String: Any]])?.first
        let zoom = (camera?["controls"] as? [[String: Any]])?.first
        XCTAssertEqual(zoom?["name"] as? String, "zoom_absolute", json.stdoutText)
        XCTAssertEqual(zoom?["current"] as? Int, 250, json.stdoutText)
        XCTAssertEqual(zoom?["minimum"] as? Int, 100, json.stdoutText)
        XCTAssertEqual(zoom?["maximum"] as? Int, 500, json.stdoutText)
        XCTAssertEqual(zoom?["default"] as? Int, 100, json.stdoutText)
    }
}
