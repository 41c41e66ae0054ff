import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// The webcam output against a fake loopback device: the format it sets, the pictures it writes (in order, with
/// the lens's colours), the newest frame winning while the device is slow, and a device that goes away.
final class V4L2LoopbackOutputTests: XCTestCase {
    /// Limited-range BT.601 colours (Y, Cb, Cr): what a reader of the device should find in the middle.
    static let red: (UInt8, UInt8, UInt8) = (81, 90, 240)
    static let blue: (UInt8, UInt8, UInt8) = (41, 240, 110)
    static let green: (UInt8, UInt8, UInt8) = (145, 54, 34)

    /// A solid yuv420p frame of `colour`.
    static func frame(_ colour: (UInt8, UInt8, UInt8), lens: String, width: Int = 320, height: Int = 240,
                      index: Int64 = 0) -> VideoFrame {
        VideoFrame(pts: MediaTime(value: index, timescale: 30), width: width, height: height, format: .yuv420p,
                   planes: [Plane(bytes: [UInt8](repeating: colour.0, count: width * height), stride: width),
                            Plane(bytes: [UInt8](repeating: colour.1, count: width * height / 4), stride: width / 2),
                            Plane(bytes: [UInt8](repeating: colour.2, count: width * height / 4), stride: width / 2)],
                   lens: lens)
    }

    /// A solid YUYV frame of `colour` (what most webcams deliver).
    static func yuyvFrame(_ colour: (UInt8, UInt8, UInt8), lens: String, width: Int, height: Int) -> VideoFrame {
        let row = (0..<width / 2).flatMap { _ in [colour.0, colour.1, colour.0, colour.2] }
        return VideoFrame(pts: .zero, width: width, height: height, format: .yuyv422,
                          planes: [Plane(bytes: Array((0..<height).map { _ in row }.joined()), stride: width * 2)],
                          lens: lens)
    }

    /// The (Y, Cb, Cr) of the YUYV pixel pair in the middle of a `width`×`height` picture.
    static func middle(_ picture: [UInt8], width: Int, height: Int) -> (Int, Int, Int) {
        let offset = (height / 2) * width * 2 + (width / 2) * 2
        return (Int(picture[offset]), Int(picture[offset + 1]), Int(picture[offset + 3]))
    }

    static func assertColour(_ picture: [UInt8], _ colour: (UInt8, UInt8, UInt8), width: Int = 320, height: Int = 240,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(picture.count, width * height * 2, "one whole YUYV picture per write", file: file, line: line)
        guard picture.count == width * height * 2 else { return }
        let (y, cb, cr) = middle(picture, width: width, height: height)
        XCTAssertLessThanOrEqual(abs(y - Int(colour.0)), 2, "Y \(y) for \(colour.0)", file: file, line: line)
        XCTAssertLessThanOrEqual(abs(cb - Int(colour.1)), 2, "Cb \(cb) for \(colour.1)", file: file, line: line)
        XCTAssertLessThanOrEqual(abs(cr - Int(colour.2)), 2, "Cr \(cr) for \(colour.2)", file: file, line: line)
    }

    private func makeOutput(_ device: V4L2LoopbackFakeDevice, width: Int = 320, height: Int = 240,
                            ended: (@Sendable (V4L2LoopbackError) -> Void)? = nil) throws -> V4L2LoopbackOutput {
        try V4L2LoopbackOutput(device: device, width: width, height: height, rate: FrameRate(30),
                               onEnded: ended ?? { _ in })
    }

    func testSetsYUYVAtTheProgramsSizeAndRate() throws {
        let device = V4L2LoopbackFakeDevice()
        let output = try makeOutput(device, width: 641, height: 361)
        defer { output.close() }
        XCTAssertEqual(device.formatsSet.count, 1)
        XCTAssertEqual(device.formatsSet.first?.0, .yuyv)
        XCTAssertEqual(device.formatsSet.first?.1, 640, "made even, as the canvas is")
        XCTAssertEqual(device.formatsSet.first?.2, 360)
        XCTAssertEqual(device.ratesSet, [FrameRate(30)])
        XCTAssertEqual(output.format.pixelFormat, .yuyv)
        XCTAssertEqual(output.name, "/dev/video42")
    }

    func testWritesEachFrameInOrderWithItsLensColours() throws {
        let device = V4L2LoopbackFakeDevice()
        let output = try makeOutput(device)
        defer { output.close() }
        let colours = [Self.red, Self.blue, Self.green, Self.red]
        for (index, colour) in colours.enumerated() {
            output.appendVideo(Self.frame(colour, lens: "lens\(index)", index: Int64(index)),
                               at: MediaTime(value: Int64(index), timescale: 30))
            XCTAssertTrue(device.wait { _, written, _ in written == index + 1 }, "frame \(index) written")
        }
        let written = device.written
        XCTAssertEqual(written.count, colours.count)
        for (picture, colour) in zip(written, colours) { Self.assertColour(picture, colour) }
        output.close()  // joins the writer, whose count follows each write
        XCTAssertEqual(output.statistics.framesWritten, colours.count)
    }

