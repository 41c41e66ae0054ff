import Foundation
import XCTest

/// Runs the umockdev scenarios: `umockdev/testbed.py` (under `umockdev-wrapper`, with Debian's python3) builds a
/// mocked sysfs of USB webcams and runs one `UdevInsideTestbedTests` test of this very test binary inside it, so
/// the code under test talks to real libudev. Each test here passes when that inner test ran and passed.
final class UdevTestbedTests: XCTestCase {
    func runInsideTestbed(_ scenario: String, test: String) throws {
        if ProcessInfo.processInfo.environment["PAUSECAM_UMOCKDEV_SCENARIO"] != nil {
            throw XCTSkip("already inside a testbed")
        }
        for tool in ["/usr/bin/umockdev-wrapper", "/usr/bin/python3"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed (Debian packages umockdev, python3-gi, gir1.2-umockdev-1.0)")
        }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        probe.arguments = ["-c", "import gi; gi.require_version('UMockdev', '1.0'); from gi.repository import UMockdev"]
        probe.standardError = FileHandle.nullDevice
        try probe.run()
        probe.waitUntilExit()
        if probe.terminationStatus != 0 { throw XCTSkip("python3 cannot import UMockdev (gir1.2-umockdev-1.0)") }

        let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("umockdev/testbed.py").path
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/umockdev-wrapper")
        process.arguments = ["/usr/bin/python3", driver, scenario, binary,
                             "PauseCamSystemTests.UdevInsideTestbedTests/\(test)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("Executed 1 test, with 0 failures"), text)
        XCTAssertFalse(text.contains("skipped"), text)
    }

    func testThreeWebcamsEnumerateAndTheMetadataNodeIsFilteredOut() throws {
        try runInsideTestbed("enumerate", test: "testEnumeration")
    }

    func testHotPlugEventsReachTheWatcherWithIdentity() throws {
        try runInsideTestbed("hotplug", test: "testHotPlug")
    }
}

extension UdevTestbedTests {
    func testQueryCapAnsweredByAnIoctlHandlerFiltersTheMetadataNode() throws {
        try runInsideTestbed("ioctl", test: "testQueryCapFiltersTheMetadataNodeAndFormatsAreRead")
    }
}

extension UdevTestbedTests {
    func testUSBTopologyOfADesktopIsReadFromSysfs() throws {
        try runInsideTestbed("usbplan", test: "testUSBTopologyIsReadFromSysfs")
    }
}
