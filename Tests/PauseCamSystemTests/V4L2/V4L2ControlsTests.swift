import PauseCamCore
@testable import PauseCamSystem
import XCTest

final class V4L2ControlsTests: XCTestCase {
    /// A UVC-like camera: exposure menu with only manual and aperture priority, no exposure bias, no zoom.
    func uvcCamera() -> V4L2FakeDevice {
        let device = V4L2FakeDevice(modes: [])
        func add(_ control: V4L2ControlID, _ type: V4L2ControlInfo.Kind, _ min: Int32, _ max: Int32, _ def: Int32) {
            device.controls[control.id] = V4L2ControlInfo(id: control.id, name: "\(control)", type: type,
                                                          minimum: min, maximum: max, defaultValue: def)
        }
        add(.exposureAuto, .menu, 0, 3, 3)
        add(.exposureTimeAbsolute, .integer, 3, 2047, 250)
        add(.gain, .integer, 0, 255, 0)
        add(.focusAuto, .boolean, 0, 1, 1)
        add(.focusAbsolute, .integer, 0, 250, 0)
        add(.powerLineFrequency, .menu, 0, 2, 2)
        device.menus[V4L2ControlID.exposureAuto.id] = [V4L2MenuItem(index: 1, name: "Manual Mode"),
                                                      V4L2MenuItem(index: 3, name: "Aperture Priority Mode")]
        return device
    }

    func writes(_ device: V4L2FakeDevice) -> [String] {
        device.controlWrites.map { write in
            let name = V4L2ControlID.allCases.first { $0.id == write.0 }.map { "\($0)" } ?? "?"
            return "\(name)=\(write.1)"
        }
    }

    func testControlsMapToIDsAndValues() {
        let device = uvcCamera()
        var warnings: [String] = []
        let controls = V4L2Controls(device: device, cameraName: "/dev/video9 (Fake Cam)") { warnings.append($0) }
        controls.apply(Rig.Controls(exposure: .manual(100), focus: .manual(40), powerLine: .hz50))
        controls.apply(.manual(time: .milliseconds(20), gain: 64))
        controls.apply(.auto)
        controls.setFocus(.auto)
        XCTAssertEqual(writes(device), [
            "auto_exposure=1", "exposure_time_absolute=100",
            "focus_automatic_continuous=0", "focus_absolute=40",
            "power_line_frequency=1",
            "auto_exposure=1", "exposure_time_absolute=200", "gain=64",
            // UVC offers no plain "auto": aperture priority stands in.
            "auto_exposure=3",
            "focus_automatic_continuous=1",
        ])
        XCTAssertEqual(warnings, [])
    }

    func testMissingControlWarnsOnceNamingCameraAndControlAndGoesOn() {
        let device = uvcCamera()
        var warnings: [String] = []
        let controls = V4L2Controls(device: device, cameraName: "/dev/video9 (Fake Cam)") { warnings.append($0) }
        controls.setZoom(absolute: 200)
        controls.setZoom(absolute: 300)
        controls.apply(.bias(1))
        controls.apply(.bias(-1))
        XCTAssertEqual(warnings.count, 2, "\(warnings)")
        XCTAssertTrue(warnings[0].contains("/dev/video9 (Fake Cam)") && warnings[0].contains("zoom_absolute"), warnings[0])
        XCTAssertTrue(warnings[1].contains("auto_exposure_bias"), warnings[1])
        XCTAssertEqual(writes(device), ["auto_exposure=3", "auto_exposure=3"], "auto exposure still set for a bias")
    }

    func testOutOfRangeValuesAreClampedWithAWarning() {
        let device = uvcCamera()
        var warnings: [String] = []
        let controls = V4L2Controls(device: device, cameraName: "cam") { warnings.append($0) }
        controls.setFocus(.manual(999))
        XCTAssertEqual(writes(device), ["focus_automatic_continuous=0", "focus_absolute=250"])
        XCTAssertEqual(warnings.count, 1)
    }

    func testExposureBiasPicksNearestIntegerMenuItem() {
        let device = uvcCamera()
        let bias = V4L2ControlID.autoExposureBias.id
        device.controls[bias] = V4L2ControlInfo(id: bias, name: "bias", type: .integerMenu, minimum: 0, maximum: 4,
                                                defaultValue: 2)
        device.menus[bias] = [-2000, -1000, 0, 1000, 2000].enumerated().map {
            V4L2MenuItem(index: UInt32($0.offset), value: Int64($0.element))
        }
        let controls = V4L2Controls(device: device, cameraName: "cam") { _ in }
        controls.apply(.bias(0.7))
        XCTAssertEqual(writes(device), ["auto_exposure=3", "auto_exposure_bias=3"])
    }
}
