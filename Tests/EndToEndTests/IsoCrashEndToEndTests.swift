import Foundation
import XCTest

/// Crash safety holds for ISOs as for the program: while recording, each `NAME.iso/ROLE.mov.partial` is a
/// fragmented movie, so a SIGKILL loses at most its last fragment and leaves every ISO readable, with its sound.
final class IsoCrashEndToEndTests: XCTestCase {
    func testSIGKILLLeavesEveryIsoPartialPlayableWithPictureAndSound() throws {
        let directory = try ProcessRunner.temporaryDirectory("iso-kill")
        let rig = """
        name: Iso kill
        output: {name: "{rig}", size: 320x180, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}, iso: true}
        audio: {device: virtual}
        lenses:
          wide: {zoom: 0.5, virtual: {color: "#20c040"}, size: 320x180, fps: 30}
          tele: {zoom: 3, virtual: {color: "#3050e0"}, size: 256x144, fps: 30}
        default_lens: wide
        scripts:
          long:
            - record: First
            - wait: 1s
            - lens: tele
            - wait: 60s
            - stop
        """
        let rigPath = directory.appendingPathComponent("iso-kill.yaml")
        try rig.write(to: rigPath, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out")
        let process = Process()
        process.executableURL = BinaryLocator.pausecam
        process.arguments = ["run", rigPath.path, "--script", "long", "--clock", "real", "--output", out.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let partials = ["wide", "tele"].map { out.appendingPathComponent("iso-kill.iso/\($0).mov.partial").path }
        // Two seconds of every ISO on disk (each written as the program's timeline decides its instants); the
        // script's second wait lasts 60 s, so 30 s of watching is far more than that needs.
        let onDisk = MediaProbe.waitUntilHeld(partials, seconds: 2.0)
        XCTAssertTrue(onDisk.allSatisfy { $0 >= 2.0 }, "the ISOs' .partial files did not grow: \(onDisk)")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)

        for (path, before) in zip(partials, onDisk) {
            XCTAssertFalse(FileManager.default.fileExists(atPath: String(path.dropLast(".partial".count))), path)
            let probe = MediaProbe(path: path)
            XCTAssertGreaterThanOrEqual(probe.heldSeconds(), before, "\(path) still reads as far as before the kill")
            XCTAssertEqual(try probe.decodeErrors(), "", path)
            XCTAssertGreaterThan(try probe.audioDuration(), 1.0, "\(path) holds the program's sound")
        }
    }
}
