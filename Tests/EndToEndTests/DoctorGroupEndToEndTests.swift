import Foundation
import PauseCamTestHelpers
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `pausecam doctor` on a group member's rig through the binary: every blocker its `record` can meet is named —
/// a clock the kernel calls unsynchronised with `require_sync: true` (`record` refuses it) and a broker that does
/// not answer — each with its fix, and exit 1; with a broker that answers and `require_sync: false`, the group
/// section has no blocker. `PAUSECAM_FAULT_CLOCK_STATUS` stands in for the kernel's clock status, so the test is
/// the same on a machine with a time service and without.
final class DoctorGroupEndToEndTests: XCTestCase {
    private func rig(broker: String, requireSync: Bool?, in folder: URL) throws -> String {
        let sync = requireSync.map { ", require_sync: \($0)" } ?? ""
        let path = folder.appendingPathComponent("member.yaml").path
        try """
        name: Member
        output: {size: 320x240, fps: 30}
        audio: {device: virtual}
        lenses:
          main: {zoom: 1, virtual: {color: "#20c040"}}
        group: {name: studio, broker: "\(broker)", host: cam-a\(sync)}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func doctor(_ rig: String, folder: URL, clock: String) throws -> ProcessResult {
        try ProcessRunner.run(BinaryLocator.pausecam.path,
                              ["doctor", rig, "--output", folder.appendingPathComponent("out").path],
                              environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
                                            "PAUSECAM_FAULT_CLOCK_STATUS": clock])
    }

    func testAnUnsynchronisedClockWithRequireSyncAndAnUnreachableBrokerAreBlockers() throws {
        let folder = try ProcessRunner.temporaryDirectory("doctor-group-blocked")
        // A port nothing listens on: bound, then closed.
        let socket = try closedLoopbackPort()
        let rigPath = try rig(broker: "mqtt://127.0.0.1:\(socket)", requireSync: nil, in: folder)
        let result = try doctor(rigPath, folder: folder, clock: "unsynchronised")
        let text = result.stdoutText
        XCTAssertEqual(result.status, 1, text + result.stderr)
        XCTAssertTrue(text.contains("\n\nGroup\n"), text)
        XCTAssertFalse(text.contains("can record"), text)
        let verdict = try XCTUnwrap(text.range(of: "\nVerdict: ").map { String(text[$0.lowerBound...]) }, text)
        XCTAssertTrue(verdict.contains("group studio: the system clock is not synchronised"), verdict)
        XCTAssertTrue(verdict.contains("why: `record` is refused on it (group: {require_sync: true})"), verdict)
        XCTAssertTrue(verdict.contains("fix: start a time service: `sudo apt install chrony`"), verdict)
        XCTAssertTrue(verdict.contains("fix: or write group: {require_sync: false}"), verdict)
        XCTAssertTrue(verdict.contains("group studio: the broker at mqtt://127.0.0.1:\(socket) does not answer"), verdict)
        XCTAssertTrue(verdict.contains("fix: start the broker on its machine"), verdict)
    }

    func testAnAnsweringBrokerAndRequireSyncFalseLeaveTheGroupWithoutBlockers() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let folder = try ProcessRunner.temporaryDirectory("doctor-group-ok")
        let rigPath = try rig(broker: broker.url, requireSync: false, in: folder)
        let result = try doctor(rigPath, folder: folder, clock: "unsynchronised")
        let text = result.stdoutText
        XCTAssertTrue(text.contains("  ok       group studio: the broker at \(broker.url) answers\n"), text)
        XCTAssertTrue(text.contains("  warning  group studio: the system clock is not synchronised"), text)
        let group = try XCTUnwrap(text.range(of: "\n\nGroup\n").map { text[$0.upperBound...] }, text)
        let section = group.prefix { _ in true }.components(separatedBy: "\n\n").first ?? ""
        XCTAssertFalse(section.contains("BLOCKER"), section)
        // The same rig with a synchronised clock: the clock is fine.
        let synchronised = try doctor(rigPath, folder: folder, clock: "synchronised:20")
        XCTAssertTrue(synchronised.stdoutText.contains("  ok       group studio: the system clock is synchronised "
                                                       + "(estimated error 20 µs"), synchronised.stdoutText)
    }

    /// A TCP port on 127.0.0.1 that nothing listens on: bound, then closed again.
    private func closedLoopbackPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
