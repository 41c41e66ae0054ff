import Foundation
import PauseCamCore
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
}
