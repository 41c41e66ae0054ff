import PauseCamCore
@testable import PauseCamSystem
import XCTest

final class UdevIdentityReaderTests: XCTestCase {
    let properties = ["ID_SERIAL_SHORT": "A1B2", "ID_SERIAL": "Logitech_C920_A1B2", "ID_PATH": "pci-0000:00:14.0-usb-0:2:1.0",
                      "ID_VENDOR_ID": "046D", "ID_MODEL_ID": "082D", "ID_V4L_PRODUCT": "C920 (udev)",
                      "ID_USB_DRIVER": "uvcvideo", "ID_V4L_CAPABILITIES": ":capture:"]
    let capability = V4L2Capability(driver: "uvcvideo", card: "HD Pro Webcam C920", busInfo: "usb-0000:00:14.0-2",
                                    nodeCapabilities: [.videoCapture, .streaming])

    func testQueryCapAnswersWinAndUdevFillsTheRest() {
        let identity = UdevIdentityReader.identity(devicePath: "/dev/video2", properties: properties,
                                                   nameAttribute: "sysfs name", usbAttributes: [:],
                                                   capability: capability)
        XCTAssertEqual(identity, CameraIdentity(devicePath: "/dev/video2", name: "HD Pro Webcam C920",
                                                driver: "uvcvideo", bus: "usb-0000:00:14.0-2", serial: "A1B2",
                                                path: "pci-0000:00:14.0-usb-0:2:1.0", usb: "046d:082d"))
    }

    func testFallbacksWithoutTheNodeOrTheUdevDatabase() {
        // A removal event: properties only.
        XCTAssertEqual(UdevIdentityReader.identity(devicePath: "/dev/video2", properties: properties, nameAttribute: nil,
                                                   usbAttributes: [:], capability: nil).name, "C920 (udev)")
        // No udev database (a container): sysfs attributes only.
        let bare = UdevIdentityReader.identity(devicePath: "/dev/video2", properties: [:], nameAttribute: "Cam",
                                               usbAttributes: ["idVendor": "1D6B", "idProduct": "0104", "serial": "S9"],
                                               capability: nil)
        XCTAssertEqual(bare, CameraIdentity(devicePath: "/dev/video2", name: "Cam", serial: "S9", usb: "1d6b:0104"))
        // Nothing at all: the node names itself.
        XCTAssertEqual(UdevIdentityReader.identity(devicePath: "/dev/video7", properties: [:], nameAttribute: nil,
                                                   usbAttributes: [:], capability: nil).name, "/dev/video7")
    }

    func testCaptureNodeDecision() {
        let metadata = V4L2Capability(driver: "uvcvideo", card: "C920", busInfo: "", nodeCapabilities: [.metaCapture])
        XCTAssertTrue(UdevIdentityReader.isCaptureNode(capabilitiesProperty: ":capture:", capability: nil))
        XCTAssertFalse(UdevIdentityReader.isCaptureNode(capabilitiesProperty: ":", capability: nil))
        XCTAssertFalse(UdevIdentityReader.isCaptureNode(capabilitiesProperty: nil, capability: nil))
        XCTAssertFalse(UdevIdentityReader.isCaptureNode(capabilitiesProperty: ":capture:", capability: metadata),
                       "the node's own answer wins")
        XCTAssertTrue(UdevIdentityReader.isCaptureNode(capabilitiesProperty: nil, capability: capability))
    }
}