    func testFramesOfAnotherSizeAndFormatAreFittedToTheProgram() throws {
        let device = V4L2LoopbackFakeDevice()
        let output = try makeOutput(device)
        defer { output.close() }
        output.appendVideo(Self.yuyvFrame(Self.blue, lens: "tele", width: 640, height: 480), at: .zero)
        XCTAssertTrue(device.wait { _, written, _ in written == 1 })
        Self.assertColour(device.written[0], Self.blue)
    }

    func testAnHDProgramIsWrittenInBT601AsWebcamReadersAssume() throws {
        // The HD canvas is BT.709 (the movie's standard); a YUYV webcam picture is read as BT.601.
        let device = V4L2LoopbackFakeDevice()
        let output = try makeOutput(device, width: 1280, height: 720)
        defer { output.close() }
        output.appendVideo(Self.frame(Self.red, lens: "wide", width: 1280, height: 720), at: .zero)
        XCTAssertTrue(device.wait { _, written, _ in written == 1 })
        Self.assertColour(device.written[0], Self.red, width: 1280, height: 720)
    }

    func testTheNewestFrameWinsWhileTheDeviceIsSlowAndTheCallerNeverWaits() throws {
        let device = V4L2LoopbackFakeDevice()
        let output = try makeOutput(device)
        defer { output.close() }
        device.hold()
        output.appendVideo(Self.frame(Self.red, lens: "wide"), at: .zero)
        XCTAssertTrue(device.wait { started, _, _ in started == 1 }, "the first write is under way")
        // The device is stuck in the first write: these hand-overs return at once, each replacing the one before.
        output.appendVideo(Self.frame(Self.blue, lens: "main", index: 1), at: MediaTime(value: 1, timescale: 30))
        output.appendVideo(Self.frame(Self.blue, lens: "main", index: 2), at: MediaTime(value: 2, timescale: 30))
        output.appendVideo(Self.frame(Self.green, lens: "tele", index: 3), at: MediaTime(value: 3, timescale: 30))
        XCTAssertEqual(device.written.count, 0, "nothing finished while the device holds the write")
        device.release()
        XCTAssertTrue(device.wait { _, written, _ in written == 2 })
        let written = device.written
        Self.assertColour(written[0], Self.red)
        Self.assertColour(written[1], Self.green)
        XCTAssertEqual(output.statistics.framesReplaced, 2)
    }

    func testADeviceThatGoesAwayEndsTheOutputOnceWithAnEvent() throws {
        let device = V4L2LoopbackFakeDevice()
        let endings = Guarded<[V4L2LoopbackError]>([])
        let output = try makeOutput(device, ended: { error in endings.withLock { $0.append(error) } })
        defer { output.close() }
        output.appendVideo(Self.frame(Self.red, lens: "wide"), at: .zero)
        XCTAssertTrue(device.wait { _, written, _ in written == 1 })
        device.failWrites(with: ENODEV)
        output.appendVideo(Self.frame(Self.blue, lens: "main", index: 1), at: MediaTime(value: 1, timescale: 30))
        XCTAssertTrue(device.wait { _, _, closed in closed }, "the output closes the device that went away")
        output.appendVideo(Self.frame(Self.green, lens: "tele", index: 2), at: MediaTime(value: 2, timescale: 30))
        output.close()
        let ended = endings.withLock { $0 }
        XCTAssertEqual(ended.count, 1, "told once")
        XCTAssertEqual(ended.first?.isGone, true)
        XCTAssertEqual(output.statistics.ended?.isGone, true)
        XCTAssertEqual(output.statistics.framesWritten, 1)
        XCTAssertTrue(ended.first?.description.contains("ENODEV") ?? false, ended.first?.description ?? "")
    }

    func testACameraNodeIsRefusedAndLeftClosed() {
        let device = V4L2LoopbackFakeDevice(card: "HD Pro Webcam C920", nodeCapabilities: [.videoCapture, .streaming],
                                            driver: "uvcvideo")
        XCTAssertThrowsError(try makeOutput(device)) { error in
            guard case V4L2LoopbackError.notLoopback(let path, "uvcvideo", "HD Pro Webcam C920") = error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(path, "/dev/video42")
        }
        XCTAssertTrue(device.isClosed)
        XCTAssertTrue(device.formatsSet.isEmpty, "never touches a camera's format")
    }

    func testALoopbackAnotherProgramWritesToIsBusy() {
        // With exclusive_caps=1 a loopback that has a writer offers capture only.
        let device = V4L2LoopbackFakeDevice(nodeCapabilities: [.videoCapture, .streaming])
        XCTAssertThrowsError(try makeOutput(device)) { error in
            XCTAssertEqual(error as? V4L2LoopbackError, .busy(device: "/dev/video42", card: "PauseCam"))
            XCTAssertTrue("\(error)".contains("busy"))
        }
        XCTAssertTrue(device.isClosed)
    }

    func testASizeTheDeviceDoesNotTakeIsRefused() {
        let device = V4L2LoopbackFakeDevice()
        device.takeSize(width: 640, height: 480)
        XCTAssertThrowsError(try makeOutput(device, width: 1280, height: 720)) { error in
            XCTAssertEqual(error as? V4L2LoopbackError,
                           .formatRefused(device: "/dev/video42", wanted: "YUYV 1280x720", got: "YUYV 640x480"))
        }
        XCTAssertTrue(device.isClosed)
    }
}
