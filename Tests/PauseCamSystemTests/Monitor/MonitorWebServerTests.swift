import Foundation
import XCTest
import PauseCamCore
@testable import PauseCamSystem
#if canImport(Glibc)
import Glibc
#endif

/// The browser monitor's server on loopback port 0, driven by real `curl` processes and raw sockets: routes,
/// refusals, Host/Origin/token rules, the event stream, the viewer limit, and a stalled viewer that must not hold
/// up the others. Pictures come from a fake `MonitorPictures` serving JPEG files made by the real `ffmpeg`.
final class MonitorWebServerTests: XCTestCase {
    /// Pictures from fixed JPEG files: a new program picture every 20 ms (faster than any stream may send).
    final class FakePictures: MonitorPictures, @unchecked Sendable {
        let program: [UInt8]
        let lens: [UInt8]
        private let start = Date()
        private let lock = NSLock()
        private var watchers = 0
        private var requests = 0

        init(program: [UInt8], lens: [UInt8]) {
            self.program = program
            self.lens = lens
        }

        var watching: Int { lock.withLock { watchers } }
        var programRequests: Int { lock.withLock { requests } }
        func startWatching() { lock.withLock { watchers += 1 } }
        func stopWatching() { lock.withLock { watchers -= 1 } }

        func programPicture(after sequence: UInt64, timeoutSeconds: Double) -> MonitorPicture? {
            lock.withLock { requests += 1 }
            let current = UInt64(Date().timeIntervalSince(start) / 0.02) + 1
            if current <= sequence {
                Thread.sleep(forTimeInterval: min(timeoutSeconds, Double(sequence + 1) * 0.02 - Date().timeIntervalSince(start)))
            }
            let now = UInt64(Date().timeIntervalSince(start) / 0.02) + 1
            guard now > sequence else { return nil }
            return MonitorPicture(jpeg: program, sequence: now, captureTime: .zero, width: 320, height: 180)
        }

        func lensPicture(_ lens: String) -> MonitorPicture? {
            MonitorPicture(jpeg: self.lens, sequence: 1, captureTime: .zero, width: 160, height: 90)
        }
    }

