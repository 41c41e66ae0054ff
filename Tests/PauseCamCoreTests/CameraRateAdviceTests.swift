import XCTest
@testable import PauseCamCore

final class CameraRateAdviceTests: XCTestCase {
    private func format(_ rate: FrameRate, _ pixels: PixelFormat = .yuyv422) -> CameraFormat {
        CameraFormat(width: 1920, height: 1080, rate: rate, pixelFormat: pixels)
    }

    func testACameraThatKeepsUpGetsNoWarning() {
        for rate in [FrameRate(30), FrameRate(60)] {
            XCTAssertNil(CameraRateAdvice.warning(lens: "main", camera: "cam", delivered: format(rate),
                                                  output: FrameRate(30), format: .any))
        }
        // 29.97 into 29.97 is exact, not "slower".
        XCTAssertNil(CameraRateAdvice.warning(lens: "main", camera: "cam", delivered: format(FrameRate(30000, 1001)),
                                              output: FrameRate(30000, 1001), format: .any))
    }

    func testASlowYUYVCameraIsToldAboutMJPEGAndASmallerSize() throws {
        let text = try XCTUnwrap(CameraRateAdvice.warning(lens: "main", camera: "/dev/video2 (C920)",
                                                          delivered: format(FrameRate(5)), output: FrameRate(30),
                                                          format: .any))
        XCTAssertTrue(text.contains("lens main") && text.contains("/dev/video2 (C920)") && text.contains("5 fps")
                      && text.contains("1920x1080") && text.contains("30 fps"), text)
        XCTAssertTrue(text.contains("`format: mjpeg`") && text.contains("smaller `size`"), text)
    }

    func testASlowMJPEGCameraIsToldOnlyAboutTheSize() throws {
        let text = try XCTUnwrap(CameraRateAdvice.warning(lens: "tele", camera: "cam", delivered: format(FrameRate(15), .yuv422p),
                                                          output: FrameRate(30), format: .mjpeg))
        XCTAssertFalse(text.contains("mjpeg"), text)
        XCTAssertTrue(text.contains("smaller `size`"), text)
    }

    func testALensThatAsksForASlowRateIsToldToDropItFirst() throws {
        let text = try XCTUnwrap(CameraRateAdvice.warning(lens: "red", camera: "cam", delivered: format(FrameRate(15)),
                                                          output: FrameRate(30), format: .any, asked: FrameRate(15)))
        XCTAssertTrue(text.contains("removing the lens's `fps: 15`"), text)
        XCTAssertNil(CameraRateAdvice.warning(lens: "red", camera: "cam", delivered: format(FrameRate(30)),
                                              output: FrameRate(30), format: .any, asked: FrameRate(30)))
    }
}
