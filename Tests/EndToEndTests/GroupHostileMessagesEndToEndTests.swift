import Foundation
import PauseCamCore
import PauseCamTestHelpers
import XCTest

/// What anyone who can publish to the group's broker sends a recording member: times and numbers far out of range.
/// The member ignores each such message, counts it (`out_of_range`), goes on recording, and saves its clip.
final class GroupHostileMessagesEndToEndTests: XCTestCase {
    private let publisher = "/usr/bin/mosquitto_pub"

    /// One member, `cam-a`, in group `studio` on `broker`: the end-to-end rig (virtual lenses and microphone), lead 1 s.
    private func member(broker: MosquittoBroker, in directory: URL) throws -> RunningCommand {
        let base = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
        let rig = directory.appendingPathComponent("cam-a.yaml")
        let text = base.replacingOccurrences(of: "name: E2E rig", with: "name: group-cam-a")
            + "group: {name: studio, broker: \"\(broker.url)\", host: cam-a, lead: 1s, require_sync: false}\n"
        try text.write(to: rig, atomically: true, encoding: .utf8)
        return try RunningCommand(["shell", rig.path, "--output", directory.appendingPathComponent("cam-a").path],
                                  keepInputOpen: true)
    }

    /// Publishes `payload` on `pausecam/studio/TOPIC` (QoS 1, so mosquitto_pub ends once the broker has it).
    private func publish(_ payload: String, topic: String = "command", on broker: MosquittoBroker,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        let published = try ProcessRunner.run(publisher, ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1",
                                                          "-t", "pausecam/studio/\(topic)", "-m", payload])
        XCTAssertEqual(published.status, 0, published.stderr, file: file, line: line)
    }

    /// Waits until `member`'s output holds `needle` `count` times; false when the deadline passes or it exited.
    private func wait(_ member: RunningCommand, for needle: String, count: Int = 1, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if member.stdout.components(separatedBy: needle).count - 1 >= count { return true }
            if !member.process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return member.stdout.components(separatedBy: needle).count - 1 >= count
    }

    /// Waits until the member has told of `count` ignored messages: a line each for the first few, then a line that
    /// counts the rest (`ignored N more group message(s)`), as a flood would be told.
    private func waitUntilIgnored(_ member: RunningCommand, count: Int, seconds: Double = 30) -> Bool {
        func told() -> Int {
            let text = member.stdout
            let lines = text.components(separatedBy: "ignored a group message (out_of_range)").count - 1
            let counted = text.components(separatedBy: "\n").compactMap { line -> Int? in
                guard let range = line.range(of: "ignored "), line.contains(" more group message") else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }
            return lines + counted.reduce(0, +)
        }
        let deadline = Date().addingTimeInterval(seconds)
        while told() < count && Date() < deadline && member.process.isRunning { Thread.sleep(forTimeInterval: 0.05) }
        return told() >= count
    }

    /// A command message as a sender writes it, with the fields given as JSON text.
    private func command(_ line: String, from: String, seq: String = "1", at: String, sent: String,
                         fps: String = "\"30/1\"") -> String {
        #"{"v":1,"group":"studio","from":"\#(from)","seq":\#(seq),"command":"\#(line)","at_ns":\#(at),"#
            + #""sent_ns":\#(sent),"fps":\#(fps)}"#
    }

    func testCommandsWithTimesAndNumbersOutOfRangeAreIgnoredAndTheClipIsSaved() throws {
        guard FileManager.default.isExecutableFile(atPath: publisher) else {
            throw XCTSkip("\(publisher) is not installed (Debian package mosquitto-clients)")
        }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try ProcessRunner.temporaryDirectory("group-hostile")
        let member = try member(broker: broker, in: directory)
        XCTAssertTrue(wait(member, for: "joined group studio"), member.stdout + member.stderr)
        member.send("record Take")
        XCTAssertTrue(wait(member, for: "recording scene 1"), member.stdout + member.stderr)

        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        let soon = "\(now + 500_000_000)"
        let hostile = [
            command("mark hostile-1", from: "pub-1", at: "\(Int64.max)", sent: "\(now)"),
            command("mark hostile-2", from: "pub-2", at: "\(Int64.min)", sent: "\(now)"),
            command("mark hostile-3", from: "pub-3", at: soon, sent: "\(Int64.max)"),
            command("mark hostile-4", from: "pub-4", at: soon, sent: "\(Int64.min)"),
            command("mark hostile-5", from: "pub-5", at: "-1", sent: "\(now)"),
            // Just after 2100-01-01T00:00:00Z, the last instant a member accepts.
            command("mark hostile-6", from: "pub-6", at: "4102444800000000001", sent: "\(now)"),
            command("mark hostile-7", from: "pub-7", seq: "18446744073709551615", at: soon, sent: "\(now)"),
            command("mark hostile-8", from: "pub-8", at: soon, sent: "\(now)", fps: "\"0/1\""),
            command("mark hostile-9", from: "pub-9", at: soon, sent: "\(now)", fps: "\"2147483647/1\""),
            command("mark hostile-10", from: "pub-10", at: soon, sent: "\(now)", fps: "\"30/0\""),
            command("mark hostile-11", from: "pub-11", at: soon, sent: "\(now)", fps: "\"-30/-1\""),
        ]
        for payload in hostile { try publish(payload, on: broker) }
        XCTAssertTrue(waitUntilIgnored(member, count: hostile.count),
                      "every hostile command is ignored as out of range: " + member.stdout + member.stderr)

        // A member that died is not written to: its closed pipe would end this test process (SIGPIPE).
        guard member.process.isRunning else { return XCTFail("the member died: " + member.stdout + member.stderr) }
        member.send("stop")
        XCTAssertTrue(wait(member, for: "saved "), member.stdout + member.stderr)
        member.send("quit")
        member.closeInput()
        XCTAssertEqual(member.waitForExit(seconds: 60), 0, member.stdout + member.stderr)

        let folder = directory.appendingPathComponent("cam-a")
        let movie = folder.appendingPathComponent("group-cam-a.mov").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: movie), "no movie: " + member.stdout + member.stderr)
        let streams = try MediaProbe(path: movie).streams()
        XCTAssertEqual(Set(streams.map(\.codecType)).intersection(["video", "audio"]), ["video", "audio"])
        let sidecar = try Sidecar.decode(Data(contentsOf: folder.appendingPathComponent("group-cam-a.json")))
        XCTAssertTrue(sidecar.complete)
        XCTAssertFalse(sidecar.scenes.flatMap(\.markers).contains { $0.text.hasPrefix("hostile") },
                       "\(sidecar.scenes.flatMap(\.markers))")
        XCTAssertEqual(sidecar.group?.dropped?["out_of_range"], hostile.count, "\(String(describing: sidecar.group))")
    }

    /// Retained statuses that crashed `ctl --group status` (a timer past what an `Int64` of nanoseconds holds, a
    /// `seen_ns` whose age overflows) and one whose state would retitle and clear the terminal: every later call
    /// still answers, lists only the member whose numbers are in range, and shows its state as the shell does.
    func testCtlStatusSurvivesHostileRetainedStatusesAndShowsTheirTextVisibly() throws {
        guard FileManager.default.isExecutableFile(atPath: publisher) else {
            throw XCTSkip("\(publisher) is not installed (Debian package mosquitto-clients)")
        }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        func status(host: String, state: String = "idle", timer: String = "0", seen: String = "\(now)") -> String {
            #"{"v":1,"host":"\#(host)","state":"\#(state)","scene":1,"timer":\#(timer),"dropped":0,"#
                + #""seen_ns":\#(seen),"online":true,"fps":"30/1"}"#
        }
        for (host, payload) in [("cam-a", status(host: "cam-a", state: #"rec\u001b]0;PWNED\u0007\u001b[2J"#)),
                                ("cam-b", status(host: "cam-b", timer: "1e10")),
                                ("cam-c", status(host: "cam-c", seen: "\(Int64.min)")),
                                ("cam-d", status(host: "cam-d", timer: "9.2233720368547758e9"))] {
            let published = try ProcessRunner.run(publisher, ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1",
                                                              "-r", "-t", "pausecam/studio/status/\(host)",
                                                              "-m", payload])
            XCTAssertEqual(published.status, 0, published.stderr)
        }
        for _ in 0..<2 {
            let listed = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                               ["ctl", "--group", "studio", "--broker", broker.url, "--timeout", "10",
                                                "status"])
            XCTAssertEqual(listed.status, 0, listed.stdoutText + listed.stderr)
            let lines = listed.stdoutText.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, listed.stdoutText)
            XCTAssertTrue(listed.stdoutText.hasPrefix("cam-a: rec^[]0;PWNED^G^[[2J, scene 1"), listed.stdoutText)
            XCTAssertFalse(listed.stdout.contains(0x1B), "an escape reached the terminal")
            XCTAssertFalse(listed.stdout.contains(0x07), "a bell reached the terminal")
        }
    }

    /// A mark whose group message would pass the 4 KiB every member reads is refused before it is sent, in the shell
    /// and by `ctl --group`, saying so; a long mark that fits goes round the group and lands in the clip.
    func testAMarkTooLongForTheGroupIsRefusedBeforeItIsSent() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try ProcessRunner.temporaryDirectory("group-long-mark")
        let member = try member(broker: broker, in: directory)
        XCTAssertTrue(wait(member, for: "joined group studio"), member.stdout + member.stderr)
        member.send("record Take")
        XCTAssertTrue(wait(member, for: "recording scene 1"), member.stdout + member.stderr)

        let fits = String(repeating: "f", count: 3_500)
        let tooLong = String(repeating: "x", count: 4_200)
        member.send("mark \(tooLong)")
        member.send("mark \(fits)")
        XCTAssertTrue(wait(member, for: "sent to group studio: mark fff"), member.stdout + member.stderr)
        let deadline = Date().addingTimeInterval(30)
        while !member.stderr.contains("\"mark\" is too long for the group") && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertTrue(member.stderr.contains("\"mark\" is too long for the group"), member.stderr)
        XCTAssertTrue(member.stderr.contains("members read at most 4096"), member.stderr)
        XCTAssertFalse(member.stdout.contains("sent to group studio: mark xxx"), member.stdout)

        let sent = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                         ["ctl", "--group", "studio", "--broker", broker.url, "--timeout", "10",
                                          "mark", tooLong])
        XCTAssertEqual(sent.status, 2, sent.stdoutText + sent.stderr)
        XCTAssertTrue(sent.stderr.contains("\"mark\" is too long for the group"), sent.stderr)
        XCTAssertFalse(sent.stdoutText.contains("ok sent"), sent.stdoutText)

        guard member.process.isRunning else { return XCTFail("the member died: " + member.stdout + member.stderr) }
        member.send("stop")
        XCTAssertTrue(wait(member, for: "saved "), member.stdout + member.stderr)
        member.send("quit")
        member.closeInput()
        XCTAssertEqual(member.waitForExit(seconds: 60), 1, "the refused mark is a failed command: " + member.stderr)
        let sidecar = try Sidecar.decode(Data(contentsOf: directory.appendingPathComponent("cam-a/group-cam-a.json")))
        XCTAssertEqual(sidecar.scenes.flatMap(\.markers).map(\.text), [fits])
        XCTAssertNil(sidecar.group?.dropped, "nothing oversized was published: \(String(describing: sidecar.group))")
    }
}
