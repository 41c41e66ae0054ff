import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Hostile clients of the browser monitor while a real-clock shell records: malformed request lines, a 1 MB
/// header, 10 MB bodies (announced and chunked), a client that sends a byte a second, unknown and `..` paths and a
/// command that fails. Each is refused with a 4xx, or its connection is closed by the server; meanwhile the monitor
/// keeps answering others, and afterwards the movie is complete and constant-rate.
final class MonitorHostileRequestsEndToEndTests: XCTestCase {
    /// What the server did with one hostile request: its status, or `nil` when it closed the connection without one.
    struct Outcome: CustomStringConvertible {
        var status: Int?
        var description: String { status.map { "HTTP \($0)" } ?? "closed by the server" }
    }

    /// Sends `bytes` on a new connection (on another thread, since a server that stops reading would block the
    /// send) and reads the status line; fails the test when the server neither answers nor closes within 30 s.
    func send(_ bytes: [UInt8], port: Int, file: StaticString = #filePath, line: UInt = #line) throws -> Outcome {
        let client = try XCTUnwrap(RawSocketClient(loopbackPort: port), file: file, line: line)
        let sent = DispatchGroup()
        DispatchQueue.global().async(group: sent) { client.send(bytes) }
        defer {
            shutdown(client.descriptor, Int32(SHUT_RDWR))
            sent.wait()
        }
        if let statusLine = client.readLine(seconds: 30) {
            let words = statusLine.split(separator: " ")
            XCTAssertTrue(words.first?.hasPrefix("HTTP/1.") == true, statusLine, file: file, line: line)
            return Outcome(status: words.count > 1 ? Int(words[1]) : nil)
        }
        XCTAssertTrue(client.isClosedByServer(within: 1), "neither an answer nor a close in 30 s", file: file, line: line)
        return Outcome(status: nil)
    }

    func assertRefused(_ outcome: Outcome, _ what: String, status expected: Int? = nil, file: StaticString = #filePath,
                       line: UInt = #line) {
        print("hostile: \(what) → \(outcome)")
        if let expected {
            XCTAssertEqual(outcome.status, expected, "\(what): \(outcome)", file: file, line: line)
        } else if let status = outcome.status {
            XCTAssertTrue((400..<500).contains(status), "\(what): \(outcome)", file: file, line: line)
        }
    }

    func testHostileRequestsDuringARecordingAreRefusedAndTheMovieStaysWhole() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let shell = try ControlledShell(name: "hostile", extraArguments: ["--web", "127.0.0.1:0"])
        let url = try MonitorWebEndToEndTests.webAddress(shell)
        let port = try XCTUnwrap(URLComponents(string: url)?.port)
        let host = "Host: 127.0.0.1:\(port)\r\n"
        XCTAssertEqual(try shell.ctl(["record", "Hostile"]).status, 0)
        let recording = try shell.waitForStatus { $0["state"] as? String == "recording" && ($0["timer"] as? Double ?? 0) > 0.3 }
        let moviePath = try XCTUnwrap(recording["file"] as? String)

        // A client that sends its request a byte every half second (within the 5 s header deadline), while the
        // others below are served.
        let slow = try XCTUnwrap(RawSocketClient(loopbackPort: port))
        let slowDone = DispatchGroup()
        DispatchQueue.global().async(group: slowDone) {
            slow.send(Array("GET /slow-client HTTP/1.1\r\n\(host)X-Slow: ".utf8))
            for byte in Array("abcd".utf8) {
                Thread.sleep(forTimeInterval: 0.5)
                slow.send([byte])
            }
            slow.send(Array("\r\n\r\n".utf8))
        }

