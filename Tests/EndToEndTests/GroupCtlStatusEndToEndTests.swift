import Foundation
import PauseCamTestHelpers
import XCTest

/// `ctl --group` reads the broker's messages as a member does: a status the group's decoder refuses — over 4 KiB,
/// of another schema version, or naming another host than its topic — is neither listed by `status` nor counted
/// when ctl learns the group's rate before it sends a command.
final class GroupCtlStatusEndToEndTests: XCTestCase {
    private let publisher = "/usr/bin/mosquitto_pub"

    /// Publishes `payload`, retained, on `pausecam/studio/status/HOST`, and waits until the broker has it (QoS 1).
    private func retain(_ payload: String, host: String, on broker: MosquittoBroker) throws {
        let published = try ProcessRunner.run(publisher, ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-r",
                                                          "-t", "pausecam/studio/status/\(host)", "-m", payload])
        XCTAssertEqual(published.status, 0, published.stderr)
    }

    /// A status as a member writes it, with `version`, `host` and `fps` given; `padding` spaces after the `{`.
    private func status(version: Int = 1, host: String, fps: String, padding: Int = 0,
                        clockErrorNanoseconds: Int64? = nil) -> String {
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        let clock = clockErrorNanoseconds.map { #""clock_error_ns":\#($0),"# } ?? ""
        return "{" + String(repeating: " ", count: padding)
            + #""v":\#(version),"host":"\#(host)","state":"idle","scene":0,"timer":0,"dropped":0,"#
            + #""seen_ns":\#(now),\#(clock)"online":true,"fps":"\#(fps)"}"#
    }

    private func ctl(_ broker: MosquittoBroker, _ words: String...) throws -> ProcessResult {
        try ProcessRunner.run(BinaryLocator.pausecam.path,
                              ["ctl", "--group", "studio", "--broker", broker.url, "--timeout", "10"] + words)
    }

    func testStatusesTheDecoderRefusesAreNeitherListedNorCountedAsMembers() throws {
        guard FileManager.default.isExecutableFile(atPath: publisher) else {
            throw XCTSkip("\(publisher) is not installed (Debian package mosquitto-clients)")
        }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        try retain(status(host: "cam-a", fps: "30/1"), host: "cam-a", on: broker)
        // Each of these says "online at 25 fps": were any of them read, ctl would see two rates and send nothing.
        try retain(status(host: "cam-x", fps: "25/1"), host: "cam-b", on: broker)
        try retain(status(version: 2, host: "cam-c", fps: "25/1"), host: "cam-c", on: broker)
        let oversized = status(host: "cam-d", fps: "25/1", padding: 4200)
        XCTAssertGreaterThan(oversized.utf8.count, 4096)
        try retain(oversized, host: "cam-d", on: broker)

        let listed = try ctl(broker, "status")
        XCTAssertEqual(listed.status, 0, listed.stdoutText + listed.stderr)
        let lines = listed.stdoutText.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "only cam-a's status is well-formed: " + listed.stdoutText)
        XCTAssertTrue(lines.first?.hasPrefix("cam-a: idle") ?? false, listed.stdoutText)
        for refused in ["cam-x", "cam-b", "cam-c", "cam-d"] {
            XCTAssertFalse(listed.stdoutText.contains(refused), "\(refused) is listed: " + listed.stdoutText)
        }

        let sent = try ctl(broker, "mark", "checked")
        XCTAssertEqual(sent.status, 0, "the refused statuses' 25 fps must not count: " + sent.stdoutText + sent.stderr)
        XCTAssertTrue(sent.stdoutText.hasPrefix("ok sent to group studio (cam-a): mark checked"), sent.stdoutText)
    }

    /// A member's clock error is explained: the kernel's ±16 s is "not synchronised" with what to do, a small one
    /// "within a quarter frame".
    func testTheStatusExplainsEachMembersClockError() throws {
        guard FileManager.default.isExecutableFile(atPath: publisher) else {
            throw XCTSkip("\(publisher) is not installed (Debian package mosquitto-clients)")
        }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        try retain(status(host: "cam-a", fps: "30/1", clockErrorNanoseconds: 16_000_000_000), host: "cam-a", on: broker)
        try retain(status(host: "cam-b", fps: "30/1", clockErrorNanoseconds: 12_000), host: "cam-b", on: broker)
        let listed = try ctl(broker, "status")
        XCTAssertEqual(listed.status, 0, listed.stdoutText + listed.stderr)
        let lines = listed.stdoutText.split(separator: "\n").map(String.init)
        guard lines.count == 2 else { return XCTFail("two members: " + listed.stdoutText) }
        XCTAssertTrue(lines[0].hasPrefix("cam-a: ") && lines[0].contains("clock not synchronised (the kernel's largest "
                      + "error estimate, clock error ±16000.000 ms)") && lines[0].contains("start chrony"), lines[0])
        XCTAssertTrue(lines[1].contains("clock error ±0.012 ms (within a quarter frame)"), lines[1])
    }
}
