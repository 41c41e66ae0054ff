import Foundation
import PauseCamCore
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Each rig's own monitor port through the built binary: a rig serves on the port its name hashes to (FNV-1a of its
/// socket name into 8360–8999, computed here independently), its status names the rig and the machine, and a taken
/// port is said with its holder — another PauseCam by rig and pid, or another program — while the rig still records.
final class MonitorRigPortEndToEndTests: XCTestCase {
    /// FNV-1a, 32 bits, of the rig's socket name, into 8360…8999: the README's rule, written out again.
    static func expectedPort(_ rigName: String) -> Int {
        var hash: UInt32 = 0x811C_9DC5
        for byte in ControlSocketLocation.slug(rigName).utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return 8360 + Int(hash % 640)
    }

    /// A listening TCP socket on 127.0.0.1:`port`, or `nil` when the port is taken.
    static func listen(on port: Int) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(descriptor, 4) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    static func isFree(_ port: Int) -> Bool {
        guard let descriptor = listen(on: port) else { return false }
        close(descriptor)
        return true
    }

    /// A copy of the e2e rig named `name`, in a folder of its own.
    static func rig(named name: String) throws -> String {
        let text = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "\nname: E2E rig\n", with: "\nname: \(name)\n")
        XCTAssertTrue(text.contains("\nname: \(name)\n"))
        let path = try ProcessRunner.temporaryDirectory("rig-port").appendingPathComponent("rig.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A rig name of this test run whose port is free now (other tests of this machine may hold some).
    static func freeName(_ prefix: String) throws -> String {
        for index in 0..<200 {
            let name = "\(prefix) \(getpid()) \(index)"
            if isFree(expectedPort(name)) { return name }
        }
        throw XCTSkip("no free port found for a rig named \(prefix) …")
    }

    func testARigServesOnItsOwnPortAndItsStatusNamesTheRigAndTheMachine() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let name = try Self.freeName("Port Own")
        let port = Self.expectedPort(name)
        let shell = try ControlledShell(name: "rig-port", rig: try Self.rig(named: name))
        let status = try shell.waitForStatus { $0["web"] is String }
        XCTAssertEqual(status["web"] as? String, "http://127.0.0.1:\(port)/")
        XCTAssertEqual(status["rig"] as? String, name)
        XCTAssertEqual(status["host"] as? String, ProcessInfo.processInfo.hostName)
        // The page reads the same object: rig, host and the recording time left.
        let page = try MonitorWebEndToEndTests.json(try MonitorWebEndToEndTests.curl("http://127.0.0.1:\(port)/",
                                                                                     "/status.json").body)
        XCTAssertEqual(page["rig"] as? String, name)
        XCTAssertEqual(page["host"] as? String, ProcessInfo.processInfo.hostName)
        XCTAssertTrue(page.keys.contains("time_left_s") && page["time_left_warning"] as? Bool == false, "\(page)")
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
    }

    /// Two rigs whose names hash to one port: the second says the first holds it (rig and pid), serves elsewhere, and
    /// records all the same.
    func testAPortHeldByAnotherPauseCamIsSaidAndTheRigStillRecords() throws {
        let first = try Self.freeName("Port Held")
        let port = Self.expectedPort(first)
        let second = try XCTUnwrap((0..<100_000).lazy.map { "Port Second \($0)" }.first { Self.expectedPort($0) == port })
        let shell = try ControlledShell(name: "rig-port-held", rig: try Self.rig(named: first))
        XCTAssertEqual(try shell.waitForStatus { $0["web"] is String }["web"] as? String, "http://127.0.0.1:\(port)/")
        let output = try ProcessRunner.temporaryDirectory("rig-port-second")
        let run = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                        ["run", try Self.rig(named: second), "--script", "short", "--clock", "simulated",
                                         "--output", output.path], environment: shell.environment)
        XCTAssertEqual(run.status, 0, run.stdoutText + run.stderr)
        let pid = shell.running.process.processIdentifier
        XCTAssertTrue(run.stdoutText.contains("monitor: warning: port \(port), rig \"\(second)\"'s own, is taken by "
                                              + "PauseCam \"\(first)\" (pid \(pid)); serving on 127.0.0.1:"),
                      run.stdoutText)
        XCTAssertTrue(run.stdoutText.contains("so a bookmark of port \(port) does not reach this rig"), run.stdoutText)
        XCTAssertTrue(try FileManager.default.contentsOfDirectory(atPath: output.path).contains { $0.hasSuffix(".mov") })
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
    }

    func testAPortHeldByAnotherProgramIsSaidAndTheRigStillRecords() throws {
        let name = try Self.freeName("Port Foreign")
        let port = Self.expectedPort(name)
        let holder = try XCTUnwrap(Self.listen(on: port))
        defer { close(holder) }
        let output = try ProcessRunner.temporaryDirectory("rig-port-foreign")
        let runtime = try ProcessRunner.temporaryDirectory("rig-port-foreign-run")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        let run = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                        ["run", try Self.rig(named: name), "--script", "short", "--clock", "simulated",
                                         "--output", output.path], environment: ["XDG_RUNTIME_DIR": runtime.path])
        XCTAssertEqual(run.status, 0, run.stdoutText + run.stderr)
        XCTAssertTrue(run.stdoutText.contains("monitor: warning: port \(port), rig \"\(name)\"'s own, is taken by "
                                              + "another program; serving on 127.0.0.1:"), run.stdoutText)
    }
}
