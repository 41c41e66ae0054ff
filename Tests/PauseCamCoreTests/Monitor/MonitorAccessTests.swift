import Foundation
import PauseCamCore
import XCTest

/// The browser monitor's pure rules: who may ask (Host, Origin, token), which path is what, and what `--web`
/// accepts, as tables.
final class MonitorAccessTests: XCTestCase {
    func testLoopbackAcceptsOnlyOurOwnHostAndSameOriginCommands() {
        let policy = MonitorAccessPolicy(loopback: true, port: 8361, token: nil)
        let table: [(MonitorAccessPolicy.Request, MonitorAccessPolicy.Verdict)] = [
            (.init(method: "GET", host: "127.0.0.1:8361"), .allow(setCookie: false)),
            (.init(method: "GET", host: "localhost:8361"), .allow(setCookie: false)),
            (.init(method: "GET", host: "LOCALHOST:8361"), .allow(setCookie: false)),
            (.init(method: "GET", host: "[::1]:8361"), .allow(setCookie: false)),
            (.init(method: "GET", host: "127.0.0.1:8360"), .refuse(status: 421, reason: "")),
            (.init(method: "GET", host: "evil.example:8361"), .refuse(status: 421, reason: "")),
            (.init(method: "GET", host: "127.0.0.1"), .refuse(status: 421, reason: "")),
            (.init(method: "GET", host: nil), .refuse(status: 421, reason: "")),
            (.init(method: "POST", host: "127.0.0.1:8361", origin: "http://127.0.0.1:8361"), .allow(setCookie: false)),
            (.init(method: "POST", host: "localhost:8361", origin: "http://localhost:8361"), .allow(setCookie: false)),
            (.init(method: "POST", host: "127.0.0.1:8361", secFetchSite: "same-origin"), .allow(setCookie: false)),
            (.init(method: "POST", host: "127.0.0.1:8361"), .refuse(status: 403, reason: "")),
            (.init(method: "POST", host: "127.0.0.1:8361", origin: "http://evil.example"), .refuse(status: 403, reason: "")),
            (.init(method: "POST", host: "127.0.0.1:8361", origin: "http://localhost:8361"), .refuse(status: 403, reason: "")),
            (.init(method: "POST", host: "127.0.0.1:8361", secFetchSite: "cross-site"), .refuse(status: 403, reason: "")),
            (.init(method: "POST", host: "127.0.0.1:8361", origin: "null"), .refuse(status: 403, reason: "")),
        ]
        for (index, (request, expected)) in table.enumerated() {
            XCTAssertEqual(Self.status(policy.verdict(request)), Self.status(expected), "row \(index)")
        }
    }

    func testALoopbackAddressOtherThan127001IsAHostNameOfItsOwnMonitor() {
        let policy = MonitorAccessPolicy(loopback: true, port: 8361, token: nil, listenHost: "127.0.0.2")
        XCTAssertEqual(Self.status(policy.verdict(.init(method: "GET", host: "127.0.0.2:8361"))), 0)
        XCTAssertEqual(Self.status(policy.verdict(.init(method: "GET", host: "127.0.0.1:8361"))), 0)
        XCTAssertEqual(Self.status(policy.verdict(.init(method: "GET", host: "127.0.0.3:8361"))), 421)
        XCTAssertEqual(Self.status(policy.verdict(.init(method: "GET", host: "127.0.0.2:8360"))), 421)
        XCTAssertEqual(Self.status(MonitorAccessPolicy(loopback: true, port: 8361, token: nil)
                                       .verdict(.init(method: "GET", host: "127.0.0.2:8361"))), 421)
    }

