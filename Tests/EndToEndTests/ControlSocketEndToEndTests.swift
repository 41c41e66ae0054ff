import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Control from another process, on the built binary and the real clock: a shell driven only by
/// `pausecam ctl`, misbehaving clients, another user, the pedal signals on `pausecam run`, a stale socket after
/// SIGKILL and a second instance. Every wait polls for a condition with a generous deadline.
final class ControlSocketEndToEndTests: XCTestCase {
    private func json(_ result: ProcessResult) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], result.stdoutText)
    }

    private func assertOK(_ result: ProcessResult, _ prefix: String = "", file: StaticString = #filePath,
                          line: UInt = #line) {
        XCTAssertEqual(result.status, 0, "stdout: \(result.stdoutText) stderr: \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stdoutText.hasPrefix(prefix), "\(result.stdoutText) does not start with \(prefix)",
                      file: file, line: line)
    }

    private func timer(_ object: [String: Any]) -> Double { object["timer"] as? Double ?? -1 }

    /// The whole take from another process: record, toggle (pause), toggle (resume), chapter, mark, lens, zoom,
    /// status --json, stop; then the movie's chapters and the sidecar show all of it.
    func testAShellDrivenOnlyByCtl() throws {
        let shell = try ControlledShell(name: "ctl-take")
        try shell.waitForStatus { $0["state"] as? String == "idle" }
        let socketFolder = try FileManager.default.attributesOfItem(atPath: shell.runtimeDirectory.path + "/pausecam")
        XCTAssertEqual((socketFolder[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        let socket = try FileManager.default.attributesOfItem(atPath: shell.socketPath)
        XCTAssertEqual((socket[.posixPermissions] as? NSNumber)?.intValue, 0o600)

        assertOK(try shell.ctl(["record", "Intro"]), "recording scene 1")
        try shell.waitForStatus { self.timer($0) >= 1.0 }
        assertOK(try shell.ctl(["toggle"]), "pause:")
        let paused = try shell.waitForStatus { $0["state"] as? String == "paused" }
        Thread.sleep(forTimeInterval: 0.5)  // a pause long enough to cut out; nothing waits on it
        assertOK(try shell.ctl(["toggle"]), "resume:")
        try shell.waitForStatus { self.timer($0) >= self.timer(paused) + 1.0 }
        assertOK(try shell.ctl(["chapter", "Questions"]), "chapter: scene 3")
        let chaptered = try shell.waitForStatus { $0["scene"] as? Int == 3 }
        try shell.waitForStatus { self.timer($0) >= self.timer(chaptered) + 1.0 }
        assertOK(try shell.ctl(["mark", "good", "take"]), "marked \"good take\"")
        assertOK(try shell.ctl(["lens", "wide"]), "lens wide")
        try shell.waitForStatus { $0["lens"] as? String == "wide" }
        assertOK(try shell.ctl(["zoom", "2x"]), "zoom 2x = main 1x × digital 2x")
        let status = try shell.waitForStatus { ($0["zoom"] as? Double ?? 0) > 1.9 }
        XCTAssertEqual(status["state"] as? String, "recording")
        XCTAssertEqual(status["scene"] as? Int, 3)
        XCTAssertEqual(status["lens"] as? String, "main")
        XCTAssertEqual(status["rig"] as? String, "E2E rig")
        XCTAssertEqual(status["dropped_frames"] as? Int, 0)
        XCTAssertNotNil(status["timer_text"] as? String)
        let moviePath = try XCTUnwrap(status["file"] as? String)
        XCTAssertTrue(moviePath.hasPrefix(shell.outputDirectory.path) && moviePath.hasSuffix(".mov"), moviePath)
        try shell.waitForStatus { self.timer($0) >= self.timer(status) + 0.5 }
        assertOK(try shell.ctl(["stop"]), "stopping")
        let sidecarPath = String(moviePath.dropLast(3)) + "json"
        try shell.waitForStatus { $0["state"] as? String == "idle" && FileManager.default.fileExists(atPath: sidecarPath) }

        let refused = try shell.ctl(["pause"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("not recording"), refused.stderr)
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
        XCTAssertTrue(shell.running.stdout.contains("* toggle (remote): pause:"), shell.running.stdout)

        let chapters = try MediaProbe(path: moviePath).chapters()
        XCTAssertEqual(chapters.map(\.title), ["Intro", "Scene 2", "Questions"])
        let sidecar = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sidecarPath)))
                                    as? [String: Any])
        let scenes = try XCTUnwrap(sidecar["scenes"] as? [[String: Any]])
        XCTAssertEqual(scenes.map { $0["title"] as? String }, ["Intro", "Scene 2", "Questions"])
        XCTAssertEqual((sidecar["pauses"] as? [Any])?.count, 1, "toggle paused once; the chapter is no pause")
        let markers = (scenes[2]["markers"] as? [[String: Any]])?.compactMap { $0["text"] as? String }
        XCTAssertEqual(markers, ["good take"])
        let switches = (sidecar["switches"] as? [[String: Any]])?.compactMap { $0["lens"] as? String } ?? []
        XCTAssertTrue(switches.contains("wide") && switches.last == "main", "\(switches)")
        // The chapter starts where scene 2 ends: no gap, no pause.
        let end2 = (scenes[1]["start"] as? Double ?? 0) + (scenes[1]["duration"] as? Double ?? 0)
        XCTAssertEqual(scenes[2]["start"] as? Double ?? -1, end2, accuracy: 1e-6)
        XCTAssertEqual(chapters[2].start, end2, accuracy: 0.002)
    }

    /// Two clients at once, one that says nothing, binary junk and a 1 MiB line: each gets its answer or its error,
    /// and the recorder and the other clients go on.
    func testMisbehavingClientsNeverBlockTheOthers() throws {
        let shell = try ControlledShell(name: "ctl-clients")
        try shell.waitForStatus()
        assertOK(try shell.ctl(["record"]), "recording")
        let silent = try XCTUnwrap(RawSocketClient(path: shell.socketPath))
        let first = try XCTUnwrap(RawSocketClient(path: shell.socketPath))
        let second = try XCTUnwrap(RawSocketClient(path: shell.socketPath))
        first.send(line: "status --json")
        second.send(line: "mark from the second client")
        XCTAssertTrue(second.readLine()?.hasPrefix("ok marked \"from the second client\"") ?? false)
        let firstReply = try XCTUnwrap(first.readLine())
        XCTAssertTrue(firstReply.hasPrefix("ok {"), firstReply)

        let junk = try XCTUnwrap(RawSocketClient(path: shell.socketPath))
        junk.send([0x73, 0x00, 0xff, 0x0a])
        let junkReply = try XCTUnwrap(junk.readLine())
        XCTAssertTrue(junkReply.hasPrefix("error ") && junkReply.contains("NUL"), junkReply)
        junk.send(line: "status")
        XCTAssertTrue(junk.readLine()?.hasPrefix("ok state recording") ?? false, "junk does not end the connection")

        let huge = try XCTUnwrap(RawSocketClient(path: shell.socketPath))
        let sender = Thread { huge.send([UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20) + [0x0a]) }
        sender.start()
        let hugeReply = try XCTUnwrap(huge.readLine())
        XCTAssertTrue(hugeReply.hasPrefix("error the line is longer than 4096 bytes"), hugeReply)
        XCTAssertTrue(huge.isClosedByServer(within: 30), "the connection is closed after a too-long line")

        // With the silent client still connected, a new client is served and the recorder goes on. (Not `first`
        // again: the junk and the huge line may have taken longer than the idle timeout on a loaded machine, and
        // then the server has rightly closed it.)
        let before = try shell.waitForStatus()
        try shell.waitForStatus { self.timer($0) >= self.timer(before) + 0.5 }
        let later = try XCTUnwrap(RawSocketClient(path: shell.socketPath))
        later.send(line: "status")
        XCTAssertTrue(later.readLine()?.hasPrefix("ok state recording") ?? false)
        // The silent one is told and closed after the idle timeout (10 s).
        let timeout = try XCTUnwrap(silent.readLine(seconds: 60))
        XCTAssertTrue(timeout.hasPrefix("error no request for"), timeout)
        XCTAssertTrue(silent.isClosedByServer(within: 30))
        assertOK(try shell.ctl(["stop"]), "stopping")
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
    }

    /// Idle `watch` clients have places of their own: with 32 of them listening, `ctl` still gets answers, and a
    /// 33rd watcher is refused and closed.
    func testManyWatchersLeaveRoomForCommands() throws {
        let shell = try ControlledShell(name: "ctl-watchers")
        try shell.waitForStatus { $0["state"] as? String == "idle" }
        var watchers: [RawSocketClient] = []
        for index in 0..<32 {
            let watcher = try XCTUnwrap(RawSocketClient(path: shell.socketPath))
            watcher.send(line: "watch")
            XCTAssertTrue(watcher.readLine()?.hasPrefix("ok watching") ?? false, "watcher \(index)")
            watchers.append(watcher)
        }
        let status = try shell.ctl(["status"])
        XCTAssertEqual(status.status, 0, status.stdoutText + status.stderr)
        XCTAssertEqual(try json(try shell.ctl(["status", "--json"]))["state"] as? String, "idle")
        let extra = try XCTUnwrap(RawSocketClient(path: shell.socketPath))
        extra.send(line: "watch")
        let refusal = extra.readLine() ?? ""
        XCTAssertTrue(refusal.contains("32 watchers are listening already"), refusal)
        XCTAssertTrue(extra.isClosedByServer(within: 30), "one watcher too many is closed")
        XCTAssertEqual(try shell.ctl(["status"]).status, 0)
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
    }

    /// `watch` prints typed JSON events for every command, whoever gave it (a remote, a line typed in the shell,
    /// a refused one), and for the engine's own news.
    func testWatchPrintsEventsAsJSONLines() throws {
        let shell = try ControlledShell(name: "ctl-watch")
        try shell.waitForStatus()
        let watcher = try XCTUnwrap(RawSocketClient(path: shell.socketPath))
        watcher.send(line: "watch")
        XCTAssertTrue(watcher.readLine()?.hasPrefix("ok watching") ?? false)
        func nextEvent() throws -> [String: Any] {
            let line = try XCTUnwrap(watcher.readLine(), "watch ended early")
            return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
        }

        shell.running.send("pause")
        let refused = try nextEvent()
        XCTAssertEqual(refused["type"] as? String, "command")
        XCTAssertEqual(refused["source"] as? String, "shell")
        XCTAssertEqual(refused["command"] as? String, "pause")
        XCTAssertEqual(refused["ok"] as? Bool, false)
        XCTAssertEqual(refused["state"] as? String, "idle")

        assertOK(try shell.ctl(["record", "W"]), "recording")
        let recorded = try nextEvent()
        XCTAssertEqual(recorded["type"] as? String, "command")
        XCTAssertEqual(recorded["source"] as? String, "remote")
        XCTAssertEqual(recorded["command"] as? String, "record W")
        XCTAssertEqual(recorded["ok"] as? Bool, true)
        XCTAssertEqual(recorded["state"] as? String, "recording")
        XCTAssertEqual(recorded["scene"] as? Int, 1)
        XCTAssertTrue((recorded["message"] as? String)?.hasPrefix("record W (remote): recording scene 1") ?? false,
                      "\(recorded)")

        shell.running.send("lens tele")
        var switched: [String: Any] = [:]
        var effective: [String: Any] = [:]
        while switched.isEmpty || effective.isEmpty {
            let event = try nextEvent()
            if event["type"] as? String == "command" { switched = event }
            if event["type"] as? String == "lens_live" { effective = event }
        }
        XCTAssertEqual(switched["source"] as? String, "shell")
        XCTAssertEqual(switched["command"] as? String, "lens tele")
        XCTAssertEqual(switched["ok"] as? Bool, true)
        XCTAssertEqual(effective["lens"] as? String, "tele")
        XCTAssertEqual(effective["source"] as? String, "engine")

        assertOK(try shell.ctl(["stop"]), "stopping")
        var saved: [String: Any] = [:]
        while saved.isEmpty {
            let event = try nextEvent()
            if event["type"] as? String == "clip_saved" { saved = event }
        }
        XCTAssertTrue((saved["file"] as? String)?.hasSuffix(".mov") ?? false, "\(saved)")
        XCTAssertEqual(saved["scenes"] as? Int, 1)
        XCTAssertGreaterThan(saved["duration"] as? Double ?? 0, 0)
        XCTAssertEqual(shell.finish(), 1, "the refused `pause` typed into the piped shell is its failed command")
        // The shell prints its own commands' replies once, not again as events; the remote's as an event.
        XCTAssertFalse(shell.running.stdout.contains("* lens tele (shell)"), shell.running.stdout)
        XCTAssertTrue(shell.running.stdout.contains("* record W (remote): recording scene 1"), shell.running.stdout)
    }

    /// A client of another user is refused (SO_PEERCRED), even when the socket's mode would let it connect.
    func testAClientOfAnotherUserIsRefused() throws {
        guard getuid() == 0 else { throw XCTSkip("switching to another user needs root; this test runs as uid \(getuid())") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("setpriv (Debian package util-linux) is not installed")
        }
        // A folder every user may enter (the default one is private), with the socket opened to all for the test.
        let open = try ProcessRunner.temporaryDirectory("ctl-other-user")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: open.path)
        var folder = open.deletingLastPathComponent()
        while folder.path != "/" {
            let mode = ((try FileManager.default.attributesOfItem(atPath: folder.path))[.posixPermissions] as? NSNumber)?.intValue ?? 0
            guard mode & 0o001 != 0 else { throw XCTSkip("\(folder.path) is not searchable by other users") }
            folder = folder.deletingLastPathComponent()
        }
        let socket = open.path + "/s.sock"
        let shell = try ControlledShell(name: "ctl-other-user", extraArguments: ["--socket", socket])
        XCTAssertTrue(try waitFor(seconds: 60) {
            try ProcessRunner.run(BinaryLocator.pausecam.path, ["ctl", "--socket", socket, "status"]).status == 0
        }, "the shell never answered on \(socket)")
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: socket)
        let binary = BinaryLocator.pausecam.path
        let probe = try ProcessRunner.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                               binary, "--help"])
        guard probe.status == 0 else { throw XCTSkip("user nobody cannot run \(binary) (a folder on its path is private)") }
        let result = try ProcessRunner.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                                binary, "ctl", "--socket", socket, "record"])
        XCTAssertEqual(result.status, 1, result.stdoutText)
        XCTAssertTrue(result.stderr.contains("refused: user 65534"), result.stderr)
        let status = try json(try ProcessRunner.run(binary, ["ctl", "--socket", socket, "status", "--json"]))
        XCTAssertEqual(status["state"] as? String, "idle", "the other user's record was not carried out")
        XCTAssertEqual(shell.finish(), 0)
    }

    /// SIGUSR1 toggles and SIGUSR2 marks on a running `pausecam run` (a script with a long wait).
    func testPedalSignalsOnRun() throws {
        let shell = try ControlledShell(name: "ctl-signals", command: "run",
                                        rig: ProcessRunner.rig("e2e-pedal.yaml"))
        let pid = shell.running.process.processIdentifier
        let start = try shell.waitForStatus { self.timer($0) >= 1.0 }
        kill(pid, SIGUSR2)
        XCTAssertTrue(waitFor(seconds: 60) { shell.running.stderr.contains("mark SIGUSR2 (SIGUSR2): marked") },
                      shell.running.stderr)
        kill(pid, SIGUSR1)
        try shell.waitForStatus { $0["state"] as? String == "paused" }
        kill(pid, SIGUSR1)
        try shell.waitForStatus { $0["state"] as? String == "recording" && $0["scene"] as? Int == 2 }
        try shell.waitForStatus { self.timer($0) >= self.timer(start) + 1.0 }
        kill(pid, SIGINT)
        XCTAssertEqual(shell.running.waitForExit(seconds: 90), 130, shell.running.stderr)
        let sidecarPath = try XCTUnwrap(shell.running.stdout.split(separator: "\n")
            .first { $0.hasPrefix("sidecar: ") }.map { String($0.dropFirst("sidecar: ".count)) }, shell.running.stdout)
        let sidecar = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sidecarPath)))
                                    as? [String: Any])
        let scenes = try XCTUnwrap(sidecar["scenes"] as? [[String: Any]])
        XCTAssertEqual(scenes.count, 2)
        XCTAssertEqual((sidecar["pauses"] as? [Any])?.count, 1)
        XCTAssertEqual((scenes[0]["markers"] as? [[String: Any]])?.compactMap { $0["text"] as? String }, ["SIGUSR2"])
    }

    /// A second PauseCam on the same rig is refused with the holder's pid; after a SIGKILL the socket file is left
    /// behind, and the next PauseCam replaces it.
    func testSecondInstanceIsRefusedAndAStaleSocketIsReplaced() throws {
        let first = try ControlledShell(name: "ctl-stale")
        try first.waitForStatus()
        let pid = first.running.process.processIdentifier
        let second = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", ProcessRunner.rig("e2e.yaml"), "--output", first.outputDirectory.path],
                                           input: "status\n", environment: first.environment)
        XCTAssertEqual(second.status, 2, "a usage error, like every other")
        XCTAssertTrue(second.stderr.contains("already running in process \(pid)"), second.stderr)

        kill(pid, SIGKILL)
        XCTAssertNotNil(first.running.waitForExit(seconds: 30))
        XCTAssertTrue(FileManager.default.fileExists(atPath: first.socketPath), "SIGKILL leaves the socket file")
        let none = try first.ctl(["status"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("no PauseCam is running"), none.stderr)

        let third = try ControlledShell(name: "ctl-stale-2", runtimeDirectory: first.runtimeDirectory)
        let status = try third.waitForStatus()
        XCTAssertEqual(status["state"] as? String, "idle")
        let lock = try String(contentsOfFile: third.socketPath + ".lock", encoding: .utf8)
        XCTAssertEqual(lock.trimmingCharacters(in: .whitespacesAndNewlines), "\(third.running.process.processIdentifier)")
        XCTAssertEqual(third.finish(), 0)
    }

    private func waitFor(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }
}
