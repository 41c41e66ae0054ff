import Foundation
import PauseCamCore
import XCTest

/// A movie sink far slower than real time (`PAUSECAM_FAULT_SLOW_ENCODER_MS=200`: every picture costs 200 ms more,
/// a sixth of real time at 30 fps) is answered by the sink's channel policy, never by a hang: on the real clock
/// pictures are refused and counted (their frames repeat the picture before), on the simulated clock the engine
/// waits for room and nothing is lost. Either way the run ends, and the movie stays constant-rate.
final class SlowEncoderEndToEndTests: XCTestCase {
    private static let slowEncoder = ["PAUSECAM_FAULT_SLOW_ENCODER_MS": "200"]

    private func record(clock: String) throws -> (status: Int32?, stdout: String, stderr: String, directory: URL) {
        let directory = try ProcessRunner.temporaryDirectory("slow-\(clock)")
        let run = try RunningCommand(["run", ProcessRunner.rig("slow-encoder.yaml"), "--script", "three-seconds",
                                      "--clock", clock, "--output", directory.path], environment: Self.slowEncoder)
        // Far more than either run needs (real clock: ~4 s; simulated: 90 pictures × 0.2 s); a hang never ends.
        let status = run.waitForExit(seconds: 180)
        return (status, run.stdout, run.stderr, directory)
    }

    private func sidecar(in directory: URL) throws -> (Sidecar, String) {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        XCTAssertFalse(names.contains { $0.hasSuffix(".partial") }, "a .partial was left behind: \(names)")
        let movie = try XCTUnwrap(names.first { $0.hasSuffix(".mov") }, "no movie in \(names)")
        let json = directory.appendingPathComponent(String(movie.dropLast(4)) + ".json")
        return (try Sidecar.decode(try Data(contentsOf: json)), directory.appendingPathComponent(movie).path)
    }

    func testOnTheRealClockTheRunEndsAndTheRefusedPicturesAreCounted() throws {
        try SanitizerRun.skipTimingBound(under: ["thread"], "\"3 s of script hold 90 to 93 frames\"")
        let run = try record(clock: "real")
        XCTAssertEqual(run.status, 0, "the run must end by itself:\n\(run.stderr)")
        let (sidecar, movie) = try sidecar(in: run.directory)
        XCTAssertTrue(sidecar.complete)
        XCTAssertGreaterThan(sidecar.video.framesDropped, 45, "an encoder at a sixth of real time must drop")
        XCTAssertTrue(run.stdout.contains("\(sidecar.video.framesDropped) dropped frame(s)"), run.stdout)
        XCTAssertTrue(sidecar.warnings.contains { $0.contains("frames dropped") }, "\(sidecar.warnings)")
        for device in sidecar.devices { XCTAssertNotNil(device.dropped, "\(device.role) has no drop count") }
        let probe = MediaProbe(path: movie)
        XCTAssertEqual(try probe.videoFrames().count, sidecar.video.framesWritten)
        XCTAssertTrue((90...93).contains(sidecar.video.framesWritten), "every frame keeps its place: "
                      + "\(sidecar.video.framesWritten)")
        try probe.assertConstantRate(30)
    }

    func testOnTheSimulatedClockTheEngineWaitsForRoomAndNothingIsLost() throws {
        let run = try record(clock: "simulated")
        XCTAssertEqual(run.status, 0, "the run must end by itself:\n\(run.stderr)")
        let (sidecar, movie) = try sidecar(in: run.directory)
        XCTAssertTrue(sidecar.complete)
        XCTAssertEqual(sidecar.video.framesDropped, 0, "back-pressure loses nothing")
        XCTAssertEqual(sidecar.video.framesWritten, 90, "3 s at 30 fps")
        let probe = MediaProbe(path: movie)
        XCTAssertEqual(try probe.videoFrames().count, 90)
        try probe.assertConstantRate(30)
    }
}