    func testBeyondLoopbackEveryRequestNeedsTheTokenAndTheURLTokenSetsTheCookie() {
        let token = MonitorSessionToken(bytes: Array(0..<16))
        XCTAssertEqual(token.text, "000102030405060708090a0b0c0d0e0f")
        let policy = MonitorAccessPolicy(loopback: false, port: 8360, token: token)
        let host = "192.168.1.20:8360"
        let table: [(MonitorAccessPolicy.Request, MonitorAccessPolicy.Verdict)] = [
            (.init(method: "GET", host: host), .refuse(status: 401, reason: "")),
            (.init(method: "GET", host: host, queryToken: "wrong"), .refuse(status: 401, reason: "")),
            (.init(method: "GET", host: host, queryToken: token.text + "0"), .refuse(status: 401, reason: "")),
            (.init(method: "GET", host: host, queryToken: String(token.text.dropLast())), .refuse(status: 401, reason: "")),
            (.init(method: "GET", host: host, queryToken: token.text), .allow(setCookie: true)),
            (.init(method: "GET", host: host, cookie: "a=b; pausecam_token_8360=\(token.text)"), .allow(setCookie: false)),
            (.init(method: "GET", host: host, cookie: "pausecam_token_8360=nope"), .refuse(status: 401, reason: "")),
            (.init(method: "GET", host: host, cookie: "pausecam_token_8361=\(token.text)"), .refuse(status: 401, reason: "")),
            (.init(method: "GET", host: host, cookie: "pausecam_token=\(token.text)"), .refuse(status: 401, reason: "")),
            (.init(method: "GET", host: host, authorization: "Bearer \(token.text)"), .allow(setCookie: false)),
            (.init(method: "GET", host: host, authorization: "Basic \(token.text)"), .refuse(status: 401, reason: "")),
            (.init(method: "POST", host: host, origin: "http://\(host)", authorization: "Bearer \(token.text)"),
             .allow(setCookie: false)),
            (.init(method: "POST", host: host, authorization: "Bearer \(token.text)"), .refuse(status: 403, reason: "")),
            (.init(method: "POST", host: host, origin: "http://\(host)"), .refuse(status: 401, reason: "")),
        ]
        for (index, (request, expected)) in table.enumerated() {
            XCTAssertEqual(Self.status(policy.verdict(request)), Self.status(expected), "row \(index)")
        }
        let cookie = policy.cookieHeader() ?? ""
        XCTAssertTrue(cookie.hasPrefix("pausecam_token_8360=\(token.text);"), cookie)
        XCTAssertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), cookie)
        if case .refuse(_, let reason) = policy.verdict(.init(method: "GET", host: host)) {
            XCTAssertFalse(reason.contains(token.text))
        }
    }

    func testTokensAreRandomAndCompareWholly() {
        var generator = SystemRandomNumberGenerator()
        let a = MonitorSessionToken(using: &generator), b = MonitorSessionToken(using: &generator)
        XCTAssertEqual(a.text.count, 32)
        XCTAssertTrue(a.text.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        XCTAssertNotEqual(a.text, b.text)
        XCTAssertTrue(a.matches(a.text))
        XCTAssertFalse(a.matches(""))
        XCTAssertFalse(a.matches(b.text))
    }

    func testRoutesRefuseUnknownPathsOtherMethodsAndDotDot() {
        let table: [(String, String, MonitorRoute.Resolution)] = [
            ("GET", "/", .route(.page)),
            ("HEAD", "/", .route(.page)),
            ("GET", "/app.js", .route(.script)),
            ("GET", "/app.css", .route(.styleSheet)),
            ("GET", "/status.json", .route(.status)),
            ("GET", "/events", .route(.events)),
            ("POST", "/command", .route(.command)),
            ("GET", "/program.mjpg", .route(.programStream)),
            ("GET", "/program.jpg", .route(.programStill)),
            ("GET", "/lens/wide.jpg", .route(.lensStill("wide"))),
            ("GET", "/last.jpg", .route(.lastThumbnail)),
            ("GET", "/last.mov", .route(.lastMovie)),
            ("HEAD", "/last.mov", .route(.lastMovie)),
            ("GET", "/clips.json", .route(.recentClips)),
            ("GET", "/clips/3.mov", .route(.recentMovie(3))),
            ("GET", "/clips/12.jpg", .route(.recentThumbnail(12))),
            ("GET", "/clips/0.mov", .refuse(status: 404, reason: "", allow: nil)),
            ("GET", "/clips/-1.mov", .refuse(status: 404, reason: "", allow: nil)),
            ("GET", "/clips/1234567890.mov", .refuse(status: 404, reason: "", allow: nil)),
            ("GET", "/clips/x.jpg", .refuse(status: 404, reason: "", allow: nil)),
            ("GET", "/clips/.mov", .refuse(status: 404, reason: "", allow: nil)),
            ("GET", "/clips/2.mp4", .refuse(status: 404, reason: "", allow: nil)),
            ("POST", "/clips/2.mov", .refuse(status: 405, reason: "", allow: "GET, HEAD")),
            ("POST", "/last.mov", .refuse(status: 405, reason: "", allow: "GET, HEAD")),
            ("GET", "/last.mov/../status.json", .refuse(status: 400, reason: "", allow: nil)),
            ("GET", "/last.mp4", .refuse(status: 404, reason: "", allow: nil)),
            ("GET", "/command", .refuse(status: 405, reason: "", allow: "POST")),
            ("POST", "/status.json", .refuse(status: 405, reason: "", allow: "GET, HEAD")),
            ("DELETE", "/", .refuse(status: 405, reason: "", allow: "GET, HEAD")),
            ("GET", "/nothing", .refuse(status: 404, reason: "", allow: nil)),
            ("GET", "/lens/.jpg", .refuse(status: 404, reason: "", allow: nil)),
            ("GET", "/lens/a/b.jpg", .refuse(status: 404, reason: "", allow: nil)),
            ("GET", "/../etc/passwd", .refuse(status: 400, reason: "", allow: nil)),
            ("GET", "/lens/..%2f.jpg", .refuse(status: 400, reason: "", allow: nil)),
        ]
        for (method, path, expected) in table {
            XCTAssertEqual(Self.shape(MonitorRoute.resolve(method: method, path: path)), Self.shape(expected), "\(method) \(path)")
        }
        XCTAssertEqual(MonitorRoute.commandLine(fromBody: Array("record\n".utf8)), "record")
        XCTAssertEqual(MonitorRoute.commandLine(fromBody: Array("mark good take\r\n".utf8)), "mark good take")
        XCTAssertNil(MonitorRoute.commandLine(fromBody: Array("mark a\u{1b}[2Jb".utf8)))
        XCTAssertNil(MonitorRoute.commandLine(fromBody: Array("record\nstop".utf8)))
        XCTAssertNil(MonitorRoute.commandLine(fromBody: []))
        XCTAssertNil(MonitorRoute.commandLine(fromBody: [0xff, 0xfe]))
    }

    func testByteRangesFollowRFC9110ForOneRangeAndIgnoreTheRest() {
        let size: UInt64 = 1000
        let table: [(String?, MonitorByteRange)] = [
            (nil, .whole),
            ("bytes=0-99", .part(offset: 0, length: 100)),
            ("bytes=0-0", .part(offset: 0, length: 1)),
            ("bytes=500-", .part(offset: 500, length: 500)),
            ("bytes=999-999", .part(offset: 999, length: 1)),
            ("bytes=900-5000", .part(offset: 900, length: 100)),
            ("bytes=-100", .part(offset: 900, length: 100)),
            ("bytes=-5000", .part(offset: 0, length: 1000)),
            ("bytes=-99999999999999999999999", .part(offset: 0, length: 1000)),
            ("Bytes=10-19", .part(offset: 10, length: 10)),
            ("bytes = 10-19", .whole),
            ("bytes=1000-", .unsatisfiable),
            ("bytes=1000-2000", .unsatisfiable),
            ("bytes=99999999999999999999999-", .unsatisfiable),
            ("bytes=-0", .unsatisfiable),
            ("bytes=20-10", .whole),
            ("bytes=0-9,20-29", .whole),
            ("items=0-9", .whole),
            ("bytes=a-b", .whole),
            ("bytes=-", .whole),
            ("bytes=+1-2", .whole),
            ("bytes=١-٢", .whole),
        ]
        for (header, expected) in table {
            XCTAssertEqual(MonitorByteRange.resolve(header, size: size), expected, header ?? "no header")
        }
        XCTAssertEqual(MonitorByteRange.resolve("bytes=0-", size: 0), .unsatisfiable)
        XCTAssertEqual(MonitorByteRange.resolve(nil, size: 0), .whole)
    }

    func testListenAddressesParse() {
        XCTAssertEqual(MonitorListenAddress("127.0.0.1:8360"), MonitorListenAddress(host: "127.0.0.1", port: 8360))
        XCTAssertEqual(MonitorListenAddress("localhost:0"), MonitorListenAddress(host: "127.0.0.1", port: 0))
        XCTAssertEqual(MonitorListenAddress("[::1]:9000"), MonitorListenAddress(host: "::1", port: 9000))
        XCTAssertEqual(MonitorListenAddress("0.0.0.0:8360")?.isLoopback, false)
        XCTAssertEqual(MonitorListenAddress("[::1]:9000")?.isLoopback, true)
        XCTAssertEqual(MonitorListenAddress("[::1]:9000")?.description, "[::1]:9000")
        for bad in ["8360", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "256.0.0.1:80", "example.com:80", "::1:80",
                    "[::1]80", "1.2.3:80", "127.0.0.1:-1", "[zz]:80"] {
            XCTAssertNil(MonitorListenAddress(bad), bad)
        }
    }

    private static func status(_ verdict: MonitorAccessPolicy.Verdict) -> Int {
        switch verdict {
        case .allow(let cookie): return cookie ? 1 : 0
        case .refuse(let status, _): return status
        }
    }

    private static func shape(_ resolution: MonitorRoute.Resolution) -> String {
        switch resolution {
        case .route(let route): return "\(route)"
        case .refuse(let status, _, let allow): return "\(status) \(allow ?? "-")"
        }
    }
}
