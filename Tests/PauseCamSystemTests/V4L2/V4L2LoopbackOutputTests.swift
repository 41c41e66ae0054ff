import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// The webcam output against a fake loopback device: the format it sets (I420 unless asked for YUYV), the pictures
/// it writes (in order, with the lens's colours, copied when the frame already is the picture), the newest frame
/// winning while the device is slow, and a device that goes away and comes back.
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

    /// The (Y, Cb, Cr) in the middle of a `width`×`height` picture: packed YUYV when it holds two bytes a pixel,
    /// planar I420 when it holds one and a half.
    static func middle(_ picture: [UInt8], width: Int, height: Int) -> (Int, Int, Int) {
        if picture.count == width * height * 3 / 2 {
            let luma = width * height
            let chroma = (height / 4) * (width / 2) + width / 4
            return (Int(picture[(height / 2) * width + width / 2]), Int(picture[luma + chroma]),
                    Int(picture[luma + luma / 4 + chroma]))
        }
        let offset = (height / 2) * width * 2 + (width / 2) * 2
        return (Int(picture[offset]), Int(picture[offset + 1]), Int(picture[offset + 3]))
    }

    static func assertColour(_ picture: [UInt8], _ colour: (UInt8, UInt8, UInt8), width: Int = 320, height: Int = 240,
                             format: V4L2PixelFormat = .yuv420, file: StaticString = #filePath, line: UInt = #line) {
        let size = format == .yuv420 ? width * height * 3 / 2 : width * height * 2
        XCTAssertEqual(picture.count, size, "one whole \(format) picture per write", file: file, line: line)
        guard picture.count == size else { return }
        let (y, cb, cr) = middle(picture, width: width, height: height)
        XCTAssertLessThanOrEqual(abs(y - Int(colour.0)), 2, "Y \(y) for \(colour.0)", file: file, line: line)
        XCTAssertLessThanOrEqual(abs(cb - Int(colour.1)), 2, "Cb \(cb) for \(colour.1)", file: file, line: line)
        XCTAssertLessThanOrEqual(abs(cr - Int(colour.2)), 2, "Cr \(cr) for \(colour.2)", file: file, line: line)
    }

    private func makeOutput(_ device: V4L2LoopbackFakeDevice, format: V4L2PixelFormat = .yuv420, width: Int = 320,
                            height: Int = 240, blockWhenBehind: Bool = false,
                            reopen: (@Sendable () throws -> any V4L2LoopbackDevice)? = nil,
                            ended: (@Sendable (V4L2LoopbackError) -> Void)? = nil,
                            back: (@Sendable (String) -> Void)? = nil) throws -> V4L2LoopbackOutput {
        try V4L2LoopbackOutput(device: device, pixelFormat: format, width: width, height: height, rate: FrameRate(30),
                               blockWhenBehind: blockWhenBehind, reopen: reopen, reopenInterval: .zero,
                               onLost: ended ?? { _ in }, onBack: back ?? { _ in })
    }

    func testSetsI420AtTheProgramsSizeAndRateByDefault() throws {
        let device = V4L2LoopbackFakeDevice()
        let output = try makeOutput(device, width: 641, height: 361)
        defer { output.close() }
        XCTAssertEqual(device.formatsSet.count, 1)
        XCTAssertEqual(device.formatsSet.first?.0, .yuv420)
        XCTAssertEqual(device.formatsSet.first?.0.description, "YU12")
        XCTAssertEqual(device.formatsSet.first?.1, 640, "made even, as the canvas is")
        XCTAssertEqual(device.formatsSet.first?.2, 360)
        XCTAssertEqual(device.ratesSet, [FrameRate(30)])
        XCTAssertEqual(output.format.pixelFormat, .yuv420)
        XCTAssertEqual(output.name, "/dev/video42")
    }

    func testYUYVIsSetWhenTheRigAsksForIt() throws {
        let device = V4L2LoopbackFakeDevice()
        let output = try makeOutput(device, format: .yuyv)
        defer { output.close() }
        XCTAssertEqual(device.formatsSet.first?.0, .yuyv)
        output.appendVideo(Self.frame(Self.green, lens: "wide"), at: .zero)
        XCTAssertTrue(device.wait { _, written, _ in written == 1 })
        Self.assertColour(device.written[0], Self.green, format: .yuyv)
    }

    func testAFrameThatIsThePictureIsCopiedByteForByte() throws {
        // A lens at the program's size, not zoomed: the I420 picture is its three planes, one after the other, and
        // its rows are taken without the stride's padding.
        let device = V4L2LoopbackFakeDevice()
        let output = try makeOutput(device, width: 4, height: 2)
        defer { output.close() }
        let frame = VideoFrame(pts: .zero, width: 4, height: 2, format: .yuv420p,
                               planes: [Plane(bytes: [16, 17, 18, 19, 0, 0, 20, 21, 22, 23, 0, 0], stride: 6),
                                        Plane(bytes: [100, 101], stride: 2), Plane(bytes: [200, 201], stride: 2)],
                               lens: "wide")
        output.appendVideo(frame, at: .zero)
        XCTAssertTrue(device.wait { _, written, _ in written == 1 })
        XCTAssertEqual(device.written.first, [16, 17, 18, 19, 20, 21, 22, 23, 100, 101, 200, 201])
        output.close()
        XCTAssertEqual(output.statistics.framesCopied, 1)
    }

    func testARepeatedPictureIsWrittenAgainWithoutBeingMadeAgain() throws {
        // The program repeats a picture (a lens slower than the output): the same pixels, a later time.
        let device = V4L2LoopbackFakeDevice()
        let output = try makeOutput(device, blockWhenBehind: true)
        let red = Self.frame(Self.red, lens: "wide")
        var again = red
        again.pts = MediaTime(value: 1, timescale: 30)
        let copy = Self.frame(Self.red, lens: "wide", index: 2)  // equal pixels, but another picture's storage
        var zoomed = copy
        zoomed.pts = MediaTime(value: 3, timescale: 30)
        zoomed.crop = PixelRect(x: 0, y: 0, width: 160, height: 120)
        for (index, frame) in [red, again, copy, zoomed].enumerated() {
            output.appendVideo(frame, at: MediaTime(value: Int64(index), timescale: 30))
        }
        XCTAssertTrue(device.wait { _, written, _ in written == 4 })
        output.close()
        XCTAssertEqual(device.written[1], device.written[0], "the repeat is the same picture")
        for picture in device.written { Self.assertColour(picture, Self.red) }
        let counts = output.statistics
        XCTAssertEqual(counts.framesWritten, 4)
        XCTAssertEqual(counts.framesRepeated, 1, "only the frame sharing the pixels is a repeat")
        XCTAssertEqual(counts.framesCopied, 2)
    }

    func testAZoomedFrameIsDrawnNotCopied() throws {
        let device = V4L2LoopbackFakeDevice()
        let output = try makeOutput(device)
        defer { output.close() }
        var frame = Self.frame(Self.blue, lens: "tele")
        frame.crop = PixelRect(x: 80, y: 60, width: 160, height: 120)
        output.appendVideo(frame, at: .zero)
        XCTAssertTrue(device.wait { _, written, _ in written == 1 })
        Self.assertColour(device.written[0], Self.blue)
        output.close()
        XCTAssertEqual(output.statistics.framesWritten, 1)
        XCTAssertEqual(output.statistics.framesCopied, 0)
    }

    func testEveryFrameIsWrittenWhenTheCallerWaitsForTheWriter() throws {
        // What the benchmark asks for on the simulated clock: no frame replaced, so each one's cost counts.
        let device = V4L2LoopbackFakeDevice()
        let output = try makeOutput(device, blockWhenBehind: true)
        for index in 0..<20 {
            output.appendVideo(Self.frame(index % 2 == 0 ? Self.red : Self.blue, lens: "wide", index: Int64(index)),
                               at: MediaTime(value: Int64(index), timescale: 30))
        }
        XCTAssertTrue(device.wait { _, written, _ in written == 20 })
        output.close()
        XCTAssertEqual(output.statistics.framesWritten, 20)
        XCTAssertEqual(output.statistics.framesReplaced, 0)
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
        // The HD movie's canvas is BT.709; a webcam picture is read as BT.601, in either layout, copied or drawn.
        for format in [V4L2PixelFormat.yuv420, .yuyv] {
            let device = V4L2LoopbackFakeDevice()
            let output = try makeOutput(device, format: format, width: 1280, height: 720)
            defer { output.close() }
            output.appendVideo(Self.frame(Self.red, lens: "wide", width: 1280, height: 720), at: .zero)
            XCTAssertTrue(device.wait { _, written, _ in written == 1 })
            Self.assertColour(device.written[0], Self.red, width: 1280, height: 720, format: format)
            var zoomed = Self.frame(Self.green, lens: "tele", width: 1280, height: 720, index: 1)
            zoomed.crop = PixelRect(x: 320, y: 180, width: 640, height: 360)
            output.appendVideo(zoomed, at: MediaTime(value: 1, timescale: 30))
            XCTAssertTrue(device.wait { _, written, _ in written == 2 })
            Self.assertColour(device.written[1], Self.green, width: 1280, height: 720, format: format)
        }
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

    func testWithoutAWayToReopenADeviceThatGoesAwayEndsTheOutputOnceWithAnEvent() throws {
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
        XCTAssertEqual(output.statistics.lost?.isGone, true)
        XCTAssertEqual(output.statistics.framesWritten, 1)
        XCTAssertTrue(ended.first?.description.contains("ENODEV") ?? false, ended.first?.description ?? "")
    }

    func testADeviceThatComesBackIsReopenedAndToldOnce() throws {
        let first = V4L2LoopbackFakeDevice(path: "/dev/video10")
        let second = V4L2LoopbackFakeDevice(path: "/dev/video11")
        let attempts = Guarded(0)
        let losses = Guarded<[V4L2LoopbackError]>([])
        let returns = Guarded<[String]>([])
        // The device is missing for the first two attempts, then back (as a label found on another node).
        let output = try makeOutput(first, blockWhenBehind: true, reopen: {
            let attempt = attempts.withLock { $0 += 1; return $0 }
            guard attempt > 2 else { throw V4L2LoopbackError.noSuchDevice("/dev/video10") }
            return second
        }, ended: { error in losses.withLock { $0.append(error) } }, back: { path in returns.withLock { $0.append(path) } })
        defer { output.close() }
        output.appendVideo(Self.frame(Self.red, lens: "wide"), at: .zero)
        XCTAssertTrue(first.wait { _, written, _ in written == 1 })
        first.failWrites(with: ENODEV)
        var index: Int64 = 1
        while second.written.isEmpty && index < 200 {
            output.appendVideo(Self.frame(Self.blue, lens: "main", index: index), at: MediaTime(value: index, timescale: 30))
            index += 1
            _ = second.wait(timeout: 0.05) { _, written, _ in written > 0 }
        }
        XCTAssertTrue(second.wait { _, written, _ in written > 0 }, "the program reaches the device that came back")
        Self.assertColour(second.written[0], Self.blue)
        XCTAssertTrue(first.isClosed, "the lost device is let go")
        XCTAssertEqual(second.formatsSet.first?.0, .yuv420, "the returned device is set up again")
        XCTAssertEqual(second.ratesSet, [FrameRate(30)])
        output.close()
        XCTAssertEqual(losses.withLock { $0.count }, 1, "one loss told")
        XCTAssertEqual(returns.withLock { $0 }, ["/dev/video11"], "one return told, with the node written now")
        XCTAssertEqual(attempts.withLock { $0 }, 3, "tried until it was there, then no more")
        XCTAssertNil(output.statistics.lost)
        XCTAssertEqual(output.statistics.losses, 1)
        XCTAssertEqual(output.statistics.returns, 1)
        XCTAssertEqual(output.name, "/dev/video11")
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
                           .formatRefused(device: "/dev/video42", wanted: "YU12 1280x720", got: "YU12 640x480"))
        }
        XCTAssertTrue(device.isClosed)
    }
}
