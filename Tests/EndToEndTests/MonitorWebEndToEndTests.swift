import Foundation
import XCTest

/// The browser monitor through the built binary on the real clock: a shell on the e2e rig with
/// `--web 127.0.0.1:0` (a free port, so tests run side by side), driven by `curl` as the page drives it.
final class MonitorWebEndToEndTests: XCTestCase {
    /// The monitor's address, read from `ctl status --json` (the `web` field).
    static func webAddress(_ shell: ControlledShell) throws -> String {
        let status = try shell.waitForStatus { $0["web"] is String }
        return try XCTUnwrap(status["web"] as? String)
    }

    /// `curl` on `url` + `path`; returns the HTTP status and the body.
    static func curl(_ url: String, _ path: String, _ arguments: [String] = []) throws -> (code: Int, body: String) {
        let result = try ProcessRunner.run("/usr/bin/curl", ["-s", "--max-time", "30", "-w", "\n%{http_code}"]
                                           + arguments + [url + path.dropFirst()])
        var lines = result.stdoutText.components(separatedBy: "\n")
        let code = Int(lines.removeLast()) ?? 0
        return (code, lines.joined(separator: "\n"))
    }

    static func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    func testThePageRecordsAndStopsAClipAndRefusesCommandsFromOtherOrigins() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let shell = try ControlledShell(name: "web", extraArguments: ["--web", "127.0.0.1:0"])
        let url = try Self.webAddress(shell)
        XCTAssertTrue(url.hasPrefix("http://127.0.0.1:") && url.hasSuffix("/") && !url.hasSuffix(":0/"), url)
        let printed = Date().addingTimeInterval(30)
        while !shell.running.stderr.contains("monitor: \(url)") && Date() < printed { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertTrue(shell.running.stderr.contains("monitor: \(url)"), shell.running.stderr)
        let origin = String(url.dropLast())

        XCTAssertTrue(try Self.curl(url, "/").body.contains("<title>PauseCam monitor</title>"))
        let events = try EventCurl(url + "events")
        defer { events.stop() }
        XCTAssertTrue(events.waitFor("retry:"), "the event stream opened")

        let refused = try Self.curl(url, "/command", ["--data-binary", "record"])
        XCTAssertEqual(refused.code, 403, refused.body)
        XCTAssertEqual(try Self.json(try Self.curl(url, "/status.json").body)["state"] as? String, "idle",
                       "a command without our Origin did nothing")

        let record = try Self.curl(url, "/command", ["-H", "Origin: \(origin)", "--data-binary", "record Web"])
        XCTAssertEqual(record.code, 200, record.body)
        XCTAssertEqual(try Self.json(record.body)["ok"] as? Bool, true, record.body)
        let deadline = Date().addingTimeInterval(60)
        var status: [String: Any] = [:]
        while Date() < deadline {
            status = try Self.json(try Self.curl(url, "/status.json").body)
            if status["state"] as? String == "recording", (status["timer"] as? Double ?? 0) >= 1 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertEqual(status["state"] as? String, "recording")
        XCTAssertEqual(status["web"] as? String, url)
        XCTAssertTrue(events.waitFor(#""type":"command""#), events.text)
        let command = try XCTUnwrap(events.text.components(separatedBy: "\n").first { $0.contains(#""type":"command""#) })
        let event = try Self.json(String(command.dropFirst("data: ".count)))
        XCTAssertEqual(event["source"] as? String, "web")
        XCTAssertEqual(event["command"] as? String, "record Web")
        XCTAssertEqual(event["ok"] as? Bool, true)

        let moviePath = try XCTUnwrap(status["file"] as? String)
        let stop = try Self.curl(url, "/command", ["-H", "Origin: \(origin)", "--data-binary", "stop"])
        XCTAssertEqual(try Self.json(stop.body)["ok"] as? Bool, true, stop.body)
        XCTAssertTrue(events.waitFor(#""type":"clip_saved""#, seconds: 90), events.text)
        try Self.checkLastClipRoutes(url, moviePath: moviePath)
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
        XCTAssertTrue(shell.running.stdout.contains("* record Web (web): recording scene 1"), shell.running.stdout)
        XCTAssertGreaterThan(try MediaProbe(path: moviePath).duration(), 0.9)
        XCTAssertEqual(try MediaProbe(path: moviePath).chapters().map(\.title), ["Web"])
    }

    /// `/last.jpg` is the saved clip's thumbnail and `/last.mov` its movie, whole or by byte range.
    static func checkLastClipRoutes(_ url: String, moviePath: String) throws {
        let folder = try ProcessRunner.temporaryDirectory("last-clip")
        let movie = try Data(contentsOf: URL(fileURLWithPath: moviePath))
        let thumbnailPath = (moviePath as NSString).deletingPathExtension + ".jpg"
        let fetched = folder.appendingPathComponent("fetched")
        func fetch(_ path: String, _ arguments: [String] = []) throws -> (code: Int, headers: String, body: Data) {
            try? FileManager.default.removeItem(at: fetched)
            let headers = folder.appendingPathComponent("headers")
            let result = try curl(url, path, arguments + ["-D", headers.path, "-o", fetched.path])
            return (result.code, try String(contentsOf: headers, encoding: .utf8).lowercased(),
                    (try? Data(contentsOf: fetched)) ?? Data())
        }
        let thumbnail = try fetch("/last.jpg")
        XCTAssertEqual(thumbnail.code, 200, thumbnail.headers)
        XCTAssertTrue(thumbnail.headers.contains("content-type: image/jpeg"), thumbnail.headers)
        XCTAssertEqual(thumbnail.body, try Data(contentsOf: URL(fileURLWithPath: thumbnailPath)))

        let whole = try fetch("/last.mov")
        XCTAssertEqual(whole.code, 200, whole.headers)
        XCTAssertTrue(whole.headers.contains("accept-ranges: bytes"), whole.headers)
        XCTAssertTrue(whole.headers.contains("content-type: video/quicktime"), whole.headers)
        XCTAssertEqual(whole.body, movie, "the whole movie")

        let first = try fetch("/last.mov", ["-r", "0-99"])
        XCTAssertEqual(first.code, 206, first.headers)
        XCTAssertTrue(first.headers.contains("content-range: bytes 0-99/\(movie.count)"), first.headers)
        XCTAssertEqual(first.body, movie.prefix(100))
        let tail = try fetch("/last.mov", ["-H", "Range: bytes=-10"])
        XCTAssertEqual(tail.code, 206, tail.headers)
        XCTAssertEqual(tail.body, movie.suffix(10))
        let past = try fetch("/last.mov", ["-r", "\(movie.count)-"])
        XCTAssertEqual(past.code, 416, past.headers)
        XCTAssertTrue(past.headers.contains("content-range: bytes */\(movie.count)"), past.headers)
        XCTAssertEqual(try fetch("/last.mov/../../etc/passwd", ["--path-as-is"]).code, 400)
        XCTAssertEqual(try fetch("/last.mov?path=/etc/passwd").body, movie, "a query never names the file")
    }

    /// Once a clip is saved, `/last.mov` and `/last.jpg` keep serving it while the next clip records.
    func testTheLastSavedClipStaysServedWhileTheNextRecords() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let shell = try ControlledShell(name: "web-last", extraArguments: ["--web", "127.0.0.1:0"])
        let url = try Self.webAddress(shell)
        XCTAssertEqual(try shell.ctl(["record", "First"]).status, 0)
        let first = try shell.waitForStatus { $0["state"] as? String == "recording" && ($0["timer"] as? Double ?? 0) >= 1 }
        let moviePath = try XCTUnwrap(first["file"] as? String)
        XCTAssertEqual(try shell.ctl(["stop"]).status, 0)
        try shell.waitForStatus { $0["state"] as? String == "idle" && FileManager.default.fileExists(atPath: moviePath) }
        let deadline = Date().addingTimeInterval(60)
        while try Self.curl(url, "/last.mov", ["-o", "/dev/null"]).code != 200 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertEqual(try shell.ctl(["record", "Second"]).status, 0)
        let second = try shell.waitForStatus { $0["state"] as? String == "recording" && ($0["timer"] as? Double ?? 0) > 0.3 }
        XCTAssertNotEqual(second["file"] as? String, moviePath)
        try Self.checkLastClipRoutes(url, moviePath: moviePath)
        XCTAssertEqual(try shell.ctl(["stop"]).status, 0)
        try shell.waitForStatus { $0["state"] as? String == "idle" }
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
    }

    /// A monitor on another loopback address than 127.0.0.1 answers at the URL it prints.
    func testAMonitorOnAnotherLoopbackAddressAnswersAtItsOwnURL() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let shell = try ControlledShell(name: "web-127-0-0-2", extraArguments: ["--web", "127.0.0.2:0"])
        let url = try Self.webAddress(shell)
        XCTAssertTrue(url.hasPrefix("http://127.0.0.2:"), url)
        let status = try Self.curl(url, "/status.json")
        XCTAssertEqual(status.code, 200, status.body)
        XCTAssertEqual(try Self.json(status.body)["state"] as? String, "idle")
        XCTAssertEqual(try Self.curl(url, "/status.json", ["-H", "Host: 127.0.0.3:1"]).code, 421)
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
    }

    func testNoWebLeavesTheStatusWithoutAnAddress() throws {
        let shell = try ControlledShell(name: "no-web", extraArguments: ["--no-web"])
        let status = try shell.waitForStatus { $0["state"] as? String == "idle" }
        XCTAssertTrue(status["web"] is NSNull, "\(status)")
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
        let both = try ProcessRunner.run(BinaryLocator.pausecam.path, ["shell", ProcessRunner.rig("e2e.yaml"),
                                                                       "--web", "127.0.0.1:0", "--no-web"], input: "")
        XCTAssertEqual(both.status, 2, both.stderr)
        let bad = try ProcessRunner.run(BinaryLocator.pausecam.path, ["shell", ProcessRunner.rig("e2e.yaml"),
                                                                      "--web", "somewhere"], input: "")
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("--web somewhere: expected an IP address and a port"), bad.stderr)
    }

    /// A `curl -N` on the event stream, its output collected as it comes.
    final class EventCurl: @unchecked Sendable {
        private let process = Process()
        private let lock = NSLock()
        private var collected = Data()

        init(_ url: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["-s", "-N", url]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.withLock { self.collected.append(data) }
            }
            try process.run()
        }

        var text: String { lock.withLock { String(decoding: collected, as: UTF8.self) } }

        func waitFor(_ needle: String, seconds: Double = 60) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if text.contains(needle) { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return text.contains(needle)
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }
}
