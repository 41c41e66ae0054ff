import CV4L2
import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// UVC 1.5's region of interest on a V4L2 camera. No camera here has the control, so what can be checked without
/// one is: the control IDs are upstream Linux's, the `VIDIOC_S_EXT_CTRLS` argument is laid out as the kernel reads
/// it, and `V4L2Controls` uses the region (and its automatic controls) only where a camera has it.
final class V4L2RegionOfInterestTests: XCTestCase {
    func testTheControlIDsAreUpstreamLinuxs() {
        // V4L2_CID_USER_BASE (0x00980900) + 0x11e0 is V4L2_CID_USER_UVC_BASE; RECT is +1, AUTO +2.
        XCTAssertEqual(pausecam_v4l2_cid_uvc_region_of_interest_rect(), 0x0098_1ae1)
        XCTAssertEqual(pausecam_v4l2_cid_uvc_region_of_interest_auto(), 0x0098_1ae2)
        XCTAssertEqual(V4L2ControlID.regionOfInterestAuto.id, 0x0098_1ae2)
        XCTAssertEqual(pausecam_v4l2_ctrl_type_rect(), 0x0107)
        XCTAssertEqual(pausecam_v4l2_uvc_region_of_interest_auto_exposure(), 1)
        XCTAssertEqual(pausecam_v4l2_uvc_region_of_interest_auto_focus(), 8)
    }

    func testTheExtendedControlsArgumentHoldsOneRectangleAtTheCurrentValue() {
        let region = PixelRect(x: 888, y: 468, width: 144, height: 96)
        let id = pausecam_v4l2_cid_uvc_region_of_interest_rect()
        V4L2RectangleControl.withExtendedControls(id: id, rectangle: region) { controls in
            XCTAssertEqual(controls.pointee.which, UInt32(V4L2_CTRL_WHICH_CUR_VAL))
            XCTAssertEqual(controls.pointee.count, 1)
            let control = controls.pointee.controls.pointee
            XCTAssertEqual(control.id, id)
            XCTAssertEqual(control.size, 16, "struct v4l2_rect is four 32-bit fields")
            let rectangle = control.ptr.assumingMemoryBound(to: v4l2_rect.self).pointee
            XCTAssertEqual([rectangle.left, rectangle.top], [888, 468])
            XCTAssertEqual([rectangle.width, rectangle.height], [144, 96])
            // The kernel reads the union's pointer 12 bytes into the packed 20-byte struct v4l2_ext_control.
            XCTAssertEqual(MemoryLayout<v4l2_ext_control>.size, 20)
            let pointerBits = withUnsafeBytes(of: control) { $0.loadUnaligned(fromByteOffset: 12, as: UInt.self) }
            XCTAssertEqual(pointerBits, UInt(bitPattern: control.ptr))
        }
    }

    /// A camera with the rectangle and the automatic-controls bitmask (exposure, iris, focus offered).
    func regionCamera(autofocusButton: Bool) -> V4L2FakeDevice {
        let device = V4L2FakeDevice(modes: [])
        let rectangle = pausecam_v4l2_cid_uvc_region_of_interest_rect()
        device.extendedControls[rectangle] = V4L2ExtendedControlInfo(id: rectangle, type: 0x0107, elementSize: 16)
        let automatic = V4L2ControlID.regionOfInterestAuto.id
        device.controls[automatic] = V4L2ControlInfo(id: automatic, name: "Region of Interest Auto Ctrls",
                                                     type: .bitmask, minimum: 0, maximum: 0b1011, defaultValue: 1)
        if autofocusButton {
            let button = V4L2ControlID.autoFocusStart.id
            device.controls[button] = V4L2ControlInfo(id: button, name: "Auto Focus, Start", type: .button,
                                                      minimum: 0, maximum: 0, defaultValue: 0)
        }
        return device
    }

    func testACameraWithARegionGetsTheRectangleItsAutomaticControlsAndOneFocus() throws {
        let device = regionCamera(autofocusButton: true)
        var warnings: [String] = []
        let controls = V4L2Controls(device: device, cameraName: "/dev/video9 (Fake Cam)") { warnings.append($0) }
        let region = PixelRect(x: 100, y: 50, width: 216, height: 216)
        XCTAssertTrue(try controls.setRegionOfInterest(region))
        XCTAssertEqual(device.rectangleWrites.map(\.0), [pausecam_v4l2_cid_uvc_region_of_interest_rect()])
        XCTAssertEqual(device.rectangleWrites.map(\.1), [region])
        XCTAssertEqual(device.controlWrites.map(\.0), [V4L2ControlID.regionOfInterestAuto.id,
                                                        V4L2ControlID.autoFocusStart.id])
        // Exposure and focus, both offered (bits 0 and 3 of 0b1011).
        XCTAssertEqual(device.controlWrites.map(\.1), [0b1001, 1])
        XCTAssertEqual(warnings, [])
    }

    func testACameraWithoutARegionChangesNothing() throws {
        let device = V4L2FakeDevice(modes: [])
        let button = V4L2ControlID.autoFocusStart.id
        device.controls[button] = V4L2ControlInfo(id: button, name: "Auto Focus, Start", type: .button,
                                                  minimum: 0, maximum: 0, defaultValue: 0)
        let controls = V4L2Controls(device: device, cameraName: "/dev/video9 (Fake Cam)") { _ in }
        XCTAssertFalse(try controls.setRegionOfInterest(PixelRect(x: 0, y: 0, width: 2, height: 2)))
        XCTAssertTrue(device.rectangleWrites.isEmpty)
        XCTAssertTrue(device.controlWrites.isEmpty)
        // The fallback: the one-shot button where the camera has it.
        controls.startOneShotAutofocus()
        XCTAssertEqual(device.controlWrites.map(\.0), [button])
    }

    func testOneShotAutofocusWithoutTheButtonTurnsAutofocusOn() {
        let device = V4L2FakeDevice(modes: [])
        let focusAuto = V4L2ControlID.focusAuto.id
        device.controls[focusAuto] = V4L2ControlInfo(id: focusAuto, name: "Focus, Automatic Continuous",
                                                     type: .boolean, minimum: 0, maximum: 1, defaultValue: 0)
        let controls = V4L2Controls(device: device, cameraName: "/dev/video9 (Fake Cam)") { _ in }
        controls.startOneShotAutofocus()
        XCTAssertEqual(device.controlWrites.map(\.0), [focusAuto])
        XCTAssertEqual(device.controlWrites.map(\.1), [1])
    }
}
