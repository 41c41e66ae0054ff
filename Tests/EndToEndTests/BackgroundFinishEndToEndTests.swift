import Foundation
import PauseCamCore
import XCTest

/// The serial context never waits for a finish. A stopped clip is finished (encoder drain, remux, thumbnail, sidecar)
/// on a worker while the next clip records; every way out waits for those finishes; devices' samples wait in bounded
/// mailboxes whose drops the sidecar counts.
final class BackgroundFinishEndToEndTests: XCTestCase {
    /// A 20-minute clip on the simulated clock, `stop`, then `record` at once: the second clip's reply comes before
    /// the first clip's "saved" event (the remux runs on the finisher's worker, not before the reply), and both
    /// movies are complete, at a constant 30 fps, with their sidecars.
    func testRecordRightAfterStoppingATwentyMinuteClipStartsBeforeTheFirstIsSaved() throws {
        let directory = try ProcessRunner.temporaryDirectory("twenty-minutes")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", ProcessRunner.rig("tiny-long.yaml"), "--clock", "simulated",
                                            "--output", directory.path],
                                           input: "record\nwait 20m\nstop\nrecord\nwait 2s\nstop\nquit\n")
        let text = result.stdoutText.replacingOccurrences(of: directory.path, with: "<out>")
        XCTAssertEqual(result.status, 0, text + result.stderr)
        let secondRecording = try XCTUnwrap(text.range(of: "recording scene 1 to <out>/tiny-long-rig-2.mov"), text)
        let firstSaved = try XCTUnwrap(text.range(of: "* saved <out>/tiny-long-rig.mov — 1 scene(s), 00:20:00.0"), text)
        XCTAssertLessThan(secondRecording.lowerBound, firstSaved.lowerBound, text)
        XCTAssertTrue(text.contains("* saved <out>/tiny-long-rig-2.mov — 1 scene(s), 00:00:02.0"), text)

        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertEqual(names, ["tiny-long-rig-2.jpg", "tiny-long-rig-2.json", "tiny-long-rig-2.mov",
                               "tiny-long-rig.jpg", "tiny-long-rig.json", "tiny-long-rig.mov"])
        for (name, seconds) in [("tiny-long-rig", 1200.0), ("tiny-long-rig-2", 2.0)] {
            let probe = MediaProbe(path: directory.appendingPathComponent("\(name).mov").path)
            XCTAssertEqual(try probe.duration(), seconds, accuracy: 0.07, name)
            try probe.assertConstantRate(30)
            let sidecar = try Sidecar.decode(try Data(contentsOf: directory.appendingPathComponent("\(name).json")))
            XCTAssertTrue(sidecar.complete, name)
            XCTAssertEqual(sidecar.duration, seconds, accuracy: 1e-3, name)
            XCTAssertEqual(sidecar.video.framesWritten, Int(seconds * 30), name)
            XCTAssertEqual(sidecar.devices.map(\.dropped), [0], name)
        }
    }

    /// SIGTERM while a stopped clip is still being remuxed and the next clip records: the shell says it waits,
    /// waits, and both movies are complete before it exits with 143. The remux is held (`PAUSECAM_FAULT_REMUX_GATE`)
    /// until the test has seen the shell say it waits, so no step of the test races a guessed remux time.
    func testSIGTERMWhileAClipIsRemuxedWaitsForItAndLeavesACompleteMovie() throws {
        let gate = try ProcessRunner.temporaryDirectory("remux-gate").appendingPathComponent("open")
        let shell = try ShellSignalTests.RunningShell(name: "sigterm-remux", rig: "tiny-long.yaml",
                                                      environment: ["PAUSECAM_FAULT_REMUX_GATE": gate.path])
        shell.send("record")
        XCTAssertTrue(shell.waitFor("recording scene 1"), shell.text)
        let partial = shell.directory.appendingPathComponent("tiny-long-rig.mov.partial").path
        XCTAssertGreaterThanOrEqual(MediaProbe.waitUntilHeld([partial], seconds: 1.5)[0], 1.5, shell.text)
        shell.send("stop")
        XCTAssertTrue(shell.waitFor("stopping…"), shell.text)
        shell.send("record")
        XCTAssertTrue(shell.waitFor("tiny-long-rig-2.mov"), shell.text)
        shell.send("status")
        XCTAssertTrue(shell.waitFor("saving tiny-long-rig.mov…"), shell.text)
        kill(shell.process.processIdentifier, SIGTERM)
        XCTAssertTrue(shell.waitFor("waiting for tiny-long-rig.mov to be saved before quitting…"), shell.text)
        // Had the shell quit here, the held remux would leave a `.partial` and no movie: checked below.
        XCTAssertTrue(FileManager.default.createFile(atPath: gate.path, contents: Data()))
        XCTAssertTrue(shell.waitForExit(seconds: 60), shell.text)
        XCTAssertEqual(shell.process.terminationStatus, 143, shell.text)
        let names = try FileManager.default.contentsOfDirectory(atPath: shell.directory.path).sorted()
        XCTAssertFalse(names.contains { $0.hasSuffix(".partial") }, "\(names)")
        for name in ["tiny-long-rig", "tiny-long-rig-2"] {
            let sidecar = try Sidecar.decode(try Data(contentsOf: shell.directory.appendingPathComponent("\(name).json")))
            XCTAssertTrue(sidecar.complete, name)
            let probe = MediaProbe(path: shell.directory.appendingPathComponent("\(name).mov").path)
            XCTAssertEqual(try probe.duration(), sidecar.duration, accuracy: 0.07, name)
            XCTAssertGreaterThan(sidecar.duration, name == "tiny-long-rig" ? 1.0 : 0, name)
            try probe.assertConstantRate(30)
            XCTAssertEqual(try probe.decodeErrors(), "", name)
        }
    }

    /// A stalled encoder (`PAUSECAM_FAULT_SLOW_ENCODER_MS`) with three hot lenses on the real clock for 10 s: the
    /// process's peak memory stays under 300 MB, `status` still answers while it records, and the sidecar counts the
    /// drops — the encoder's, and each device's mailbox's (zero or more; the field is there for every device).
    func testAStalledEncoderKeepsMemoryBoundedStatusAnsweringAndDropsCounted() throws {
        try SanitizerRun.skipTimingBound(under: ["thread", "address"],
                                         "a 300 MB peak (the sanitizers' shadow memory alone is larger)")
        let shell = try ShellSignalTests.RunningShell(name: "stall", rig: "e2e.yaml",
                                                      environment: ["PAUSECAM_FAULT_SLOW_ENCODER_MS": "400"])
        shell.send("record")
        XCTAssertTrue(shell.waitFor("recording scene 1"), shell.text)
        var peak = 0
        var answered = 0
        let start = Date()
        while Date().timeIntervalSince(start) < 10 {
            shell.send("status")
            let expected = answered + 1
            let deadline = Date().addingTimeInterval(20)
            while shell.text.components(separatedBy: "state recording").count - 1 < expected && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
            if shell.text.components(separatedBy: "state recording").count - 1 >= expected { answered = expected }
            peak = max(peak, Self.peakResidentKilobytes(of: shell.process.processIdentifier) ?? 0)
            Thread.sleep(forTimeInterval: 0.5)
        }
        XCTAssertGreaterThanOrEqual(answered, 5, "status stopped answering while the encoder stalled:\n\(shell.text)")
        shell.send("stop")
        shell.send("quit")
        XCTAssertTrue(shell.waitForExit(seconds: 60), shell.text)
        peak = max(peak, 0)
        print("stall test: peak resident memory (VmHWM) \(peak / 1024) MB, \(answered) status replies")
        XCTAssertGreaterThan(peak, 0, "VmHWM was never read")
        XCTAssertLessThan(peak, 300 * 1024, "peak memory \(peak) kB")
        let sidecar = try Sidecar.decode(try Data(contentsOf: shell.directory.appendingPathComponent("e2e-rig.json")))
        XCTAssertTrue(sidecar.complete)
        XCTAssertGreaterThan(sidecar.video.framesDropped, 0, "the stalled encoder dropped nothing?")
        XCTAssertEqual(sidecar.devices.map(\.role), ["wide", "main", "tele", "microphone"])
        for device in sidecar.devices { XCTAssertNotNil(device.dropped, "\(device.role) has no drop count") }
        let probe = MediaProbe(path: shell.directory.appendingPathComponent("e2e-rig.mov").path)
        try probe.assertConstantRate(30)
    }

    /// The peak resident set (`VmHWM`, kB) of a running process, from /proc.
    static func peakResidentKilobytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
    }
}
