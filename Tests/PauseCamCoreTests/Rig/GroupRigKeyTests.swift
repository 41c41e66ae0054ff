import XCTest
@testable import PauseCamCore

/// `group:` in a rig: defaults (the host from the machine), every key, and each error at its file position.
final class GroupRigKeyTests: XCTestCase {
    private typealias Tree = RigDecoderTests
    private let machine = RigSurroundings(movieFileProblem: { _ in nil }, controlSocketDirectory: nil, hostName: "cam-a")

    /// A rig whose `group:` mapping (at line 9) holds `pairs`, one per line from line 10.
    private func rig(_ pairs: [(String, String)]) -> YAMLNode {
        let group = Tree.m(10, 3, pairs.enumerated().map { index, pair in
            (Tree.s(pair.0, 10 + index, 3), Tree.s(pair.1, 10 + index, 20))
        })
        return Tree.rig(extra: [(Tree.s("group", 9, 1), group)])
    }

    private func messages(_ pairs: [(String, String)], surroundings: RigSurroundings? = nil) -> [String] {
        do {
            _ = try RigDecoder.decode(rig(pairs), surroundings: surroundings ?? machine)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    func testAGroupWithDefaults() throws {
        let decoded = try RigDecoder.decode(rig([("name", "studio"), ("broker", "mqtt://broker.local")]), surroundings: machine)
        XCTAssertEqual(decoded.group, GroupSettings(name: "studio", broker: GroupBrokerAddress(host: "broker.local", port: 1883,
                                                                                          tls: false),
                                                host: "cam-a"))
        XCTAssertEqual(decoded.group?.lead, .milliseconds(250))
        XCTAssertEqual(decoded.group?.requireSync, true)
        XCTAssertNil(try RigDecoder.decode(Tree.rig()).group)
        // Without asking the machine (ctl reading a rig's name), the host stays unknown.
        XCTAssertNil(try RigDecoder.decode(rig([("name", "studio"), ("broker", "mqtt://b")])).group?.host)
    }

    func testEveryKey() throws {
        let decoded = try RigDecoder.decode(rig([
            ("name", "studio"), ("broker", "mqtts://broker.local:8884"), ("host", "cam-b"), ("lead", "400ms"),
            ("require_sync", "false"), ("username", "pausecam"), ("password_file", "/etc/pausecam/mqtt.pw"),
            ("cafile", "ca.crt"), ("certfile", "cam-b.crt"), ("keyfile", "cam-b.key"),
        ]), surroundings: machine)
        XCTAssertEqual(decoded.group, GroupSettings(
            name: "studio", broker: GroupBrokerAddress(host: "broker.local", port: 8884, tls: true), host: "cam-b",
            lead: .milliseconds(400), requireSync: false, username: "pausecam", passwordFile: "/etc/pausecam/mqtt.pw",
            caFile: "ca.crt", certFile: "cam-b.crt", keyFile: "cam-b.key"))
    }

    func testErrorsCarryTheirPositionTable() {
        let base = [("name", "studio"), ("broker", "mqtt://b")]
        let rows: [([(String, String)], [String])] = [
            ([("name", "studio")], ["t.yaml:10:3: group: missing required key \"broker\""]),
            ([("name", "studio"), ("broker", "http://b")],
             ["t.yaml:11:20: group.broker: \"http://b\" is not a broker URL; write \(GroupBrokerAddress.syntax)"]),
            ([("name", "stu/dio"), ("broker", "mqtt://b")],
             ["t.yaml:10:20: group.name: not a usable group name: \"stu/dio\" holds \"/\", which MQTT topics reserve; "
              + "use letters, digits, - _ or ."]),
            (base + [("host", "cam#1")],
             ["t.yaml:12:20: group.host: not a usable host name: \"cam#1\" holds \"#\", which MQTT topics reserve; "
              + "use letters, digits, - _ or ."]),
            (base + [("brokr", "x")], ["t.yaml:12:3: group: unknown key \"brokr\"; did you mean \"broker\"?"]),
            (base + [("lead", "0s")], ["t.yaml:12:20: group.lead: duration 0s is out of range (more than 0, at most 10s)"]),
            (base + [("require_sync", "yes")], ["t.yaml:12:20: group.require_sync: expected true or false, found \"yes\""]),
            (base + [("password_file", "pw")],
             ["t.yaml:12:3: group: password_file needs a username beside it (MQTT sends no password without a user name)"]),
            (base + [("cafile", "ca.crt")],
             ["t.yaml:12:3: group: cafile is for a TLS broker; write the broker as mqtts://b:8883 (or remove cafile)"]),
            ([("name", "studio"), ("broker", "mqtts://b"), ("certfile", "c.crt")],
             ["t.yaml:12:3: group: certfile needs keyfile beside it (a client certificate and its key go together)"]),
        ]
        for (pairs, expected) in rows {
            XCTAssertEqual(messages(pairs), expected, "\(pairs)")
        }
        // The machine's own name is checked when it becomes the member's name.
        let oddMachine = RigSurroundings(movieFileProblem: { _ in nil }, controlSocketDirectory: nil, hostName: "a+b")
        XCTAssertEqual(messages(base, surroundings: oddMachine),
                       ["t.yaml:10:3: group: this machine's hostname cannot name a member: \"a+b\" holds \"+\", which "
                        + "MQTT topics reserve; use letters, digits, - _ or .; write group.host: NAME"])
        XCTAssertEqual(messages(base + [("host", "cam-a")], surroundings: oddMachine), [])
    }
}
