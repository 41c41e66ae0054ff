import Foundation
import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// Collects what a camera delivers, from its capture thread.
final class V4L2CameraRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var frames: [VideoFrame] = []
    private var ends: [String] = []
    let ended = XCTestExpectation(description: "camera ended")

    var deliver: @Sendable (VideoFrame) -> Void { { [self] frame in lock.lock(); frames.append(frame); lock.unlock() } }
    var onEnd: @Sendable (String) -> Void {
        { [self] reason in lock.lock(); ends.append(reason); lock.unlock(); ended.fulfill() }
    }
    var delivered: [VideoFrame] { lock.lock(); defer { lock.unlock() }; return frames }
    var endReasons: [String] { lock.lock(); defer { lock.unlock() }; return ends }
}

final class V4L2CameraTests: XCTestCase {
    let yuyvModes = [V4L2Mode(pixelFormat: .yuyv, width: 4, height: 2, rates: [FrameRate(30)])]

    func buffer(_ index: UInt32, sequence: UInt32, seconds: Int64, microseconds: Int64,
                flags: V4L2DequeuedBuffer.Flags = .timestampMonotonic, bytes: Int = 16) -> V4L2DequeuedBuffer {
        V4L2DequeuedBuffer(index: index, bytesUsed: bytes, flags: flags, sequence: sequence, seconds: seconds,
                           microseconds: microseconds)
    }

    func testFramesCarryDriverTimestampsGapsAndErrorsAreCountedAndUnplugEndsCleanlyOnce() throws {
        let device = V4L2FakeDevice(modes: yuyvModes)
        let pixels = [UInt8](0..<16)
        device.play([
            .frame(buffer(0, sequence: 10, seconds: 100, microseconds: 1), pixels),
            .frame(buffer(1, sequence: 11, seconds: 100, microseconds: 33_334, flags: [.timestampMonotonic, .error]),
                   pixels),
            .frame(buffer(2, sequence: 14, seconds: 100, microseconds: 133_334), pixels),
            .failure(ENODEV),
        ])
        let camera = try V4L2Camera(device: device, lens: Rig.Lens(name: "wide", source: .camera(.device("/dev/video9")),
                                                                  format: .yuyv), warn: { _ in })
        XCTAssertEqual(camera.format, CameraFormat(width: 4, height: 2, rate: FrameRate(30), pixelFormat: .yuyv422))
        let recorder = V4L2CameraRecorder()
        try camera.start(deliver: recorder.deliver, onEnd: recorder.onEnd)
        wait(for: [recorder.ended], timeout: 60)
        camera.stop()
        camera.stop()

        let frames = recorder.delivered
        XCTAssertEqual(frames.map(\.pts), [.nanoseconds(100_000_001_000), .nanoseconds(100_133_334_000)])
        XCTAssertEqual(frames.first?.planes.first?.bytes, pixels)
        XCTAssertEqual(frames.first?.planes.first?.stride, 8)
        XCTAssertEqual(frames.first?.lens, "wide")
        XCTAssertEqual(camera.statistics, {
            var s = V4L2CaptureStatistics(); s.delivered = 2; s.dropped = 2; s.corrupt = 1; return s
        }())
        XCTAssertEqual(recorder.endReasons.count, 1)
        XCTAssertTrue(recorder.endReasons[0].contains("/dev/video9") && recorder.endReasons[0].contains("unplugged"),
                      recorder.endReasons[0])
        XCTAssertTrue(device.isClosed)
        XCTAssertEqual(device.mapped, 0)
        XCTAssertThrowsError(try camera.start(deliver: recorder.deliver, onEnd: recorder.onEnd)) { error in
            XCTAssertEqual((error as? any CameraStartFailure)?.isBandwidthExhausted, false)
        }
    }

    func testStreamOnENOSPCSaysUSBBandwidthAndReleasesBuffers() throws {
        let device = V4L2FakeDevice(modes: yuyvModes)
        device.streamOnErrno = ENOSPC
        let camera = try V4L2Camera(device: device, lens: Rig.Lens(name: "tele", source: .camera(.device("/dev/video9"))),
                                    warn: { _ in })
        let recorder = V4L2CameraRecorder()
        XCTAssertThrowsError(try camera.start(deliver: recorder.deliver, onEnd: recorder.onEnd)) { error in
            XCTAssertEqual(error as? V4L2Error, .bandwidthExhausted(device: "/dev/video9"))
            // The engine tells it from other failures by its type, not its words.
            XCTAssertEqual((error as? any CameraStartFailure)?.isBandwidthExhausted, true)
            let text = "\(error)"
            XCTAssertTrue(text.contains("USB bandwidth") && text.contains("mjpeg") && text.contains("/dev/video9"), text)
        }
        XCTAssertEqual(device.mapped, 0)
        XCTAssertFalse(device.streaming)
    }

