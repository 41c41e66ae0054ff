import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// The webcam output on a real v4l2loopback device, read back as a video-call app would: `ffmpeg -f v4l2` takes a
/// picture from the device while PauseCam writes, and its colour is the lens's. Needs the module loaded (the host
/// usually has not; the real-driver VM test builds and loads it for its guest).
final class V4L2LoopbackRealDeviceTests: XCTestCase {
    func testAReaderSeesTheLensColoursSwitch() throws {
        let finder = V4L2LoopbackFinder()
        guard finder.isModuleLoaded else {
            throw XCTSkip("the v4l2loopback kernel module is not loaded on this machine (no /sys/module/v4l2loopback), "
                          + "so no real loopback device to write to: load it with `\(V4L2LoopbackError.loadCommand)`; "
                          + "the fake-device tests (V4L2LoopbackOutputTests) ran instead")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            throw XCTSkip("ffmpeg command-line tool not installed (Debian package ffmpeg)")
        }
        guard let loopback = finder.loopbacks().first else {
            throw XCTSkip("the v4l2loopback module is loaded but has no device (`devices=1`)")
        }
        let (width, height) = (320, 240)
        let output = try V4L2LoopbackOutput(device: try finder.open(.device(loopback.path)), width: width,
                                            height: height, rate: FrameRate(30), onLost: { _ in })
        defer { output.close() }
        for colour in [V4L2LoopbackOutputTests.red, V4L2LoopbackOutputTests.blue] {
            let picture = try readWhileWriting(output, colour: colour, device: loopback.path, width: width,
                                               height: height)
            V4L2LoopbackOutputTests.assertColour(picture, colour, width: width, height: height, format: .yuyv)
        }
    }

    /// Runs `ffmpeg -f v4l2` on `device` for one picture (converted to YUYV by ffmpeg, whatever the device carries), writing frames of `colour` until it has read one.
    private func readWhileWriting(_ output: V4L2LoopbackOutput, colour: (UInt8, UInt8, UInt8), device: String,
                                  width: Int, height: Int) throws -> [UInt8] {
        // The reader may get a picture written before the switch: skip the first few.
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = ["-hide_banner", "-loglevel", "error", "-f", "v4l2", "-i", device, "-vf", "select=gte(n\\,5)",
                            "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuyv422", "-"]
        let pipe = Pipe()
        ffmpeg.standardOutput = pipe
        try ffmpeg.run()
        let writing = Guarded(true)
        let writer = Thread {
            var index: Int64 = 0
            while writing.withLock({ $0 }) {
                output.appendVideo(V4L2LoopbackOutputTests.frame(colour, lens: "lens", index: index),
                                   at: MediaTime(value: index, timescale: 30))
                index += 1
                usleep(33_000)  // the program's frame rate, not a wait for anything
            }
        }
        writer.start()
        let bytes = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
        ffmpeg.waitUntilExit()
        writing.withLock { $0 = false }
        XCTAssertEqual(ffmpeg.terminationStatus, 0)
        return bytes
    }
}