    /// What the fake rig was asked to do.
    final class Commands: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func record(_ line: String) -> ControlReply {
            lock.withLock { lines.append(line) }
            return line == "pause" ? .error("not recording; `record` first") : ControlReply(ok: true, message: "did \(line)")
        }
        var received: [String] { lock.withLock { lines } }
    }

    static let statusLine = #"{"dropped_frames":0,"state":"idle","timer":0}"#
    static let rig = Rig(name: "Web rig", lenses: [Rig.Lens(name: "wide", zoom: 0.5, source: .virtual(color: RGBColor(red: 0xd0, green: 0x30, blue: 0x30))),
                                                   Rig.Lens(name: "main", source: .virtual(color: RGBColor(red: 0x20, green: 0xc0, blue: 0x40)))],
                         zoomPresets: [Rig.ZoomPreset(name: "2x", lens: "main", digital: 2)])

    static func jpeg(_ name: String, _ source: String) throws -> [UInt8] {
        let path = NSTemporaryDirectory() + "pausecam-web-\(ProcessInfo.processInfo.processIdentifier)-\(name).jpg"
        let result = try run("/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", source,
                                                 "-frames:v", "1", "-q:v", "1", path])
        XCTAssertEqual(result.status, 0, result.error)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    var commands = Commands()
    var pictures: FakePictures?
    var server: MonitorWebServer?
    var base = ""
    var host = ""

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
    }

    override func tearDown() {
        server?.stop()
    }

    @discardableResult
    func start(pictures: Bool = true, token: MonitorSessionToken? = nil,
               program source: String = "color=c=0x3050e0:s=320x180") throws -> MonitorWebServer {
        let fake = pictures ? FakePictures(program: try Self.jpeg("program", source),
                                           lens: try Self.jpeg("lens", "color=c=0xd03030:s=160x90")) : nil
        self.pictures = fake
        let commands = self.commands
        let server = try MonitorWebServer.start(
            MonitorWebServer.Rig(rig: Self.rig, status: { Self.statusLine }, command: { commands.record($0) }, pictures: fake),
            on: MonitorListenAddress(host: "127.0.0.1", port: 0), token: token)
        XCTAssertNotEqual(server.address.port, 0)
        self.server = server
        host = "127.0.0.1:\(server.address.port)"
        base = "http://\(host)"
        return server
    }

    // MARK: Routes

    func testEveryRouteAnswersAndMistakesAreRefusedWithTheirStatus() throws {
        try start()
        let page = try curl(["/"])
        XCTAssertEqual(page.code, 200)
        XCTAssertTrue(page.text.contains(#"<img id="program""#) && page.text.contains("/app.js"), page.text)
        XCTAssertTrue(page.headers.contains("content-security-policy: default-src 'self'"), page.headers)
        XCTAssertTrue(try curl(["/app.js"]).text.contains("EventSource(\"/events\")"))
        XCTAssertTrue(try curl(["/app.css"]).headers.contains("content-type: text/css"))
        XCTAssertEqual(try curl(["/status.json"]).text, Self.statusLine)
        let rig = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try curl(["/rig.json"]).body)) as? [String: Any])
        XCTAssertEqual((rig["lenses"] as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["wide", "main"])
        XCTAssertEqual(rig["max_digital_zoom"] as? Double, 4)

        let still = try curl(["/program.jpg"])
        XCTAssertEqual(still.code, 200)
        XCTAssertEqual(still.body, pictures?.program)
        XCTAssertEqual(try curl(["/lens/wide.jpg"]).body, pictures?.lens)
        XCTAssertEqual(try curl(["/lens/tele.jpg"]).code, 404)

        XCTAssertEqual(try curl(["/nothing"]).code, 404)
        let wrongMethod = try curl(["-X", "DELETE", "/status.json"])
        XCTAssertEqual(wrongMethod.code, 405)
        XCTAssertTrue(wrongMethod.headers.contains("allow: get, head"), wrongMethod.headers)
        XCTAssertEqual(try curl(["/command"]).code, 405)
        XCTAssertEqual(try curl(["--path-as-is", "/../etc/passwd"]).code, 400)
        XCTAssertEqual(try curl(["--path-as-is", "/lens/../status.json"]).code, 400)
        let big = NSTemporaryDirectory() + "pausecam-web-big-\(ProcessInfo.processInfo.processIdentifier)"
        try Data(repeating: 0x61, count: 64 * 1024 + 1).write(to: URL(fileURLWithPath: big))
        XCTAssertEqual(try curl(["-H", "Origin: \(base)", "--data-binary", "@\(big)", "/command"]).code, 413)
        XCTAssertEqual(commands.received, [], "nothing refused reached the rig")
    }

    func testCommandsNeedOurOriginAndOneCleanLine() throws {
        try start()
        let done = try curl(["-H", "Origin: \(base)", "--data-binary", "record", "/command"])
        XCTAssertEqual(done.code, 200)
        let reply = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(done.body)) as? [String: Any])
        XCTAssertEqual(reply["ok"] as? Bool, true)
        XCTAssertEqual(reply["message"] as? String, "did record")
        let refused = try curl(["-H", "Sec-Fetch-Site: same-origin", "--data-binary", "pause", "/command"])
        XCTAssertEqual(refused.code, 409)
        XCTAssertTrue(refused.text.contains(#""ok":false"#), refused.text)

        XCTAssertEqual(try curl(["--data-binary", "stop", "/command"]).code, 403, "no Origin")
        XCTAssertEqual(try curl(["-H", "Origin: http://evil.example", "--data-binary", "stop", "/command"]).code, 403)
        XCTAssertEqual(try curl(["-H", "Origin: http://evil.example", "-H", "Sec-Fetch-Site: cross-site",
                                 "--data-binary", "stop", "/command"]).code, 403)
        XCTAssertEqual(try curl(["-H", "Origin: \(base)", "--data-binary", "mark a\u{1b}[2Jb", "/command"]).code, 400)
        XCTAssertEqual(try curl(["-H", "Origin: \(base)", "--data-binary", "record\nstop", "/command"]).code, 400)
        XCTAssertEqual(commands.received, ["record", "pause"])
    }

    func testALoopbackServerRefusesOtherHostNames() throws {
        try start()
        XCTAssertEqual(try curl(["-H", "Host: attacker.example:\(server!.address.port)", "/status.json"]).code, 421)
        XCTAssertEqual(try curl(["-H", "Host: 127.0.0.1:1", "/status.json"]).code, 421)
        let refused = try curl(["-H", "Host: attacker.example", "/status.json"])
        XCTAssertFalse(refused.text.contains("idle"), "no rig information")
        XCTAssertEqual(try curl(["-H", "Host: localhost:\(server!.address.port)", "/status.json"]).code, 200)
    }

    func testWithATokenEveryRequestNeedsItAndTheURLTokenSetsAnHttpOnlyCookie() throws {
        var generator = SystemRandomNumberGenerator()
        let token = MonitorSessionToken(using: &generator)
        let server = try start(token: token)
        XCTAssertEqual(server.tokenURL, "\(base)/?token=\(token.text)")
        XCTAssertEqual(server.url, "\(base)/")
        for path in ["/", "/status.json", "/rig.json", "/events", "/program.mjpg", "/lens/wide.jpg", "/nothing"] {
            let refused = try curl([path])
            XCTAssertEqual(refused.code, 401, path)
            XCTAssertFalse(refused.text.contains("Web rig") || refused.text.contains("idle"), path)
        }
        XCTAssertEqual(try curl(["/status.json?token=\(String(token.text.reversed()))"]).code, 401)
        let first = try curl(["/?token=\(token.text)"])
        XCTAssertEqual(first.code, 200)
        let cookieLine = first.headers.split(separator: "\n").first { $0.hasPrefix("set-cookie:") }.map(String.init) ?? ""
        XCTAssertTrue(cookieLine.contains("httponly") && cookieLine.contains("samesite=strict"), first.headers)
        XCTAssertEqual(try curl(["-H", "Cookie: pausecam_token_\(server.address.port)=\(token.text)", "/status.json"]).text, Self.statusLine)
        XCTAssertEqual(try curl(["-H", "Authorization: Bearer \(token.text)", "/status.json"]).code, 200)
        XCTAssertEqual(try curl(["-H", "Authorization: Bearer \(token.text)", "--data-binary", "stop", "/command"]).code,
                       403, "the token does not replace the Origin check")
        XCTAssertEqual(commands.received, [])
    }

    func testWithoutPicturesThePictureRoutesSayNoPictureYet() throws {
        try start(pictures: false)
        for path in ["/program.jpg", "/program.mjpg", "/lens/main.jpg"] {
            let response = try curl([path])
            XCTAssertEqual(response.code, 503, path)
            XCTAssertEqual(response.text, "no picture yet\n", path)
        }
        XCTAssertTrue(try curl(["/rig.json"]).text.contains(#""pictures":false"#))
    }

    // MARK: Streams

    func testEventsArriveAsOneJSONObjectPerDataMessage() throws {
        let server = try start()
        let viewer = try StreamingCurl(["-N", "\(base)/events"])
        defer { viewer.stop() }
        XCTAssertTrue(viewer.waitFor { $0.contains("retry:") }, "the stream opened")
        server.publish(.command(CommandEvent(source: .web, line: "record", ok: true, message: "recording scene 1",
                                             state: .recording, scene: 1, movieTime: .zero, lens: "main")))
        server.publish(.noCameraLeft)
        XCTAssertTrue(viewer.waitFor { $0.contains("no_camera_left") }, viewer.text)
        let messages = viewer.text.components(separatedBy: "\n\n").filter { $0.hasPrefix("data: ") }
        XCTAssertEqual(messages.count, 2, viewer.text)
        let first = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(messages[0].dropFirst(6).utf8)) as? [String: Any])
        XCTAssertEqual(first["type"] as? String, "command")
        XCTAssertEqual(first["source"] as? String, "web")
        XCTAssertEqual(first["command"] as? String, "record")
        XCTAssertEqual(pictures?.watching, 1, "an open page counts as a viewer of the tiles")
    }

    func testTheProgramStreamIsMultipartJPEGAtMost15PicturesASecond() throws {
        try start()
        let started = Date()
        let result = try Self.run("/usr/bin/curl", ["-s", "-N", "--max-time", "2", "-H", "Host: \(host)",
                                                    "\(base)/program.mjpg", "-o", "-", "-D", "/dev/stderr"])
        let seconds = Date().timeIntervalSince(started)
        let body = String(decoding: result.output, as: UTF8.self)
        XCTAssertTrue(result.error.lowercased().contains("content-type: multipart/x-mixed-replace; boundary=pausecam-frame"),
                      result.error)
        let parts = body.components(separatedBy: "--pausecam-frame\r\n").count - 1
        XCTAssertGreaterThanOrEqual(parts, 2, "pictures came")
        XCTAssertLessThanOrEqual(Double(parts), seconds * 15 + 1, "at most 15 a second")
        XCTAssertTrue(result.output.starts(with: Array("--pausecam-frame\r\nContent-Type: image/jpeg\r\nContent-Length: ".utf8)))
        let jpegStart = try XCTUnwrap(Self.find([0xff, 0xd8], in: result.output))
        XCTAssertEqual(Array(result.output[jpegStart..<(jpegStart + pictures!.program.count)]), pictures!.program)
    }

    func testAt16StreamingViewersTheNextIsRefusedAndALeavingViewerFreesItsPlace() throws {
        try start()
        var viewers: [StreamingCurl] = []
        defer { viewers.forEach { $0.stop() } }
        for index in 0..<MonitorWebServer.maximumViewers {
            let path = index % 2 == 0 ? "/program.mjpg" : "/events"
            let viewer = try StreamingCurl(["-N", "\(base)\(path)"])
            viewers.append(viewer)
            XCTAssertTrue(viewer.waitFor { !$0.isEmpty }, "viewer \(index) got its stream")
        }
        let refused = try curl(["/program.mjpg"])
        XCTAssertEqual(refused.code, 503)
        XCTAssertTrue(refused.text.contains("too many viewers"), refused.text)
        XCTAssertEqual(try curl(["/events"]).code, 503)
        XCTAssertEqual(try curl(["/status.json"]).code, 200, "the limit is on streams, not on the page")
        viewers.removeFirst().stop()  // a picture stream: it notices at its next picture
        let deadline = Date().addingTimeInterval(30)
        var again: StreamingCurl?
        while Date() < deadline {
            let attempt = try StreamingCurl(["-N", "\(base)/program.mjpg"])
            if attempt.waitFor({ $0.contains("--pausecam-frame") || $0.contains("too many") }), attempt.text.contains("--pausecam-frame") {
                again = attempt
                break
            }
            attempt.stop()
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertNotNil(again, "a place was freed when a viewer left")
        again.map { viewers.append($0) }
    }

    func testAStalledViewerDoesNotHoldUpTheOthers() throws {
        try start(program: "nullsrc=s=1280x720,geq=random(1)*255:128:128")
        let pictures = try XCTUnwrap(self.pictures)
        let stalled = try RawConnection(port: server!.address.port, receiveBuffer: 4096)
        defer { stalled.close() }
        try stalled.send("GET /program.mjpg HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        // Until its send buffer is full the stalled stream goes on asking for pictures; then it stops asking.
        let deadline = Date().addingTimeInterval(60)
        var last = -1
        while Date() < deadline {
            let now = pictures.programRequests
            if now == last && now > 0 { break }
            last = now
            Thread.sleep(forTimeInterval: 1)
        }
        XCTAssertEqual(pictures.programRequests, last, "the stalled viewer's stream is blocked on its full socket")
        let other = try StreamingCurl(["-N", "\(base)/program.mjpg"])
        defer { other.stop() }
        XCTAssertTrue(other.waitFor(seconds: 30) { $0.components(separatedBy: "--pausecam-frame").count > 5 },
                      "another viewer got 5 pictures while the first stalls")
        XCTAssertEqual(try curl(["/status.json"]).code, 200)
    }

    // MARK: Many clients

    /// 66 connections without the token from three addresses trickle their headers; a client with the token, from a
    /// fourth address, is served all the same; a complete request without the token is refused and closed.
    func testTricklingClientsWithoutTheTokenLeaveRoomForTheToken() throws {
        var generator = SystemRandomNumberGenerator()
        let token = MonitorSessionToken(using: &generator)
        try start(pictures: false, token: token)
        var slow: [RawConnection] = []
        defer { slow.forEach { $0.close() } }
        for source in ["127.0.0.2", "127.0.0.3", "127.0.0.4"] {
            for _ in 0..<22 {
                let connection = try RawConnection(port: server!.address.port, receiveBuffer: 65536, from: source)
                try connection.send("GET /status.json HTTP/1.1\r\nHost: \(host)\r\nX-Slow: ")
                slow.append(connection)
            }
        }
        let trickling = Flag()
        let trickleDone = DispatchGroup()
        let trickled = slow
        DispatchQueue.global().async(group: trickleDone) {
            while trickling.isSet {
                for connection in trickled { try? connection.send("z") }
                Thread.sleep(forTimeInterval: 1)
            }
        }
        defer {
            trickling.clear()
            trickleDone.wait()
        }
        for attempt in 0..<5 {
            let answer = try curl(["--interface", "127.0.0.5", "-H", "Authorization: Bearer \(token.text)", "/status.json"])
            XCTAssertEqual(answer.code, 200, "request \(attempt) with the token beside 66 trickling connections")
        }
        let refused = try curl(["--interface", "127.0.0.2", "/status.json"])
        XCTAssertEqual(refused.code, 401)
        XCTAssertTrue(refused.headers.contains("connection: close"), refused.headers)
    }

    /// 100 clients open the event stream: 16 get it, the other 84 (at once) are refused and closed, and the page's
    /// other requests are still answered.
    func testAHundredEventClientsLeaveRoomForTheStatus() throws {
        try start(pictures: false)
        var clients: [RawConnection] = []
        defer { clients.forEach { $0.close() } }
        for index in 0..<MonitorWebServer.maximumViewers {
            let client = try RawConnection(port: server!.address.port, receiveBuffer: 65536)
            try client.send("GET /events HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            XCTAssertTrue(String(decoding: client.readSome(seconds: 10) ?? [], as: UTF8.self).contains("200 OK"),
                          "stream \(index) opened")
            clients.append(client)
        }
        for _ in MonitorWebServer.maximumViewers..<100 {
            guard let client = try? RawConnection(port: server!.address.port, receiveBuffer: 65536) else { continue }
            try? client.send("GET /events HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            clients.append(client)
        }
        // Each has its answer (the stream's head, or 503) or was turned away before the next request goes.
        for client in clients.dropFirst(MonitorWebServer.maximumViewers) { _ = client.readSome(seconds: 10) }
        for attempt in 0..<3 {
            XCTAssertEqual(try curl(["/status.json"]).code, 200, "status \(attempt) beside 100 event clients")
        }
        let refused = try curl(["/events"])
        XCTAssertEqual(refused.code, 503)
        XCTAssertTrue(refused.headers.contains("connection: close"), refused.headers)
    }

    /// The token's cookie is named after the port, so two monitors on one host keep one cookie each.
    func testTwoTokenMonitorsOnOneHostKeepTheirOwnCookies() throws {
        var generator = SystemRandomNumberGenerator()
        let first = try start(pictures: false, token: MonitorSessionToken(using: &generator))
        let firstBase = base
        let secondToken = MonitorSessionToken(using: &generator)
        let second = try MonitorWebServer.start(
            MonitorWebServer.Rig(rig: Self.rig, status: { Self.statusLine }, command: { _ in .error("no") }, pictures: nil),
            on: MonitorListenAddress(host: "127.0.0.1", port: 0), token: secondToken)
        defer { second.stop() }
        func cookie(_ server: MonitorWebServer, _ token: MonitorSessionToken) throws -> String {
            base = "http://127.0.0.1:\(server.address.port)"
            let answer = try curl(["/?token=\(token.text)"])
            XCTAssertEqual(answer.code, 200)
            return answer.headers.split(separator: "\n").first { $0.hasPrefix("set-cookie:") }.map(String.init) ?? ""
        }
        let firstCookie = try cookie(first, first.token!)
        let secondCookie = try cookie(second, secondToken)
        XCTAssertTrue(firstCookie.hasPrefix("set-cookie: pausecam_token_\(first.address.port)="), firstCookie)
        XCTAssertTrue(secondCookie.hasPrefix("set-cookie: pausecam_token_\(second.address.port)="), secondCookie)
        base = "http://127.0.0.1:\(second.address.port)"
        XCTAssertEqual(try curl(["-H", "Cookie: pausecam_token_\(second.address.port)=\(secondToken.text)", "/status.json"]).code, 200)
        XCTAssertEqual(try curl(["-H", "Cookie: pausecam_token_\(first.address.port)=\(secondToken.text)", "/status.json"]).code,
                       401, "another port's cookie is not ours")
        base = firstBase
    }

    func testTheRigKeyWebListenIsDecodedAndAWrongOneNamesItsPlace() throws {
        let rig = try RigLoader.load(text: "name: A\nlenses:\n  main: {zoom: 1, virtual: {color: \"#ff0000\"}}\nweb: {listen: \"0.0.0.0:8370\"}\n",
                                     file: "a.yaml")
        XCTAssertEqual(rig.web, MonitorListenAddress(host: "0.0.0.0", port: 8370))
        XCTAssertThrowsError(try RigLoader.load(text: "name: A\nlenses:\n  main: {zoom: 1, virtual: {color: \"#ff0000\"}}\nweb:\n  listen: here\n",
                                                file: "a.yaml")) { error in
            XCTAssertTrue("\(error)".contains("a.yaml:5:11: web.listen: \"here\" is not an IP address"), "\(error)")
        }
        XCTAssertThrowsError(try RigLoader.load(text: "name: A\nlenses:\n  main: {zoom: 1, virtual: {color: \"#ff0000\"}}\nweb: {port: 1}\n",
                                                file: "a.yaml")) { error in
            XCTAssertTrue("\(error)".contains("a.yaml:4:7"), "\(error)")
        }
    }

    // MARK: Helpers

    struct Response {
        var code: Int
        var headers: String
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// One request with `curl` to this server; the last argument is the path (joined to the base URL).
    func curl(_ arguments: [String]) throws -> Response {
        var words = arguments
        let path = words.removeLast()
        let headerFile = NSTemporaryDirectory() + "pausecam-web-headers-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: headerFile) }
        let result = try Self.run("/usr/bin/curl", ["-s", "--max-time", "20", "-D", headerFile, "-o", "-"] + words + [base + path])
        let headers = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        let code = headers.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return Response(code: code, headers: headers.lowercased().replacingOccurrences(of: "\r", with: ""), body: result.output)
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: [UInt8], error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errorPath = NSTemporaryDirectory() + "pausecam-web-stderr-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        let error = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try error.close()
        let errorText = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        return (process.terminationStatus, Array(data), errorText)
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    /// A `curl` left running on a stream, its output collected as it comes.
    final class StreamingCurl: @unchecked Sendable {
        private let process = Process()
        private let lock = NSLock()
        private var collected = Data()

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["-s"] + arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.withLock {
                    // Keep the start and the newest bytes: enough to see headers and count parts.
                    self.collected.append(data)
                    if self.collected.count > 8_000_000 { self.collected.removeFirst(self.collected.count - 4_000_000) }
                }
            }
            try process.run()
        }

        var text: String { lock.withLock { String(decoding: collected, as: UTF8.self) } }

        /// Polls until `condition` holds on the output so far (at most `seconds`).
        func waitFor(seconds: Double = 30, _ condition: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition(text) { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return condition(text)
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    /// A flag one thread clears and another polls.
    final class Flag: Sendable {
        private let value = Guarded(true)
        var isSet: Bool { value.withLock { $0 } }
        func clear() { value.withLock { $0 = false } }
    }

    /// A raw TCP client with a small receive buffer that the test never reads: a viewer on a stalled network; or,
    /// from another loopback address (`source`), a client that sends its request a piece at a time.
    final class RawConnection: @unchecked Sendable {  // one thread sends while another closes; they share only the descriptor
        let descriptor: Int32

        init(port: Int, receiveBuffer: Int32, from source: String? = nil) throws {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var size = receiveBuffer
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            if let source {
                var local = sockaddr_in()
                local.sin_family = sa_family_t(AF_INET)
                local.sin_addr.s_addr = inet_addr(source)
                let bound = withUnsafePointer(to: &local) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                guard bound == 0 else { throw Errno(rawValue: errno) }
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard result == 0 else { throw Errno(rawValue: errno) }
        }

        func send(_ text: String) throws {
            let bytes = Array(text.utf8)
            guard Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
                throw Errno(rawValue: errno)
            }
        }

        /// Waits up to `seconds` for bytes or the end of the connection; the bytes (empty at the end), or nil.
        func readSome(seconds: Double) -> [UInt8]? {
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            guard poll(&descriptors, 1, Int32(seconds * 1000)) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            return count > 0 ? Array(chunk[..<count]) : []
        }

        func close() { _ = Glibc.close(descriptor) }
    }
}
