import Foundation
import PauseCamTestHelpers
import XCTest

/// A group member whose clock the kernel calls unsynchronised, with `require_sync: true` (the default), through the
/// built binary: its shell warns at the start that `record` would be refused, and every command that would start a
/// clip on it — `record`, and `resume`, `chapter` and `toggle` while idle, from the shell or a script step — is
/// refused by the one rule; nothing is recorded. `PAUSECAM_FAULT_CLOCK_STATUS` stands in for the kernel's status.
final class GroupClockRuleEndToEndTests: XCTestCase {
    func testEveryCommandThatWouldStartAClipIsRefusedOnAnUnsynchronisedClock() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try ProcessRunner.temporaryDirectory("group-clock-rule")
        let base = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
        let rig = directory.appendingPathComponent("cam-a.yaml")
        try (base.replacingOccurrences(of: "name: E2E rig", with: "name: group-cam-a")
             + "group: {name: studio, broker: \"\(broker.url)\", host: cam-a}\n")
            .write(to: rig, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("out")
        let member = try RunningCommand(["shell", rig.path, "--output", output.path],
                                        environment: ["PAUSECAM_FAULT_CLOCK_STATUS": "unsynchronised"],
                                        keepInputOpen: true)
        let transcript = { member.stdout + member.stderr }
        XCTAssertTrue(member.waitFor("joined group studio"), transcript())
        // Warned at the start, before anyone types `record`.
        XCTAssertTrue(member.waitFor("so this member refuses to start recording (group: {require_sync: true})"),
                      transcript())
        for line in ["record Take", "resume", "chapter Two", "toggle"] {
            member.send(line)
            XCTAssertTrue(GroupMemberRig.waitFor("\(line) would start recording: the system clock is not synchronised",
                                                 in: { member.stderr }), "\(line): " + transcript())
        }
        // A script's `record` step meets the same rule.
        member.send("run pauses")
        XCTAssertTrue(GroupMemberRig.waitFor("step record One: record One would start recording", in: { member.stderr }),
                      transcript())
        member.closeInput()
        XCTAssertEqual(member.waitForExit(seconds: 60), 1, transcript())
        XCTAssertFalse(transcript().contains("recording scene"), transcript())
        let written = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        XCTAssertFalse(written.contains { $0.hasSuffix(".mov") }, "\(written)")
    }
}
