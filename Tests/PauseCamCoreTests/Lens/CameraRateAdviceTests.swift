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

/// A lens's `latency:` is part of the clip's record: the sidecar's device entry says how much was taken off.
final class SidecarLatencyTests: XCTestCase {
    func testTheSidecarRecordsEachLensesLatency() throws {
        var rig = EngineFixture.makeRig()
        rig.lenses[0].latency = .milliseconds(40)
        let fixture = EngineFixture.makeFixture(rig: rig)
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        let devices = Dictionary(uniqueKeysWithValues: clip.sidecar.devices.map { ($0.role, $0) })
        XCTAssertEqual(devices["wide"]?.latency, 0.04)
        XCTAssertNil(devices["main"]?.latency, "absent when the rig sets none")
        let json = String(decoding: try clip.sidecar.encoded(), as: UTF8.self)
        XCTAssertTrue(json.contains("\"latency\" : 0.04"), json)
    }
}
