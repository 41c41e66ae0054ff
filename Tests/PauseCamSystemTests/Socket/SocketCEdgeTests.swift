import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import PauseCamSystem

/// The control socket on the C-edge types: its failures carry an `Errno` (so a message names the C constant), its
/// descriptors are `FileDescriptor`s that close once, and the server's poll asks each descriptor for its own events.
final class SocketCEdgeTests: XCTestCase {
    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "pausecam-edge-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// A socket file nobody listens on: `connect` fails with `ECONNREFUSED`, carried as an `Errno` and named in the
    /// message next to the C library's sentence and the hint.
    func testARefusedConnectionCarriesItsErrnoAndNamesIt() throws {
        let socket = try folder() + "/s.sock"
        let leftover = try SocketCalls.streamSocket(path: socket)
        try SocketCalls.bind(leftover, path: socket)
        try leftover.close()
        XCTAssertThrowsError(try ControlClient(path: socket)) { error in
            XCTAssertEqual(error as? SocketError, .call("connect", path: socket, failure: .connectionRefused))
            let text = "\(error)"
            XCTAssertTrue(text.contains("(ECONNREFUSED)"), text)
            XCTAssertTrue(text.contains(String(cString: strerror(ECONNREFUSED))), text)
            XCTAssertTrue(text.contains("no PauseCam is listening there"), text)
        }
        XCTAssertThrowsError(try ControlClient(path: socket + ".missing")) { error in
            XCTAssertTrue("\(error)".contains("(ENOENT)"), "\(error)")
        }
    }

    /// A socket owned by its `FileDescriptor` is closed by `close()`, once: a second close is a no-op and a read
    /// afterwards ends the connection instead of reaching a reused number.
    func testASocketClosesOnceByItsType() throws {
        let socket = try folder() + "/s.sock"
        let listener = try SocketCalls.streamSocket(path: socket)
        try SocketCalls.bind(listener, path: socket)
        try SocketCalls.listen(listener, backlog: 1, path: socket)
        try SocketCalls.setNonBlocking(listener, path: socket)
        XCTAssertNil(try SocketCalls.accept(listener, path: socket), "no client waits yet")
        let client = try SocketCalls.streamSocket(path: socket)
        try SocketCalls.connect(client, path: socket)
        let accepted = try XCTUnwrap(try SocketCalls.accept(listener, path: socket))
        XCTAssertEqual(try SocketCalls.peerUserID(accepted, path: socket), geteuid())
        let number = accepted.rawValue
        try accepted.close()
        XCTAssertTrue(accepted.isClosed)
        XCTAssertNoThrow(try accepted.close(), "a second close is a no-op")
        XCTAssertEqual(fcntl(number, F_GETFD), -1, "the number was really closed")
        var buffer = [UInt8](repeating: 0, count: 8)
        XCTAssertEqual(buffer.withUnsafeMutableBytes { SocketCalls.read(accepted, into: $0) }, .end)
        XCTAssertEqual([UInt8(1)].withUnsafeBytes { SocketCalls.send(accepted, $0) }, .end)
    }

    /// Each descriptor waits for its own events: a connected socket with room to write is ready for POLLOUT but
    /// not for POLLIN, and a negative descriptor is skipped.
    func testPollAsksEachDescriptorForItsOwnEvents() throws {
        let socket = try folder() + "/s.sock"
        let listener = try SocketCalls.streamSocket(path: socket)
        try SocketCalls.bind(listener, path: socket)
        try SocketCalls.listen(listener, backlog: 1, path: socket)
        let client = try SocketCalls.streamSocket(path: socket)
        try SocketCalls.connect(client, path: socket)
        let revents = try Poll.wait([(descriptor: client.rawValue, events: Int16(POLLOUT)),
                                     (descriptor: client.rawValue, events: Int16(POLLIN)),
                                     (descriptor: -1, events: Int16(POLLIN))], timeout: 0).get()
        XCTAssertEqual(revents[0] & Int16(POLLOUT), Int16(POLLOUT))
        XCTAssertEqual(revents[1], 0)
        XCTAssertEqual(revents[2], 0)
    }
}