    func testStopWaitsForTheCaptureThreadAndDoesNotCallOnEnd() throws {
        let device = V4L2FakeDevice(modes: yuyvModes)
        device.play([.frame(buffer(0, sequence: 0, seconds: 5, microseconds: 0), [UInt8](repeating: 9, count: 16))])
        let camera = try V4L2Camera(device: device, lens: Rig.Lens(name: "main", source: .camera(.device("x"))),
                                    warn: { _ in })
        let recorder = V4L2CameraRecorder()
        recorder.ended.isInverted = true
        try camera.start(deliver: recorder.deliver, onEnd: recorder.onEnd)
        let deadline = Date().addingTimeInterval(5)
        while recorder.delivered.isEmpty && Date() < deadline { usleep(1000) }
        camera.stop()
        XCTAssertFalse(device.streaming)
        XCTAssertEqual(recorder.delivered.count, 1)
        wait(for: [recorder.ended], timeout: 0.05)
        XCTAssertFalse(device.isClosed, "a stopped camera keeps its device for the next start")
    }

    func testNonCaptureNodeIsRefused() {
        let device = V4L2FakeDevice(modes: yuyvModes)
        device.capability.nodeCapabilities = [.metaCapture, .streaming]
        XCTAssertThrowsError(try V4L2Camera(device: device, lens: Rig.Lens(name: "m", source: .camera(.device("x"))),
                                            warn: { _ in })) {
            XCTAssertTrue("\($0)".contains("metadata"), "\($0)")
        }
    }

    /// MJPEG buffers are handed on undecoded (the writer decodes only what reaches the movie); a buffer that does
    /// not start like a JPEG is skipped and counted.
    func testMJPEGFramesArePassedOnUndecoded() throws {
        let jpegURL = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-v4l2-\(getpid()).jpg")
        defer { try? FileManager.default.removeItem(at: jpegURL) }
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=64x48", "-frames:v", "1",
                            "-pix_fmt", "yuvj422p", "-f", "mjpeg", jpegURL.path]
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            throw XCTSkip("ffmpeg command-line tool not installed")
        }
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        let jpeg = try [UInt8](Data(contentsOf: jpegURL))
        let device = V4L2FakeDevice(modes: [V4L2Mode(pixelFormat: .mjpeg, width: 64, height: 48, rates: [FrameRate(30)])])
        device.play([.frame(buffer(0, sequence: 0, seconds: 7, microseconds: 500, bytes: jpeg.count), jpeg),
                     .frame(buffer(1, sequence: 1, seconds: 7, microseconds: 900, bytes: 10), [UInt8](repeating: 0, count: 10)),
                     .failure(ENODEV)])
        let camera = try V4L2Camera(device: device, lens: Rig.Lens(name: "wide", source: .camera(.device("x")),
                                                                  format: .mjpeg), warn: { _ in })
        let recorder = V4L2CameraRecorder()
        try camera.start(deliver: recorder.deliver, onEnd: recorder.onEnd)
        wait(for: [recorder.ended], timeout: 60)
        let frames = recorder.delivered
        XCTAssertEqual(frames.count, 1)
        XCTAssertEqual(frames.first?.format, .jpeg)
        XCTAssertEqual(frames.first?.width, 64)
        XCTAssertEqual(frames.first?.planes.first?.bytes, jpeg, "the buffer's bytes, undecoded")
        let decoded = try XCTUnwrap(try MJPEGDecoder().decode(jpeg, pts: .zero, lens: "wide"))
        XCTAssertEqual(decoded.format, .yuv422p)
        XCTAssertEqual(decoded.planes.count, 3)
        XCTAssertEqual(frames.first?.pts, .nanoseconds(7_000_500_000))
        XCTAssertEqual(camera.statistics.corrupt, 1, "the truncated JPEG is skipped and counted")
    }
}
