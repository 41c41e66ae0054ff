import PauseCamCore
@testable import PauseCamSystem
import XCTest

final class V4L2FormatChooserTests: XCTestCase {
    /// A typical UVC webcam: MJPEG up to 1080p30, YUYV only small sizes at full rate.
    let webcam: [V4L2Mode] = [
        V4L2Mode(pixelFormat: .yuyv, width: 640, height: 480, rates: [FrameRate(30), FrameRate(15)]),
        V4L2Mode(pixelFormat: .yuyv, width: 1920, height: 1080, rates: [FrameRate(5)]),
        V4L2Mode(pixelFormat: .mjpeg, width: 1920, height: 1080, rates: [FrameRate(60), FrameRate(30), FrameRate(15)]),
        V4L2Mode(pixelFormat: .mjpeg, width: 1280, height: 720, rates: [FrameRate(30)]),
        V4L2Mode(pixelFormat: .mjpeg, width: 640, height: 480, rates: [FrameRate(30)]),
    ]

    func choose(_ format: Rig.Lens.CaptureFormat, _ width: Int? = nil, _ height: Int? = nil,
                _ rate: FrameRate? = nil, modes: [V4L2Mode]? = nil) throws -> V4L2FormatChoice {
        try V4L2FormatChooser.choose(format: format, width: width, height: height, rate: rate,
                                     from: modes ?? webcam, device: "/dev/video0")
    }

    func testTable() throws {
        let table: [(Rig.Lens.CaptureFormat, Int?, Int?, FrameRate?, V4L2FormatChoice)] = [
            // No request: the largest MJPEG mode, capped at 30 fps.
            (.any, nil, nil, nil, V4L2FormatChoice(pixelFormat: .mjpeg, width: 1920, height: 1080, rate: FrameRate(30))),
            // Exact size and rate.
            (.mjpeg, 1280, 720, FrameRate(30), V4L2FormatChoice(pixelFormat: .mjpeg, width: 1280, height: 720, rate: FrameRate(30))),
            // Exact rate above the cap when asked.
            (.mjpeg, 1920, 1080, FrameRate(60), V4L2FormatChoice(pixelFormat: .mjpeg, width: 1920, height: 1080, rate: FrameRate(60))),
            // A rate not offered: the fastest not faster (25 → 15).
            (.mjpeg, 1920, 1080, FrameRate(25), V4L2FormatChoice(pixelFormat: .mjpeg, width: 1920, height: 1080, rate: FrameRate(15))),
            // YUYV asked: YUYV, the size not larger than 1280x720 is 640x480.
            (.yuyv, 1280, 720, nil, V4L2FormatChoice(pixelFormat: .yuyv, width: 640, height: 480, rate: FrameRate(30))),
            // YUYV 1080p only runs at 5: a faster ask gets the slowest offered.
            (.yuyv, 1920, 1080, FrameRate(30), V4L2FormatChoice(pixelFormat: .yuyv, width: 1920, height: 1080, rate: FrameRate(5))),
            // A size smaller than any: the smallest larger one.
            (.mjpeg, 320, 240, nil, V4L2FormatChoice(pixelFormat: .mjpeg, width: 640, height: 480, rate: FrameRate(30))),
        ]
        for (format, width, height, rate, expected) in table {
            XCTAssertEqual(try choose(format, width, height, rate), expected, "\(format) \(String(describing: width))x\(String(describing: height)) @\(String(describing: rate))")
        }
    }

    func testAnyFallsBackToYUYVAndEmulatedFormatsComeLast() throws {
        let modes = [V4L2Mode(pixelFormat: .mjpeg, width: 640, height: 480, rates: [FrameRate(30)], emulated: true),
                     V4L2Mode(pixelFormat: .yuyv, width: 640, height: 480, rates: [FrameRate(30)])]
        XCTAssertEqual(try choose(.any, modes: modes).pixelFormat, .yuyv)
        XCTAssertEqual(try choose(.mjpeg, modes: modes).pixelFormat, .mjpeg, "emulated is still used when nothing else fits")
    }

    func testNoFittingFormatNamesWhatIsOffered() {
        let modes = [V4L2Mode(pixelFormat: V4L2PixelFormat("H264"), width: 640, height: 480, rates: [FrameRate(30)]),
                     V4L2Mode(pixelFormat: .yuyv, width: 640, height: 480, rates: [FrameRate(30)])]
        XCTAssertThrowsError(try choose(.mjpeg, modes: modes)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("/dev/video0") && text.contains("MJPG") && text.contains("H264, YUYV"), text)
        }
    }

    func testFourCCRoundTrips() {
        XCTAssertEqual(V4L2PixelFormat("MJPG"), .mjpeg)
        XCTAssertEqual(V4L2PixelFormat.yuyv.description, "YUYV")
    }

    /// vivid (a real driver) lists big-endian twins such as V4L2_PIX_FMT_Y16_BE = fourcc("Y16 ") | 1 << 31.
    func testBigEndianFourCCIsNamedNotPrintedAsAByte() {
        let y16 = V4L2PixelFormat("Y16 ")
        let y16BE = V4L2PixelFormat(fourcc: y16.fourcc | V4L2PixelFormat.bigEndianFlag)
        XCTAssertEqual(y16.description, "Y16")
        XCTAssertEqual(y16BE.description, "Y16-BE")
        XCTAssertNotEqual(y16, y16BE)
    }
}
