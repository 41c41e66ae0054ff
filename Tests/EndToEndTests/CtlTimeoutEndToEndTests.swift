import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `pausecam ctl` to a PauseCam that cannot answer (stopped with SIGSTOP, as Ctrl-Z does): it gives up after
/// `--timeout` with a message and exit 1, also when the stopped server's queue of waiting clients is full (where
/// a plain `connect` waits forever), and the same PauseCam answers again once continued.
final class CtlTimeoutEndToEndTests: XCTestCase {
    private func ctl(_ shell: ControlledShell, _ words: [String]) throws -> (result: ProcessResult, seconds: Double) {
        let started = Date()
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["ctl"] + words, environment: shell.environment)
        return (result, Date().timeIntervalSince(started))
    }

    func testAStoppedPauseCamTimesOutWithExit1AndAnswersOnceContinued() throws {
        let shell = try ControlledShell(name: "ctl-stopped")
        try shell.waitForStatus { $0["state"] as? String == "idle" }
        let pid = shell.running.process.processIdentifier
        XCTAssertEqual(kill(pid, SIGSTOP), 0)
        var continued = false
        defer { if !continued { kill(pid, SIGCONT) } }

        let (silent, seconds) = try ctl(shell, ["--timeout", "1", "status"])
        XCTAssertEqual(silent.status, 1, silent.stdoutText + silent.stderr)
        XCTAssertTrue(silent.stderr.contains("PauseCam at \(shell.socketPath) did not answer within 1 s: "
                                             + "is it stopped (Ctrl-Z) or busy?"), silent.stderr)
        // A 1 s timeout; 20 s is a bound a loaded machine keeps, far below the old 60 s wait.
        XCTAssertLessThan(seconds, 20)

        // Fill the stopped server's queue of waiting clients: then a blocking `connect` itself waits forever.
        let waiting = fillQueue(shell.socketPath)
        defer { waiting.descriptors.forEach { close($0) } }
        XCTAssertTrue(waiting.full, "the queue never filled")
        let (queued, queuedSeconds) = try ctl(shell, ["--timeout", "1", "status"])
        XCTAssertEqual(queued.status, 1, queued.stdoutText + queued.stderr)
        XCTAssertTrue(queued.stderr.contains("did not answer within 1 s"), queued.stderr)
        XCTAssertLessThan(queuedSeconds, 20)

        XCTAssertEqual(kill(pid, SIGCONT), 0)
        continued = true
        let answered = try shell.waitForStatus { $0["state"] as? String == "idle" }
        XCTAssertEqual(answered["state"] as? String, "idle")
        let (status, _) = try ctl(shell, ["status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
    }

    /// Non-blocking connections to `path` until the listener's queue is full (`connect` fails with EAGAIN); the
    /// descriptors, for the caller to close, and whether the queue filled within 256 connections.
    private func fillQueue(_ path: String) -> (descriptors: [Int32], full: Bool) {
        var descriptors: [Int32] = []
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        for _ in 0..<256 {
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard descriptor >= 0 else { break }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if result != 0 {
                let failure = errno
                close(descriptor)
                return (descriptors, failure == EAGAIN)
            }
            descriptors.append(descriptor)
        }
        return (descriptors, false)
    }

    func testABadTimeoutIsAUsageError() throws {
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["ctl", "--timeout", "soon", "status"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--timeout takes seconds"), result.stderr)
    }
}
