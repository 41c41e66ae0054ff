import Foundation
import PauseCamCore
import PauseCamTestHelpers
import XCTest

/// Whoever can publish to the group's broker publishes what they like: a member's own commands still do what they
/// say on it, and what strangers publish is bounded and counted, never able to stop a recording or lose a clip.
final class GroupStrangersEndToEndTests: XCTestCase {
    private static let publisher = "/usr/bin/mosquitto_pub"
    /// The messages of one flood: within what Mosquitto queues for one subscriber (1,000 by default).
    private static let flood = 900

    private func publish(_ broker: MosquittoBroker, topic: String = "pausecam/studio/command", _ payload: String,
                         retained: Bool = false) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.publisher) else {
            throw XCTSkip("\(Self.publisher) is not installed (Debian package mosquitto-clients)")
        }
        let result = try ProcessRunner.run(Self.publisher, ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1",
                                                            "-t", topic, "-m", payload] + (retained ? ["-r"] : []))
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// A command in the shared grammar, published as `from` with sequence number `seq`, for now.
    private func command(_ line: String, from: String, seq: String, fps: String = "30/1") -> String {
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        return #"{"v":1,"group":"studio","from":""# + from + #"","seq":"# + seq + #","command":""# + line
            + #"","at_ns":"# + "\(now)" + #","sent_ns":"# + "\(now)" + #","fps":""# + fps + #""}"#
    }

    /// Member `cam-a` of group `studio` on `broker` (`GroupMemberRig`), its shell recording scene 1 "Take"; its
    /// movies go to `out` in a new folder named after `folder`.
    private func recordingMember(on broker: MosquittoBroker, folder: String,
                                 file: StaticString = #filePath, line: UInt = #line) throws -> (RunningCommand, URL) {
        let directory = try ProcessRunner.temporaryDirectory(folder)
        let rig = try GroupMemberRig.write(host: "cam-a", broker: broker.url, in: directory)
        let output = directory.appendingPathComponent("out")
        let member = try RunningCommand(["shell", rig.path, "--output", output.path], keepInputOpen: true)
        XCTAssertTrue(member.waitFor("joined group studio"), member.stdout + member.stderr, file: file, line: line)
        member.send("record Take")
        XCTAssertTrue(member.waitFor("recording scene 1"), member.stdout + member.stderr, file: file, line: line)
        return (member, output)
    }

    /// A stranger publishes under this member's name with the largest sequence number a message may carry (2^53;
    /// a larger one is dropped as out of range): the member's own later commands (a chapter, the stop) still apply
    /// on it, and its clip is saved.
    func testASpoofedSequenceNumberDoesNotSilenceTheMembersOwnCommands() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let (member, output) = try recordingMember(on: broker, folder: "group-spoofed-seq")
        let transcript = { member.stdout + member.stderr }
        try publish(broker, command("mark spoofed", from: "cam-a", seq: "9007199254740992"))
        XCTAssertTrue(member.waitFor("\"spoofed\""), transcript())
        member.send("chapter Two")
        XCTAssertTrue(member.waitFor("scene 2 \"Two\"", seconds: 15), transcript())
        member.send("wait 1s")
        member.send("stop")
        XCTAssertTrue(member.waitFor("* saved ", seconds: 30), transcript())
        member.closeInput()
        XCTAssertEqual(member.waitForExit(seconds: 60), 0, transcript())
        let sidecar = try GroupMemberRig.assertSaved(host: "cam-a", in: output, context: transcript())
        XCTAssertEqual(sidecar.scenes.map(\.title), ["Take", "Two"], transcript())
        XCTAssertEqual(sidecar.group?.commands.filter { $0.from == "cam-a" }.map(\.command).suffix(2),
                       ["chapter Two", "stop"], transcript())
        // On an unsynchronised clock the member warns, but never advises what its rig already says.
        XCTAssertFalse(member.stdout.contains("write group: {require_sync: false}"), transcript())
    }

    /// Publishes every line of `lines` as one message (`mosquitto_pub -l`).
    private func publishLines(_ broker: MosquittoBroker, _ lines: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.publisher) else {
            throw XCTSkip("\(Self.publisher) is not installed (Debian package mosquitto-clients)")
        }
        let result = try ProcessRunner.run(Self.publisher, ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1",
                                                            "-t", "pausecam/studio/command", "-l"],
                                           input: lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// Publishes `mark LABEL` from another tool, again every half second (a member that just refused a flood takes
    /// commands again at its own pace) until `member` shows it: everything published before it has arrived.
    private func markUntilSeen(_ label: String, _ broker: MosquittoBroker, _ member: RunningCommand,
                               seconds: Double = 60) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var seq = 1
        while Date() < deadline {
            try publish(broker, command("mark \(label)", from: "tool-\(label)", seq: "\(seq)"))
            seq += 1
            if GroupMemberRig.waitFor("\(label)", in: { member.stdout }, seconds: 0.5) { return true }
        }
        return false
    }

    /// A retained status of a member that is not there, at another frame rate, is a hint: a member that joins later
    /// warns and records all the same.
    func testARetainedStatusAtAnotherRateDoesNotStopAMemberRecording() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let status = #"{"v":1,"host":"ghost","state":"idle","scene":0,"timer":0,"dropped":0,"seen_ns":1,"online":true,"fps":"25/1"}"#
        try publish(broker, topic: "pausecam/studio/status/ghost", status, retained: true)
        let directory = try ProcessRunner.temporaryDirectory("group-fake-status")
        let rig = try GroupMemberRig.write(host: "cam-a", broker: broker.url, in: directory)
        let output = directory.appendingPathComponent("out")
        let member = try RunningCommand(["shell", rig.path, "--output", output.path], keepInputOpen: true)
        let transcript = { member.stdout + member.stderr }
        XCTAssertTrue(member.waitFor("joined group studio"), transcript())
        XCTAssertTrue(member.waitFor("ghost records at 25/1 fps, cam-a at 30/1 fps"), transcript())
        member.send("record Take")
        XCTAssertTrue(member.waitFor("recording scene 1"), transcript())
        member.send("wait 1s")
        member.send("stop")
        XCTAssertTrue(member.waitFor("* saved "), transcript())
        member.closeInput()
        XCTAssertEqual(member.waitForExit(seconds: 60), 0, transcript())
        try GroupMemberRig.assertSaved(host: "cam-a", in: output, context: transcript())
    }

    /// A flood of messages that are not the group's (another schema) while a member records: a few warnings and a
    /// count, not a line each; every one is counted in the sidecar, and the clip is saved. (900 messages: Mosquitto
    /// queues at most 1,000 for a subscriber by default and drops the rest, so a larger flood reaches the member only
    /// in part, however it copes.)
    func testAFloodOfJunkIsCountedWithAFewWarnings() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let (member, output) = try recordingMember(on: broker, folder: "group-junk")
        let transcript = { member.stdout + member.stderr }
        try publishLines(broker, (1...Self.flood).map { #"{"v":9,"n":"# + "\($0)}" })
        // Messages arrive in order: a mark seen after the flood says all of it arrived.
        XCTAssertTrue(try markUntilSeen("after-the-flood", broker, member), String(transcript().suffix(3000)))
        member.send("stop")
        XCTAssertTrue(member.waitFor("* saved ", seconds: 60), String(transcript().suffix(3000)))
        member.closeInput()
        XCTAssertEqual(member.waitForExit(seconds: 60), 0, String(transcript().suffix(3000)))
        let warnings = member.stdout.components(separatedBy: "ignored").count - 1
        XCTAssertLessThan(warnings, 50, "a line per message: " + String(transcript().suffix(3000)))
        let sidecar = try GroupMemberRig.assertSaved(host: "cam-a", in: output, context: String(transcript().suffix(3000)))
        XCTAssertEqual(sidecar.group?.dropped?["wrong_schema"], Self.flood)
        XCTAssertLessThan(sidecar.warnings.count, 50, "\(sidecar.warnings.count) warnings in the sidecar")
    }

    /// A flood of marks from a stranger while a member records, then of chapters after its stop: the member takes a
    /// few and counts the rest (the sidecar says how many), and the chapters after the group's stop start no clip.
    func testAFloodOfCommandsIsBoundedAndCountedAndStartsNoClipAfterTheStop() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let (member, output) = try recordingMember(on: broker, folder: "group-command-flood")
        let transcript = { String((member.stdout + member.stderr).suffix(3000)) }
        try publishLines(broker, (1...Self.flood).map { command("mark spam \($0)", from: "spammer", seq: "\($0)") })
        XCTAssertTrue(try markUntilSeen("marks-done", broker, member), transcript())
        member.send("stop")
        XCTAssertTrue(member.waitFor("* saved ", seconds: 60), transcript())
        try publishLines(broker, (1...Self.flood).map {
            command("chapter Spam \($0)", from: "spammer", seq: "\(Self.flood + $0)")
        })
        XCTAssertTrue(try markUntilSeen("chapters-done", broker, member), transcript())
        member.closeInput()
        XCTAssertEqual(member.waitForExit(seconds: 60), 0, transcript())
        let sidecar = try GroupMemberRig.assertSaved(host: "cam-a", in: output, context: transcript())
        let markers = sidecar.scenes.flatMap(\.markers).filter { $0.text.hasPrefix("spam") }.count
        let refused = sidecar.group?.dropped?["over_rate"] ?? 0
        XCTAssertLessThan(markers, 100, "the member took \(markers) of \(Self.flood) marks")
        // The marks published to see the flood through may be refused and counted too.
        XCTAssertGreaterThanOrEqual(markers + refused, Self.flood, "every mark taken or counted as refused")
        let movies = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.contains(".mov") }
        XCTAssertEqual(movies, ["group-cam-a.mov"], "a chapter after the group's stop started a clip: " + transcript())
        let data = try Data(contentsOf: output.appendingPathComponent("group-cam-a.json"))
        XCTAssertLessThan(data.count, 500_000, "the sidecar grew to \(data.count) bytes")
    }
}
