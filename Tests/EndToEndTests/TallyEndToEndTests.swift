import Foundation
import PauseCamCore
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The tally through the built binary: a UDP listener on loopback decodes every TSL UMD 5.0 packet by the
/// protocol's layout (written out here, not through PauseCam's encoder) and sees each lens's tally follow a
/// shell's preview, lens switches, pause, resume and stop, then go off when the shell quits.
final class TallyEndToEndTests: XCTestCase {
    /// One display message as the protocol lays it out: every 16-bit field little-endian.
    struct Message: Equatable {
        var screen: Int
        var index: Int
        var rightLamp: Int
        var textLamp: Int
        var leftLamp: Int
        var brightness: Int
        var text: String

        /// The tally a TSL reader (TallyArbiter) takes from the lamps: 1 red is program, 2 green preview.
        var tally: String {
            let lamps = [rightLamp, textLamp, leftLamp]
            if lamps.contains(1) || lamps.contains(3) { return "program" }
            if lamps.contains(2) { return "preview" }
            return "off"
        }

        /// Decodes one datagram; fails the test for anything the protocol does not allow.
        static func decode(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> Message? {
            func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
            guard bytes.count >= 12 else { XCTFail("a packet of \(bytes.count) bytes", file: file, line: line); return nil }
            XCTAssertEqual(u16(0), bytes.count - 2, "PBC counts the bytes after it", file: file, line: line)
            XCTAssertEqual(bytes[2], 0, "VER is 0 for 5.00", file: file, line: line)
            XCTAssertEqual(bytes[3] & 0b10, 0, "display data, not screen control", file: file, line: line)
            let control = u16(8)
            XCTAssertEqual(control >> 15, 0, "CONTROL bit 15 clear: display text follows", file: file, line: line)
            let length = u16(10)
            XCTAssertEqual(12 + length, bytes.count, "LENGTH is the rest of the packet", file: file, line: line)
            let textBytes = Array(bytes[12...])
            let text = bytes[3] & 1 == 0 ? String(decoding: textBytes, as: UTF8.self)
                : String(decoding: stride(from: 0, to: textBytes.count - 1, by: 2).map {
                    UInt16(textBytes[$0]) | UInt16(textBytes[$0 + 1]) << 8 }, as: UTF16.self)
            return Message(screen: u16(4), index: u16(6), rightLamp: control & 3, textLamp: (control >> 2) & 3,
                           leftLamp: (control >> 4) & 3, brightness: (control >> 6) & 3, text: text)
        }
    }

    /// A UDP socket bound to a free loopback port, read without blocking.
    final class Listener {
        let descriptor: Int32
        let port: Int

        init() throws {
            let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            self.descriptor = descriptor
            guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            var size: Int32 = 4 << 20
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                    bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
                }
            }
            guard bound else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(descriptor) }

