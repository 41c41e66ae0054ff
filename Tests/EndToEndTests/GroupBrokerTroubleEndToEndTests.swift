import Foundation
import PauseCamCore
import PauseCamTestHelpers
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A member whose broker is missing, silent or refuses it still records what it is told, from the moment it is
/// told: the bus only adds to a member, it never holds its recording back. Commands given while the broker is away
/// apply on the member that got them and reach no other member later.
final class GroupBrokerTroubleEndToEndTests: XCTestCase {
    /// A TCP listener on 127.0.0.1 that takes connections (the kernel's backlog does) and never says a word: a
    /// broker that hangs, or something else on its port.
    private final class SilentListener {
        let socket: Int32
        let port: Int

        init() throws {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            self.socket = socket
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let ready = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, length) == 0 && listen(socket, 16) == 0 && getsockname(socket, $0, &length) == 0
                }
            }
            guard ready else {
                close(socket)
                throw POSIXError(.init(rawValue: errno) ?? .EIO)
            }
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(socket) }
    }

    /// `mosquitto_sub` on the group's command topic (`-d`: it says SUBACK once subscribed), its output line-buffered
    /// by `stdbuf` (a pipe would keep it until the end).
    private final class CommandListener {
        let process = Process()
        let output = PipeCollector()

        init(port: Int) throws {
            let program = "/usr/bin/mosquitto_sub"
            guard FileManager.default.isExecutableFile(atPath: program) else {
                throw XCTSkip("\(program) is not installed (Debian package mosquitto-clients)")
            }
            process.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
            process.arguments = ["-oL", program, "-d", "-h", "127.0.0.1", "-p", "\(port)", "-q", "1",
                                 "-t", "pausecam/studio/command"]
            process.standardOutput = output.pipe
            process.standardError = output.pipe
            try process.run()
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            _ = output.waitForEnd()
        }

        deinit { stop() }
    }

    /// A port on 127.0.0.1 that nothing listens on: bound, then closed again.
    private func closedPort() throws -> Int {
        let listener = try SilentListener()
        return listener.port
    }

    /// Starts a member on `broker`, waits until its control socket answers (the process is up: from then on a line
    /// it is given is its user's), gives it `record`, and `stop` three seconds later. The movie holds those three
    /// seconds (to within a second), on this member alone.
    private func assertATakeIsRecordedWhole(broker: String, name: String, extra: String = "") throws {
        let directory = try ProcessRunner.temporaryDirectory(name)
        let rig = try GroupMemberRig.write(host: "cam-a", broker: broker, in: directory, extra: extra)
        let output = directory.appendingPathComponent("out")
        let socket = directory.appendingPathComponent("ctl.sock").path
        let member = try RunningCommand(["shell", rig.path, "--output", output.path, "--socket", socket],
                                        keepInputOpen: true)
        let transcript = { "\(name): " + member.stdout + member.stderr }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: socket),
               try ProcessRunner.run(BinaryLocator.pausecam.path, ["ctl", "--socket", socket, "status"]).status == 0 {
                break
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        member.send("record Take")
        // The take's length, as a person would give it: the member must record it all.
        Thread.sleep(forTimeInterval: 3)
        member.send("stop")
        XCTAssertTrue(member.waitFor("* saved ", seconds: 30), transcript())
        member.closeInput()
        XCTAssertEqual(member.waitForExit(seconds: 60), 0, transcript())
        let sidecar = try GroupMemberRig.assertSaved(host: "cam-a", in: output, context: transcript())
        XCTAssertGreaterThanOrEqual(sidecar.duration, 2.0, "a 3 s take: " + transcript())
        XCTAssertEqual(sidecar.group?.commands.map(\.outcome), ["local_only", "local_only"], transcript())
        XCTAssertTrue(member.stdout.contains("applied on this member only"), transcript())
        // Said once, by the command's reply, and truthfully: nothing claims it was sent.
        XCTAssertEqual(member.stdout.components(separatedBy: "\"record Take\" applied on this member only").count - 1,
                       1, transcript())
        XCTAssertFalse(member.stdout.contains("applies on this member only"), transcript())
        XCTAssertFalse(member.stdout.contains("on every member"), "a command applied here alone was not sent: "
                       + transcript())
        XCTAssertFalse(member.stdout.contains("require_sync: false}"), "the rig says require_sync: false already: "
                       + transcript())
    }

    func testATakeIsRecordedWholeWhenNothingListensOnTheBrokersPort() throws {
        try assertATakeIsRecordedWhole(broker: "mqtt://127.0.0.1:\(try closedPort())", name: "group-no-broker")
    }

    func testATakeIsRecordedWholeWhenTheBrokersPortNeverAnswers() throws {
        let listener = try SilentListener()
        try withExtendedLifetime(listener) {
            try assertATakeIsRecordedWhole(broker: "mqtt://127.0.0.1:\(listener.port)", name: "group-silent-broker")
        }
    }

    func testATakeIsRecordedWholeWhenTheBrokerRefusesThePassword() throws {
        let broker = try MosquittoBroker(credentials: .init(username: "cam", password: "right"))
        defer { broker.stop() }
        let passwordFile = broker.folder.appendingPathComponent("wrong-password")
        try "wrong\n".write(to: passwordFile, atomically: true, encoding: .utf8)
        try assertATakeIsRecordedWhole(broker: broker.url, name: "group-wrong-password",
                                       extra: "username: cam, password_file: \"\(passwordFile.path)\"")
    }

    /// The broker stops while two members record; one member is paused meanwhile (on itself only). When the broker
    /// is back, the other member never gets that pause: its clip runs on to the group's `stop` in one scene.
    func testACommandGivenWhileTheBrokerIsAwayIsNeverDeliveredLater() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try ProcessRunner.temporaryDirectory("group-outage")
        let members = try ["cam-a", "cam-b"].map { host in
            let rig = try GroupMemberRig.write(host: host, broker: broker.url, in: directory, lead: "1s")
            return try RunningCommand(["shell", rig.path, "--output", directory.appendingPathComponent(host).path],
                                      keepInputOpen: true)
        }
        let transcript = { members.map { $0.stdout + $0.stderr }.joined(separator: "\n---\n") }
        for member in members { XCTAssertTrue(member.waitFor("joined group studio"), transcript()) }
        members[0].send("record Take")
        for member in members { XCTAssertTrue(member.waitFor("recording scene 1"), transcript()) }
        broker.stop()
        for member in members { XCTAssertTrue(member.waitFor("lost the group's broker"), transcript()) }
        members[0].send("pause")
        XCTAssertTrue(members[0].waitFor("\"pause\" applied on this member only"), transcript())
        XCTAssertTrue(members[0].waitFor("paused at"), transcript())
        try broker.start()
        // A listener on the group's commands, subscribed before the members are back (they retry after a second).
        let listener = try CommandListener(port: broker.port)
        XCTAssertTrue(GroupMemberRig.waitFor("SUBACK", in: { listener.output.text }), listener.output.text)
        for member in members { XCTAssertTrue(member.waitFor("the group's broker is back"), transcript()) }
        // cam-a's resume goes out after anything its client kept from the outage: once cam-b has it, it has seen all.
        members[0].send("resume")
        XCTAssertTrue(members[0].waitFor("recording scene 2"), transcript())
        XCTAssertTrue(members[1].waitFor("resume (group)"), transcript())
        members[0].send("stop")
        for member in members { XCTAssertTrue(member.waitFor("* saved ", seconds: 30), transcript()) }
        for member in members {
            member.closeInput()
            XCTAssertEqual(member.waitForExit(seconds: 60), 0, transcript())
        }
        listener.stop()
        let heard = listener.output.text
        XCTAssertTrue(heard.contains(#""command":"resume""#), heard)
        XCTAssertFalse(heard.contains(#""command":"pause""#), "the pause given during the outage went out: " + heard)
        let b = try GroupMemberRig.assertSaved(host: "cam-b", in: directory.appendingPathComponent("cam-b"),
                                               context: transcript())
        XCTAssertEqual(b.group?.commands.map(\.command), ["record Take", "resume", "stop"], transcript())
        XCTAssertFalse(members[1].stdout.contains("\"pause\" from cam-a arrived"), transcript())
        let a = try GroupMemberRig.assertSaved(host: "cam-a", in: directory.appendingPathComponent("cam-a"),
                                               context: transcript())
        XCTAssertEqual(a.group?.commands.map(\.outcome), ["on_time", "local_only", "on_time", "on_time"], transcript())
    }
}
