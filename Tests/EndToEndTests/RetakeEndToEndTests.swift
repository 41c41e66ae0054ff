import Foundation
import PauseCamCore
import XCTest

/// `retake` throws the scene being recorded away: the movie goes on from where that scene began, with no chapter
/// and no gap for the discarded take, and the sidecar notes what was discarded.
final class RetakeEndToEndTests: XCTestCase {
    private let lines = ["record A", "wait 2s", "chapter B", "wait 1s", "retake", "wait 1.5s", "stop"]

    func testARetakeOnTheSimulatedClockLeavesTheDiscardedTakeOutOfTheMovie() throws {
        let directory = try ProcessRunner.temporaryDirectory("retake-simulated")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated", "--output", directory.path,
        ], input: lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stdoutText.contains("retake: scene 2 again from 00:00:02"), result.stdoutText)
        try assertRetakenMovie(in: directory, tolerance: 1.0 / 30 + 1e-6)
    }

    func testARetakeOnTheRealClockLeavesTheDiscardedTakeOutOfTheMovie() throws {
        let directory = try ProcessRunner.temporaryDirectory("retake-real")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "shell", ProcessRunner.rig("e2e.yaml"), "--output", directory.path,
        ], input: lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        try assertRetakenMovie(in: directory, tolerance: 0.25)
    }

    func testRetakeWhileIdleIsRefused() throws {
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated",
            "--output", try ProcessRunner.temporaryDirectory("retake-idle").path,
        ], input: "retake\n")
        XCTAssertTrue((result.stdoutText + result.stderr).contains("not recording; `retake` throws away the scene"),
                      result.stdoutText + result.stderr)
    }

    /// A crash after a retake leaves a `.partial` that still plays: it holds the discarded take (its times only go
    /// forward), and the sidecar says which scene was taken again.
    func testACrashAfterARetakeLeavesAPlayablePartialAndASidecarThatNamesTheRetake() throws {
        let directory = try ProcessRunner.temporaryDirectory("retake-crash")
        let running = try RunningCommand(["shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated",
                                          "--output", directory.path], keepInputOpen: true)
        for line in ["record A", "wait 1s", "chapter B", "wait 1s", "retake", "wait 3s"] { running.send(line) }
        XCTAssertTrue(running.waitFor("waited 00:00:03"), running.stdout + running.stderr)
        let partial = directory.appendingPathComponent("e2e-rig.mov.partial").path
        let sidecarPath = directory.appendingPathComponent("e2e-rig.json")
        // The fragment holding the discarded take is written once the new take's keyframe reached the muxer.
        let deadline = Date().addingTimeInterval(60)
        var duration = 0.0
        while Date() < deadline {
            duration = (try? MediaProbe(path: partial).duration()) ?? 0
            if duration >= 2 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(running.process.processIdentifier, SIGKILL)
        _ = running.waitForExit()
        XCTAssertGreaterThanOrEqual(duration, 2, "the .partial holds scene A and the discarded take")
        XCTAssertEqual(try MediaProbe(path: partial).decodeErrors(), "")
        let sidecar = try Sidecar.decode(Data(contentsOf: sidecarPath))
        XCTAssertFalse(sidecar.complete)
        XCTAssertEqual(sidecar.retakes?.map(\.scene), [2])
        XCTAssertEqual(sidecar.retakes?.first?.discardedDuration ?? -1, 1, accuracy: 1.0 / 30 + 1e-6)
    }

    private func assertRetakenMovie(in directory: URL, tolerance: Double,
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let probe = MediaProbe(path: directory.appendingPathComponent("e2e-rig.mov").path)
        XCTAssertEqual(try probe.duration(), 3.5, accuracy: tolerance, "movie duration", file: file, line: line)
        let chapters = try probe.chapters()
        XCTAssertEqual(chapters.map { $0.title ?? "" }, ["A", "B"], file: file, line: line)
        XCTAssertEqual(chapters.first?.start ?? -1, 0, accuracy: 1e-6, file: file, line: line)
        XCTAssertEqual(Double(chapters.first?.endTime ?? "") ?? -1, 2, accuracy: tolerance, file: file, line: line)
        XCTAssertEqual(chapters.last?.start ?? -1, 2, accuracy: tolerance, file: file, line: line)
        XCTAssertEqual(Double(chapters.last?.endTime ?? "") ?? -1, 3.5, accuracy: tolerance, file: file, line: line)
        try probe.assertConstantRate(30, file: file, line: line)
        XCTAssertEqual(try probe.decodeErrors(), "", file: file, line: line)
        XCTAssertEqual(try probe.audioDuration(), try probe.duration(), accuracy: 0.05, "audio follows the cut",
                       file: file, line: line)
        let sidecar = try Sidecar.decode(Data(contentsOf: directory.appendingPathComponent("e2e-rig.json")))
        XCTAssertEqual(sidecar.retakes?.map(\.scene), [2], file: file, line: line)
        XCTAssertEqual(sidecar.retakes?.first?.discardedDuration ?? -1, 1.0, accuracy: tolerance, file: file, line: line)
        XCTAssertEqual(sidecar.scenes.map(\.title), ["A", "B"], file: file, line: line)
        XCTAssertEqual(sidecar.duration, try probe.duration(), accuracy: 1.0 / 30 + 1e-6, file: file, line: line)
        let lenses = sidecar.scenes.last?.lenses ?? []
        XCTAssertEqual(lenses.first?.start ?? -1, 2, accuracy: tolerance, "the new take's lens", file: file, line: line)
        XCTAssertEqual(lenses.map(\.duration).reduce(0, +), sidecar.scenes.last?.duration ?? -1, accuracy: 1e-6,
                       "the discarded take's lens stretch is gone", file: file, line: line)
        let videoFrames = try probe.streams().first { $0.codecType == "video" }?.nbFrames
        XCTAssertEqual(videoFrames, "\(sidecar.video.framesWritten)", "frames written are the movie's", file: file, line: line)
        let text = try String(contentsOf: directory.appendingPathComponent("e2e-rig.json"), encoding: .utf8)
        XCTAssertTrue(text.contains("\"discarded_duration\""), text, file: file, line: line)
    }
}