        // An HTTP version from the future is told so, as RFC 9110 asks: 505.
        assertRefused(try send(Array("GET / HTTP/9.9\r\n\(host)\r\n".utf8), port: port), "HTTP/9.9", status: 505)
        for request in ["GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET / FOO/1.1\r\n\r\n",
                        " / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nNo colon here\r\n\r\n",
                        "GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\n\(host)\r\n"] {
            assertRefused(try send(Array(request.utf8), port: port), "malformed \(request.prefix(40).debugDescription)")
        }
        assertRefused(try send([0, 0xff, 0xfe, 1, 2, 3, 13, 10, 13, 10], port: port), "binary junk")
        let bigHeader = "GET / HTTP/1.1\r\n\(host)X-Big: " + String(repeating: "a", count: 1 << 20) + "\r\n\r\n"
        assertRefused(try send(Array(bigHeader.utf8), port: port), "a 1 MB header")

        let origin = "Origin: \(url.dropLast())\r\n"
        let tenMegabytes = [UInt8](repeating: UInt8(ascii: "m"), count: 10 << 20)
        let announced = Array("POST /command HTTP/1.1\r\n\(host)\(origin)Content-Length: \(tenMegabytes.count)\r\n\r\n".utf8)
        assertRefused(try send(announced + tenMegabytes, port: port), "a 10 MB body", status: 413)
        var chunked = Array("POST /command HTTP/1.1\r\n\(host)\(origin)Transfer-Encoding: chunked\r\n\r\n".utf8)
        for start in stride(from: 0, to: tenMegabytes.count, by: 1 << 16) {
            chunked += Array("10000\r\n".utf8) + tenMegabytes[start..<(start + (1 << 16))] + Array("\r\n".utf8)
        }
        chunked += Array("0\r\n\r\n".utf8)
        assertRefused(try send(chunked, port: port), "a chunked 10 MB body", status: 413)

        for (path, status) in [("/nothing", 404), ("/lens/nope.jpg", 404), ("http://evil.example/", 404),
                               ("/../../etc/passwd", 400), ("/%2e%2e/%2e%2e/etc/passwd", 400),
                               ("/lens/..%2f..%2fetc%2fpasswd.jpg", 400), ("/last.mov/../../etc/passwd", 400)] {
            assertRefused(try send(Array("GET \(path) HTTP/1.1\r\n\(host)\r\n".utf8), port: port), path, status: status)
        }
        let failing = "lens nosuch"
        let failed = try send(Array("POST /command HTTP/1.1\r\n\(host)\(origin)Content-Length: \(failing.utf8.count)\r\n\r\n\(failing)".utf8),
                              port: port)
        assertRefused(failed, "a command that fails", status: 409)
        let dirty = "mark a\u{1b}[2J"
        assertRefused(try send(Array("POST /command HTTP/1.1\r\n\(host)\(origin)Content-Length: \(dirty.utf8.count)\r\n\r\n\(dirty)".utf8),
                               port: port), "a command with control characters", status: 400)

        // The slow client has not finished; the monitor still answers others.
        XCTAssertEqual(try MonitorWebEndToEndTests.curl(url, "/status.json").code, 200)
        slowDone.wait()
        let slowStatus = slow.readLine(seconds: 30)
        XCTAssertTrue(slowStatus?.hasPrefix("HTTP/1.1 404") == true, "the slow client: \(slowStatus ?? "no answer")")

        let status = try MonitorWebEndToEndTests.json(try MonitorWebEndToEndTests.curl(url, "/status.json").body)
        XCTAssertEqual(status["state"] as? String, "recording", "no hostile request changed the state")
        XCTAssertEqual(try shell.ctl(["stop"]).status, 0)
        try shell.waitForStatus { $0["state"] as? String == "idle" }
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
        let probe = MediaProbe(path: moviePath)
        let timerAfterHostiles = try XCTUnwrap(status["timer"] as? Double)
        XCTAssertGreaterThanOrEqual(try probe.duration(), timerAfterHostiles,
                                    "the clip ran through every hostile request")
        try probe.assertConstantRate(30)
        XCTAssertEqual(try probe.decodeErrors(), "")
    }
}
