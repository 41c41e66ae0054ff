import Foundation
import XCTest

/// `pausecam devices --json` lists the microphones with the fields the text listing shows, in the umockdev "sound"
/// testbed (card0 on PCI, card1 the first C920's microphone, card2 a Yeti with its serial on the USB device).
final class DevicesMicrophonesEndToEndTests: XCTestCase {
    func testDevicesJSONListsTheMicrophonesLikeTheText() throws {
        try UmockdevScenario.run("sound", test: "EndToEndTests.DevicesMicrophonesInsideTestbedTests/testDevicesJSONListsMicrophones")
    }
}

/// Runs inside the umockdev "sound" testbed; skipped anywhere else.
final class DevicesMicrophonesInsideTestbedTests: XCTestCase {
    func testDevicesJSONListsMicrophones() throws {
        guard ProcessInfo.processInfo.environment["PAUSECAM_UMOCKDEV_SCENARIO"] == "sound" else {
            throw XCTSkip("runs inside the umockdev testbed (DevicesMicrophonesEndToEndTests starts it)")
        }
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["devices", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let microphones = try XCTUnwrap(object["microphones"] as? [[String: Any]], result.stdoutText)
        XCTAssertEqual(microphones.map { $0["card"] as? Int }, [0, 1, 2], result.stdoutText)
        XCTAssertEqual(microphones[0]["name"] as? String, "PCH")
        XCTAssertEqual(microphones[0]["alsa"] as? String, "plughw:0,0")
        XCTAssertEqual(microphones[0]["path"] as? String, "pci-0000:00:1f.3")
        XCTAssertNil(microphones[0]["usb"], "no USB parent: no usb field")
        XCTAssertEqual(microphones[1]["usb"] as? String, "046d:082d")
        XCTAssertEqual(microphones[1]["serial"] as? String, "AAAA1111")
        XCTAssertEqual(microphones[2]["name"] as? String, "Yeti")
        XCTAssertEqual(microphones[2]["serial"] as? String, "YETI0001")
        XCTAssertEqual(microphones[2]["path"] as? String, "pci-0000:00:14.0-usb-0:5:1.2")
        // The text listing says the same.
        let text = try ProcessRunner.run(BinaryLocator.pausecam.path, ["devices"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdoutText.contains("  card 2 \"Yeti\" (ALSA plughw:2,0) usb b58e:9e84 serial YETI0001 "
                                               + "path pci-0000:00:14.0-usb-0:5:1.2\n"), text.stdoutText)
    }
}
