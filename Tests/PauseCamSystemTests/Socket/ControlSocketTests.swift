import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
import PauseCamCore
@testable import PauseCamSystem

/// The socket wrappers without the recorder: the lock and its pid, the private folder, stale sockets, and a server
/// whose answers are canned, with limits small enough to see in a test.
final class ControlSocketTests: XCTestCase {
    private func folder(_ name: String, mode: Int = 0o700) throws -> String {
        let path = NSTemporaryDirectory() + "pausecam-sock-\(name)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: mode])
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func testTheLockRefusesASecondClaimWithThePidAndIsFreeAfterRelease() throws {
        let socket = try folder("lock") + "/r.sock"
        let lock = try ControlSocketLock.claim(socketPath: socket, privateDirectory: true)
        XCTAssertThrowsError(try ControlSocketLock.claim(socketPath: socket, privateDirectory: true)) { error in
            XCTAssertEqual(error as? SocketError, .held(socket: socket, pid: getpid()))
            XCTAssertTrue("\(error)".contains("already running in process \(getpid())"), "\(error)")
        }
        lock.release()
        XCTAssertNoThrow(try ControlSocketLock.claim(socketPath: socket, privateDirectory: true).release())
    }

    func testTheSocketFolderMustBePrivate() throws {
        let open = try folder("open", mode: 0o755)
        XCTAssertThrowsError(try ControlSocketLock.ensurePrivateDirectory(open)) { error in
            XCTAssertTrue("\(error)".contains("mode 755"), "\(error)")
        }
        let parent = try folder("parent")
        let created = parent + "/pausecam"
        XCTAssertNoThrow(try ControlSocketLock.ensurePrivateDirectory(created))
        let mode = (try FileManager.default.attributesOfItem(atPath: created)[.posixPermissions] as? NSNumber)?.intValue
        XCTAssertEqual(mode, 0o700)
        let link = parent + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: created)
        XCTAssertThrowsError(try ControlSocketLock.ensurePrivateDirectory(link)) { error in
            XCTAssertTrue("\(error)".contains("not a folder"), "\(error)")
        }
        let file = parent + "/file.sock"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
        let lock = try ControlSocketLock.claim(socketPath: file, privateDirectory: false)
        XCTAssertThrowsError(try ControlServer.start(lock: lock) { _ in .reply(.error("x")) }) { error in
            XCTAssertTrue("\(error)".contains("is not a socket"), "\(error)")
        }
    }

    /// A socket file whose process died (bound, never removed) is replaced; the server answers, times out a silent
    /// client, refuses a too-long line and removes its socket when stopped.
    func testAStaleSocketIsReplacedAndTheServerKeepsItsLimits() throws {
        let socket = try folder("server") + "/s.sock"
        let leftover = try SocketCalls.streamSocket(path: socket)
        try SocketCalls.bind(leftover, path: socket)
        try leftover.close()
        XCTAssertTrue(FileManager.default.fileExists(atPath: socket))
        XCTAssertFalse(ControlClient.isAnswering(path: socket))

        // Short, so the test does not take the default 10 s; long enough that a client that connects and then
        // speaks at once is not timed out on a loaded machine (the clock counts from the server's accept).
        var limits = ControlServer.Limits()
        limits.idleTimeout = .seconds(2)
        let lock = try ControlSocketLock.claim(socketPath: socket, privateDirectory: false)
        let server = try ControlServer.start(lock: lock, limits: limits) { line in
            line == "watch" ? .watch(ControlReply(ok: true, message: "watching")) : .reply(ControlReply(ok: true, message: "echo \(line)"))
        }
        let mode = (try FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? NSNumber)?.intValue
        XCTAssertEqual(mode, 0o600)

        let silent = try ControlClient(path: socket)
        let talker = try ControlClient(path: socket)
        try talker.send("status")
        XCTAssertEqual(talker.readLine(timeoutMilliseconds: 10_000), "ok echo status")
        let watcher = try ControlClient(path: socket)
        try watcher.send("watch")
        XCTAssertEqual(watcher.readLine(timeoutMilliseconds: 10_000), "ok watching")
        server.publish("{\"event\":\"x\"}")
        XCTAssertEqual(watcher.readLine(timeoutMilliseconds: 10_000), "{\"event\":\"x\"}")
        let timeout = silent.readLine(timeoutMilliseconds: 10_000)
        XCTAssertTrue(timeout?.hasPrefix("error no request for") ?? false, "\(timeout ?? "nothing")")
        XCTAssertNil(silent.readLine(timeoutMilliseconds: 10_000), "closed after the timeout")
        Thread.sleep(forTimeInterval: 2.3)  // past the idle timeout: a watcher is not timed out
        server.publish("{\"event\":\"y\"}")
        XCTAssertEqual(watcher.readLine(timeoutMilliseconds: 10_000), "{\"event\":\"y\"}")

        let long = try ControlClient(path: socket)
        try long.send(String(repeating: "a", count: 5000))
        XCTAssertTrue(long.readLine(timeoutMilliseconds: 10_000)?.hasPrefix("error the line is longer") ?? false)
        XCTAssertNil(long.readLine(timeoutMilliseconds: 10_000))

        server.stop()
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket), "a stopped server removes its socket")
        XCTAssertNoThrow(try ControlSocketLock.claim(socketPath: socket, privateDirectory: false).release())
    }

    /// A request that waits for a busy recorder (a remux on the serial context) holds up no one else: the poll loop
    /// goes on answering junk and refusing other clients meanwhile, and the slow reply arrives when it is ready.
    func testASlowAnswerDoesNotHoldUpThePollLoop() throws {
        let socket = try folder("slow") + "/s.sock"
        let release = DispatchSemaphore(value: 0)
        let lock = try ControlSocketLock.claim(socketPath: socket, privateDirectory: false)
        let server = try ControlServer.start(lock: lock) { line in
            if line == "slow" { _ = release.wait(timeout: .now() + 30) }
            return .reply(ControlReply(ok: true, message: line))
        }
        defer { server.stop() }
        let slow = try ControlClient(path: socket)
        try slow.send("slow")
        let other = try ControlClient(path: socket)
        try other.send("\u{0}")
        let junkReply = other.readLine(timeoutMilliseconds: 10_000)
        XCTAssertTrue(junkReply?.contains("NUL") ?? false, "the junk reply waited for the slow answer: \(junkReply ?? "none")")
        release.signal()
        XCTAssertEqual(slow.readLine(timeoutMilliseconds: 30_000), "ok slow")
    }
}