        /// Every datagram waiting, in arrival order.
        func drain() -> [[UInt8]] {
            var datagrams: [[UInt8]] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                guard count >= 0 else { return datagrams }
                datagrams.append(Array(buffer[..<count]))
            }
        }
    }

    /// `states` with each run of equal states kept once.
    private func changes(_ states: [String]) -> [String] {
        states.reduce(into: []) { result, state in if result.last != state { result.append(state) } }
    }

    func testTSLFollowsPreviewLensSwitchesPausesAndStops() throws {
        let listener = try Listener()
        let directory = try ProcessRunner.temporaryDirectory("tally")
        let rig = """
        name: Tally rig
        output: {name: "{rig}", size: 160x90, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}}
        audio: {device: virtual}
        lenses:
          wide: {zoom: 0.5, virtual: {color: "#d03030"}, size: 160x90}
          main: {zoom: 1, virtual: {color: "#20c040"}, size: 160x90}
          tele: {zoom: 3, virtual: {color: "#3050e0"}, size: 160x90}
        tally:
          tsl: {send: "127.0.0.1:\(listener.port)", screen: 4, indices: {wide: 1, main: 2}}
        """
        let rigPath = directory.appendingPathComponent("tally.yaml")
        try rig.write(to: rigPath, atomically: true, encoding: .utf8)
        // A piped shell on the simulated clock: the commands a person (or a remote) gives, a second apart.
        let lines = ["wait 0.5s", "preview main", "wait 0.5s", "record One", "wait 1s", "lens main", "wait 1s",
                     "preview wide", "wait 1s", "pause", "wait 1s", "resume", "wait 1s", "lens tele", "wait 1s",
                     "lens main", "wait 1s", "stop", "wait 1.5s", "quit"]
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", rigPath.path, "--clock", "simulated",
                                            "--output", directory.appendingPathComponent("out").path],
                                           input: lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)

        let messages = listener.drain().compactMap { Message.decode($0) }
        XCTAssertFalse(messages.isEmpty, "no TSL packet arrived")
        for message in messages {
            XCTAssertEqual(message.screen, 4)
            XCTAssertEqual(message.brightness, 3)
            XCTAssertEqual(message.text, message.index == 1 ? "wide" : "main", "each index carries its lens's name")
            XCTAssertEqual(Set([message.rightLamp, message.textLamp, message.leftLamp]).count, 1,
                           "one colour on all three lamps")
        }
        XCTAssertEqual(Set(messages.map(\.index)), [1, 2], "only the lenses with an index are sent")
        let wide = messages.filter { $0.index == 1 }.map(\.tally)
        let main = messages.filter { $0.index == 2 }.map(\.tally)
        XCTAssertEqual(changes(wide), ["off", "program", "off", "preview", "off"],
                       "wide: idle, recording on it, main taken, armed, the rig quits")
        XCTAssertEqual(changes(main), ["off", "preview", "program", "off", "program", "off", "program", "off"],
                       "main: armed, switched to, paused, resumed, tele taken, back, stopped")
        // Sent again while nothing changes: more packets than changes over the session's ten seconds.
        XCTAssertGreaterThan(wide.count, changes(wide).count + 4, "\(wide)")
        // The last packet of each lens is the rig quitting: off.
        XCTAssertEqual(wide.last, "off")
        XCTAssertEqual(main.last, "off")
    }

    /// `status --json`'s `lenses` as lens → tally.
    private func tallies(_ status: [String: Any]) -> [String: String] {
        var result: [String: String] = [:]
        for lens in status["lenses"] as? [[String: Any]] ?? [] {
            if let name = lens["name"] as? String, let tally = lens["tally"] as? String { result[name] = tally }
        }
        return result
    }

    func testStatusJSONGivesEveryLensItsTallyAndCtlArmsPreview() throws {
        let shell = try ControlledShell(name: "tally-status")
        let idle = try shell.waitForStatus { $0["state"] as? String == "idle" }
        XCTAssertEqual((idle["lenses"] as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["wide", "main", "tele"])
        XCTAssertEqual(tallies(idle), ["wide": "off", "main": "off", "tele": "off"])
        let armed = try shell.ctl(["preview", "tele"])
        XCTAssertEqual(armed.status, 0, armed.stdoutText + armed.stderr)
        XCTAssertEqual(tallies(try shell.waitForStatus()), ["wide": "off", "main": "off", "tele": "preview"])
        XCTAssertEqual(try shell.ctl(["record"]).status, 0)
        try shell.waitForStatus { self.tallies($0) == ["wide": "off", "main": "program", "tele": "preview"] }
        XCTAssertEqual(try shell.ctl(["pause"]).status, 0)
        try shell.waitForStatus { self.tallies($0) == ["wide": "off", "main": "off", "tele": "preview"] }
        XCTAssertEqual(try shell.ctl(["preview", "off"]).status, 0)
        XCTAssertEqual(try shell.ctl(["stop"]).status, 0)
        try shell.waitForStatus { self.tallies($0) == ["wide": "off", "main": "off", "tele": "off"] }
        let refused = try shell.ctl(["preview", "side"])
        XCTAssertEqual(refused.status, 1, refused.stdoutText + refused.stderr)
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
    }
}
