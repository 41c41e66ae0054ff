import Foundation
import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// Collects watcher events from the watcher's thread.
final class UdevEventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [DeviceEvent] = []
    var all: [DeviceEvent] { lock.lock(); defer { lock.unlock() }; return events }
    func append(_ event: DeviceEvent) { lock.lock(); events.append(event); lock.unlock() }
}

/// The halves of the umockdev tests that run inside the testbed (started by `UdevTestbedTests`); run directly,
/// they skip.
final class UdevInsideTestbedTests: XCTestCase {
    func scenario(_ name: String) throws {
        guard ProcessInfo.processInfo.environment["PAUSECAM_UMOCKDEV_SCENARIO"] == name else {
            throw XCTSkip("runs inside the umockdev testbed that UdevTestbedTests sets up")
        }
    }

    func testEnumeration() throws {
        try scenario("enumerate")
        let cameras = try UdevDeviceManager().cameras()
        XCTAssertEqual(cameras, [
            CameraIdentity(devicePath: "/dev/video0", name: "HD Pro Webcam C920", driver: "uvcvideo", serial: "AAAA1111",
                           path: "pci-0000:00:14.0-usb-0:1:1.0", usb: "046d:082d"),
            CameraIdentity(devicePath: "/dev/video2", name: "HD Pro Webcam C920", driver: "uvcvideo", serial: "BBBB2222",
                           path: "pci-0000:00:14.0-usb-0:2:1.0", usb: "046d:082d"),
            // No ID_SERIAL_SHORT: the serial comes from the USB device's sysfs attribute.
            CameraIdentity(devicePath: "/dev/video4", name: "Logitech BRIO", driver: "uvcvideo", serial: "CCCC3333",
                           path: "pci-0000:00:14.0-usb-0:3:1.0", usb: "046d:085e"),
        ])
        // The rig rules work on what udev gave.
        let lenses = [Rig.Lens(name: "wide", source: .camera(.serial("BBBB2222"))),
                      Rig.Lens(name: "tele", source: .camera(.name("brio"))),
                      Rig.Lens(name: "spare", source: .camera(.usb("1234:5678")))]
        let match = try CameraMatcher.match(cameras, to: lenses)
        XCTAssertEqual(match.camera(for: "wide")?.devicePath, "/dev/video2")
        XCTAssertEqual(match.camera(for: "tele")?.devicePath, "/dev/video4")
        XCTAssertEqual(match.unmatchedLenses, ["spare"])
        XCTAssertEqual(match.unmatchedCameras.map(\.devicePath), ["/dev/video0"])
        // The nodes open (pseudo-terminals) but answer no V4L2 ioctl: described without modes, not dropped.
        let described = try UdevDeviceManager().describeCameras()
        XCTAssertEqual(described.map(\.identity.devicePath), ["/dev/video0", "/dev/video2", "/dev/video4"])
    }

    func testHotPlug() throws {
        try scenario("hotplug")
        let watcher = UdevWatcher()
        XCTAssertEqual(try watcher.enumerate(), [])
        let log = UdevEventLog()
        let sentinelSeen = expectation(description: "sentinel camera END attached")
        try watcher.start { event in
            log.append(event)
            if case .attached(let camera) = event, camera.serial == "END" { sentinelSeen.fulfill() }
        }
        wait(for: [sentinelSeen], timeout: 30)
        watcher.stop()
        watcher.stop()
        let c920 = CameraIdentity(devicePath: "/dev/video0", name: "HD Pro Webcam C920", driver: "uvcvideo",
                                  serial: "AAAA1111", path: "pci-0000:00:14.0-usb-0:1:1.0", usb: "046d:082d")
        let events = log.all
        XCTAssertEqual(Array(events.dropLast()), [.attached(c920), .detached(c920), .attached(c920)],
                       "add, change (same identity: nothing), metadata node (nothing), remove, re-plug")
        XCTAssertEqual(events.last.map { if case .attached(let c) = $0 { return c.devicePath } else { return "" } },
                       "/dev/video8")
    }
}

extension UdevInsideTestbedTests {
    func testQueryCapFiltersTheMetadataNodeAndFormatsAreRead() throws {
        try scenario("ioctl")
        let cameras = try UdevDeviceManager().cameras()
        XCTAssertEqual(cameras, [CameraIdentity(devicePath: "/dev/video0", name: "Fake C920", driver: "uvcvideo",
                                                bus: "usb-0000:00:14.0-1", serial: "AAAA1111",
                                                path: "pci-0000:00:14.0-usb-0:1:1.0", usb: "046d:082d")])
        let described = try UdevDeviceManager().describeCameras()
        XCTAssertEqual(described.count, 1)
        XCTAssertNil(described.first?.problem)
        XCTAssertEqual(described.first?.modes, [
            V4L2Mode(pixelFormat: .mjpeg, width: 1280, height: 720, rates: [FrameRate(30), FrameRate(15)]),
            V4L2Mode(pixelFormat: .yuyv, width: 640, height: 480, rates: [FrameRate(30)]),
        ])
        XCTAssertEqual(described.first?.controls.map(\.id), [.zoomAbsolute, .panAbsolute, .tiltAbsolute])
        XCTAssertEqual(described.first?.controls.first?.info,
                       V4L2ControlInfo(id: V4L2ControlID.zoomAbsolute.id, name: "Zoom, Absolute", type: .integer,
                                       minimum: 100, maximum: 500, step: 1, defaultValue: 100))
    }
}

extension UdevInsideTestbedTests {
    func testUSBTopologyIsReadFromSysfs() throws {
        try scenario("usbplan")
        XCTAssertEqual(try UdevUSBTopology.buses(), [
            USBBus(number: 1, speed: .high, controller: "0000:00:14.0"),
            USBBus(number: 2, speed: .superSpeed, controller: "0000:00:14.0"),
            USBBus(number: 3, speed: .high, controller: "0000:03:00.0"),
        ])
        let described = try UdevDeviceManager().describeCameras()
        XCTAssertEqual(described.map(\.identity.devicePath), ["/dev/video0", "/dev/video2", "/dev/video4", "/dev/video6"])
        XCTAssertEqual(described.map(\.usbPlacement), [
            USBPlacement(bus: 1, port: "1.1", speed: .high, version: "2.00"),
            USBPlacement(bus: 1, port: "1.2", speed: .high, version: "2.00"),
            USBPlacement(bus: 1, port: "4", speed: .high, version: "3.20"),
            USBPlacement(bus: 3, port: "2", speed: .high, version: "2.00"),
        ])
        XCTAssertTrue(described[2].usbPlacement?.isSuperSpeedCameraOnSlowerLink ?? false, "the BRIO on a USB 2 port")
    }
}
