import Foundation
import PauseCamCore
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Control from outside while a simulated-clock shell runs a long `wait`: the wait's thread drives the simulated
/// loop, and the control socket's and the pedal signals' threads must take turns with it on the serial context,
/// not run beside it. Each request gets its reply, the wait goes on, and the clip ends complete.
final class SimulatedClockControlEndToEndTests: XCTestCase {
    private func statusObject(_ result: ProcessResult) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
    }

    func testControlCommandsAndPedalSignalsDuringASimulatedWait() throws {
        let shell = try ControlledShell(name: "sim-wait", extraArguments: ["--clock", "simulated"])
        let pid = shell.running.process.processIdentifier
        shell.running.send("record Take")
        shell.running.send("wait 24h")
        XCTAssertTrue(shell.running.waitFor("> wait 24h\n"), shell.running.stdout)

        let status = try shell.ctl(["status", "--json"])
        XCTAssertEqual(status.status, 0, status.stderr)
        let first = try XCTUnwrap(statusObject(status), status.stdoutText)
        XCTAssertEqual(first["state"] as? String, "recording")
        XCTAssertEqual(first["scene"] as? Int, 1)

        let mark = try shell.ctl(["mark", "remote"])
        XCTAssertEqual(mark.status, 0, mark.stderr)
        XCTAssertTrue(mark.stdoutText.hasPrefix("marked \"remote\""), mark.stdoutText)
        let pause = try shell.ctl(["toggle"])
        XCTAssertTrue(pause.status == 0 && pause.stdoutText.hasPrefix("pause:"), pause.stdoutText + pause.stderr)
        let resume = try shell.ctl(["toggle"])
        XCTAssertTrue(resume.status == 0 && resume.stdoutText.hasPrefix("resume:"), resume.stdoutText + resume.stderr)

        // The pedal signals take the same path from a signal queue's thread: toggle (pause), mark, toggle (resume).
        kill(pid, SIGUSR1)
        XCTAssertTrue(shell.running.waitFor("* toggle (SIGUSR1): pause:"), shell.running.stdout)
        kill(pid, SIGUSR2)
        XCTAssertTrue(shell.running.waitFor("* mark SIGUSR2 (SIGUSR2): marked"), shell.running.stdout)
        kill(pid, SIGUSR1)
        XCTAssertTrue(shell.running.waitFor("* toggle (SIGUSR1): resume:"), shell.running.stdout)

        // 200 status requests from 4 processes at once, all while the wait runs.
        let failures = Guarded<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<50 {
                let result = try? shell.ctl(["status"])
                if result?.status != 0 || result?.stdoutText.hasPrefix("state recording") != true {
                    failures.withLock { $0.append((result?.stdoutText ?? "") + (result?.stderr ?? "no result")) }
                }
            }
        }
        let failed = failures.withLock { $0 }
        XCTAssertEqual(failed, [], "\(failed.count) of 200 status requests failed")
        XCTAssertTrue(shell.running.process.isRunning, shell.running.stderr)
        XCTAssertFalse(shell.running.stdout.contains("waited "), "the wait was meant to go on: \(shell.running.stdout)")

        // Ctrl-C ends the wait (the recording goes on); stop and the end of input save the clip.
        kill(pid, SIGINT)
        XCTAssertTrue(shell.running.waitFor("wait interrupted"), shell.running.stdout)
        shell.running.send("stop")
        XCTAssertEqual(shell.finish(), 0, shell.running.stdout + shell.running.stderr)
        XCTAssertFalse(shell.running.stderr.contains("Fatal error"), shell.running.stderr)

        let movies = try FileManager.default.contentsOfDirectory(atPath: shell.outputDirectory.path)
        XCTAssertFalse(movies.contains { $0.hasSuffix(".partial") }, "\(movies)")
        let movie = try XCTUnwrap(movies.first { $0.hasSuffix(".mov") }, "\(movies)")
        let probe = MediaProbe(path: shell.outputDirectory.appendingPathComponent(movie).path)
        XCTAssertGreaterThan(try probe.duration(), 0)
        // Two resumes (one by ctl, one by the pedal) make three scenes, one chapter each.
        XCTAssertEqual(try probe.chapters().count, 3)
        let sidecarData = try Data(contentsOf: shell.outputDirectory
            .appendingPathComponent(String(movie.dropLast(4)) + ".json"))
        let sidecar = try XCTUnwrap(JSONSerialization.jsonObject(with: sidecarData) as? [String: Any])
        let scenes = try XCTUnwrap(sidecar["scenes"] as? [[String: Any]])
        XCTAssertEqual(scenes.count, 3)
        let markers = scenes.flatMap { ($0["markers"] as? [[String: Any]]) ?? [] }.compactMap { $0["text"] as? String }
        XCTAssertEqual(markers, ["remote", "SIGUSR2"])
    }
}
