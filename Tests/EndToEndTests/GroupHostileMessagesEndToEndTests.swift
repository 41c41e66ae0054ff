import Foundation
import PauseCamCore
import XCTest

/// Whoever can publish to the group's broker publishes what they like: a member's own commands still do what they
/// say on it, and what strangers publish is bounded and counted, never able to stop a recording or lose a clip.
final class GroupHostileMessagesEndToEndTests: XCTestCase {
    private static let publisher = "/usr/bin/mosquitto_pub"

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

    /// A stranger publishes under this member's name with the largest sequence number there is: the member's own
    /// later commands (a chapter, the stop) still apply on it, and its clip is saved.
    func testASpoofedSequenceNumberDoesNotSilenceTheMembersOwnCommands() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try ProcessRunner.temporaryDirectory("group-spoofed-seq")
        let rig = try GroupMemberRig.write(host: "cam-a", broker: broker.url, in: directory)
        let output = directory.appendingPathComponent("out")
        let member = try RunningCommand(["shell", rig.path, "--output", output.path], keepInputOpen: true)
        let transcript = { member.stdout + member.stderr }
        XCTAssertTrue(member.waitFor("joined group studio"), transcript())
        member.send("record Take")
        XCTAssertTrue(member.waitFor("recording scene 1"), transcript())
        try publish(broker, command("mark spoofed", from: "cam-a", seq: "18446744073709551615"))
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
    }
}
