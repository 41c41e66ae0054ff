import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Slowloris against the browser monitor while a real-clock shell records: one host opens more connections than the
/// server has places and trickles their headers forever, another opens a connection and says nothing. The server
/// keeps places for other hosts (a limit per client address), closes the silent connection at its header deadline,
/// keeps a watched event stream open all along, and the movie is complete and constant-rate.
final class MonitorSlowClientsEndToEndTests: XCTestCase {
    /// More connections than the server serves at once (64), all from one address.
    static let slowConnections = 70

    func testSlowHeadersFromOneHostLeaveTheMonitorToOthersAndASilentClientIsClosed() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let shell = try ControlledShell(name: "slowloris", extraArguments: ["--web", "127.0.0.1:0"])
        let url = try MonitorWebEndToEndTests.webAddress(shell)
        let port = try XCTUnwrap(URLComponents(string: url)?.port)
        let host = "Host: 127.0.0.1:\(port)\r\n"
        XCTAssertEqual(try shell.ctl(["record", "Slow"]).status, 0)
        let recording = try shell.waitForStatus { $0["state"] as? String == "recording" && ($0["timer"] as? Double ?? 0) > 0.3 }
        let moviePath = try XCTUnwrap(recording["file"] as? String)

        let events = try MonitorWebEndToEndTests.EventCurl(url + "events")
        defer { events.stop() }
        XCTAssertTrue(events.waitFor("retry:"), "the event stream opened")

        // A client from another host that starts a request and then says nothing.
        let silent = try XCTUnwrap(RawSocketClient(loopbackPort: port, from: "127.0.0.3"))
        XCTAssertTrue(silent.send(Array("GET /status.json HTTP/1.1\r\n".utf8)))
        let silentSince = Date()

        // Slowloris from 127.0.0.2: every connection sends a header line's byte every second, never ending its headers.
        let slow = (0..<Self.slowConnections).compactMap { _ in RawSocketClient(loopbackPort: port, from: "127.0.0.2") }
        XCTAssertEqual(slow.count, Self.slowConnections, "the kernel accepts every connection; the server decides")
        for client in slow { client.send(Array("GET /status.json HTTP/1.1\r\n\(host)X-Slow: ".utf8)) }
        let trickling = LockedFlag()
        let trickleDone = DispatchGroup()
        DispatchQueue.global().async(group: trickleDone) {
            while trickling.isSet {
                for client in slow { client.send([UInt8(ascii: "z")]) }
                Thread.sleep(forTimeInterval: 1)
            }
        }
        defer {
            trickling.clear()
            trickleDone.wait()
            for client in slow { shutdown(client.descriptor, Int32(SHUT_RDWR)) }
        }

        // Another host is served meanwhile, again and again.
        for _ in 0..<3 {
            let answer = try MonitorWebEndToEndTests.curl(url, "/status.json")
            XCTAssertEqual(answer.code, 200, "GET /status.json while \(Self.slowConnections) slow connections are open")
            XCTAssertEqual((try? MonitorWebEndToEndTests.json(answer.body))?["state"] as? String, "recording")
        }

        // The silent client is closed by the header deadline (5 s), not at once and not after the old 30 s.
        let openAtFirst = !silent.isClosedByServer(within: max(0, 1 - Date().timeIntervalSince(silentSince)))
        XCTAssertTrue(openAtFirst, "the silent client was served a place before its timeout")
        XCTAssertTrue(silent.isClosedByServer(within: 25 - Date().timeIntervalSince(silentSince)),
                      "the silent client is still open \(Int(Date().timeIntervalSince(silentSince))) s later")

        // The event stream, open all along (longer than the idle timeout), still delivers.
        let origin = String(url.dropLast())
        let mark = try MonitorWebEndToEndTests.curl(url, "/command", ["-H", "Origin: \(origin)", "--data-binary", "mark late"])
        XCTAssertEqual(mark.code, 200, mark.body)
        XCTAssertTrue(events.waitFor(#""command":"mark late""#), "the watched event stream was cut: \(events.text)")

        trickling.clear()
        trickleDone.wait()
        XCTAssertEqual(try shell.ctl(["stop"]).status, 0)
        try shell.waitForStatus { $0["state"] as? String == "idle" }
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
        let probe = MediaProbe(path: moviePath)
        XCTAssertGreaterThan(try probe.duration(), 5, "the clip ran through the slow clients, past the header deadline")
        try probe.assertConstantRate(30)
        XCTAssertEqual(try probe.decodeErrors(), "")
    }

    /// Slowloris from the same address as the real client: 24 connections from 127.0.0.1 (the server's limit per
    /// address) trickle their headers a byte a second. The real requests from 127.0.0.1 are served all the same,
    /// and every trickling connection is closed by the server although it never stops sending.
    func testTricklingConnectionsFromTheClientsOwnAddressLeaveItRoomAndAreClosed() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let shell = try ControlledShell(name: "slowloris-same", extraArguments: ["--web", "127.0.0.1:0"])
        let url = try MonitorWebEndToEndTests.webAddress(shell)
        let port = try XCTUnwrap(URLComponents(string: url)?.port)
        let slow = (0..<24).compactMap { _ in RawSocketClient(loopbackPort: port, from: "127.0.0.1") }
        XCTAssertEqual(slow.count, 24)
        for client in slow { client.send(Array("GET /status.json HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: ".utf8)) }
        let trickling = LockedFlag()
        let trickleDone = DispatchGroup()
        DispatchQueue.global().async(group: trickleDone) {
            while trickling.isSet {
                for client in slow { client.send([UInt8(ascii: "z")]) }
                Thread.sleep(forTimeInterval: 1)
            }
        }
        defer {
            trickling.clear()
            trickleDone.wait()
        }
        for attempt in 0..<10 {
            let answer = try MonitorWebEndToEndTests.curl(url, "/status.json")
            XCTAssertEqual(answer.code, 200, "request \(attempt) beside 24 trickling connections from its own address")
        }
        let deadline = Date().addingTimeInterval(30)
        for (index, client) in slow.enumerated() {
            XCTAssertTrue(client.isClosedByServer(within: max(0, deadline.timeIntervalSinceNow)),
                          "trickling connection \(index) is still open")
        }
        trickling.clear()
        trickleDone.wait()
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
    }

    /// A flag one thread clears and another polls.
    final class LockedFlag: @unchecked Sendable {  // `set` is under `lock`
        private let lock = NSLock()
        private var set = true
        var isSet: Bool { lock.withLock { set } }
        func clear() { lock.withLock { set = false } }
    }
}
