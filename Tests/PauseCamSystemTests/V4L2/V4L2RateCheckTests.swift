import PauseCamCore
import PauseCamSystem
import XCTest

/// The rate check `pausecam check` and `pausecam devices --rig` share, as a table over described cameras: no
/// device is opened here (the umockdev end-to-end test runs it against real libudev).
final class V4L2RateCheckTests: XCTestCase {
    static let camera = CameraDescription(
        identity: CameraIdentity(devicePath: "/dev/video2", name: "C920", serial: "AAAA"),
        modes: [V4L2Mode(pixelFormat: .mjpeg, width: 1920, height: 1080, rates: [FrameRate(30)]),
                V4L2Mode(pixelFormat: .yuyv, width: 1920, height: 1080, rates: [FrameRate(5)]),
                V4L2Mode(pixelFormat: .yuyv, width: 640, height: 480, rates: [FrameRate(30)])])

    static func lens(_ format: Rig.Lens.CaptureFormat, _ width: Int?, _ height: Int?, serial: String = "AAAA",
                     rate: FrameRate? = nil) -> Rig.Lens {
        Rig.Lens(name: "wide", source: .camera(.serial(serial)), format: format, width: width, height: height, rate: rate)
    }

    func testEachFindingOfTheTable() {
        let cases: [(Rig.Lens, CameraDescription, V4L2RateCheck.Finding)] = [
            (Self.lens(.mjpeg, 1920, 1080), Self.camera,
             .keepsUp(camera: "/dev/video2", choice: V4L2FormatChoice(pixelFormat: .mjpeg, width: 1920, height: 1080,
                                                                      rate: FrameRate(30)))),
            (Self.lens(.yuyv, 640, 480), Self.camera,
             .keepsUp(camera: "/dev/video2", choice: V4L2FormatChoice(pixelFormat: .yuyv, width: 640, height: 480,
                                                                      rate: FrameRate(30)))),
            (Self.lens(.mjpeg, 1920, 1080), CameraDescription(identity: Self.camera.identity, modes: [
                V4L2Mode(pixelFormat: .mjpeg, width: 1920, height: 1080, rates: [FrameRate(15)])]),
             .tooSlow(advice: "lens wide: /dev/video2 delivers 15 fps at 1920x1080, slower than the movie's 30 fps: "
                      + "its frames will be repeated (motion stutters); a smaller `size` lets it keep up")),
            (Self.lens(.any, 1920, 1080), CameraDescription(identity: Self.camera.identity, problem: "Permission denied"),
             .notChecked(camera: "/dev/video2", problem: "Permission denied")),
        ]
        for (lens, camera, expected) in cases {
            XCTAssertEqual(V4L2RateCheck.finding(lens: lens, camera: camera, output: FrameRate(30)), expected,
                           "\(lens.format) \(lens.width ?? 0)x\(lens.height ?? 0)")
        }
    }

    func testYUYVAt1080pIsTooSlowAndTheAdviceNamesMJPEG() {
        guard case .tooSlow(let advice) = V4L2RateCheck.finding(lens: Self.lens(.yuyv, 1920, 1080), camera: Self.camera,
                                                                 output: FrameRate(30)) else {
            return XCTFail("YUYV 1080p at 5 fps keeps up with 30 fps?")
        }
        XCTAssertTrue(advice.contains("delivers 5 fps at 1920x1080"), advice)
        XCTAssertTrue(advice.contains("`format: mjpeg` or a smaller `size`"), advice)
    }

    func testTheReportListsCameraLensesOnlyAndAbsentCamerasPlainly() {
        let rig = Rig(name: "Desk", lenses: [
            Self.lens(.yuyv, 640, 480),
            Rig.Lens(name: "tele", source: .camera(.serial("GONE"))),
            Rig.Lens(name: "main", source: .virtual(color: RGBColor(red: 1, green: 2, blue: 3))),
        ], defaultLens: "main")
        XCTAssertEqual(V4L2RateCheck.report(rig: rig, cameras: [Self.camera]), """
              camera rates (for 30 fps):
                wide: /dev/video2 keeps up: 30 fps at 640x480 YUYV
                tele: not connected: rate not checked

            """)
        XCTAssertEqual(V4L2RateCheck.report(rig: rig, cameras: nil, problem: "udev: no /sys"), """
              camera rates (for 30 fps):
                not checked: udev: no /sys

            """)
        let virtualOnly = Rig(name: "Virtual", lenses: [rig.lenses[2]], defaultLens: "main")
        XCTAssertEqual(V4L2RateCheck.report(rig: virtualOnly, cameras: []), "", "no camera lens, no section")
    }
}
