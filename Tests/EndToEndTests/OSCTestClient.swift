import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A UDP client on one loopback address for the OSC tests: it writes OSC 1.0 packets by hand (so it can write
/// broken ones too), reads the typed replies PauseCam sends back, and runs liblo's own `oscsend` and `oscdump`.
final class OSCTestClient {
    /// One argument of a hand-written message.
    enum Argument {
        case string(String)
        case int(Int32)
        case float(Float)
        case blob([UInt8])
    }

    /// A reply read back: its address and its `s`, `i` and `f` arguments.
    struct Reply: Equatable {
        var address: String
        var arguments: [String]
    }

    let socket: Int32
    let port: Int

    /// A socket bound to `host` (a loopback address) on a port the system chooses.
    init(host: String = "127.0.0.1") throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        self.socket = socket
        guard socket >= 0 else { throw XCTSkip("no UDP socket here") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, host, &address.sin_addr)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw XCTSkip("cannot bind \(host) here (errno \(errno))") }
        var name = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &name) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: name.sin_port))
    }

    deinit { close(socket) }

    /// Sends raw bytes to 127.0.0.1:`port`.
    func send(bytes: [UInt8], to port: Int) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        _ = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(socket, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// Sends one message to 127.0.0.1:`port`.
    func send(_ address: String, _ arguments: [Argument] = [], to port: Int) {
        send(bytes: Self.packet(address, arguments), to: port)
    }

    /// The next reply, or nil when none comes within `seconds`.
    func receive(seconds: Double = 10) -> Reply? {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(seconds * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(socket, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return Self.reply(Array(buffer.prefix(count)))
    }

    /// Replies until one satisfies `condition` (at most `seconds` in all).
    func receive(until condition: (Reply) -> Bool, seconds: Double = 30) -> Reply? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let reply = receive(seconds: max(0.01, deadline.timeIntervalSinceNow)), condition(reply) { return reply }
        }
        return nil
    }

    /// Whether a datagram is waiting now.
    var hasPending: Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1
    }

    static func padded(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8) + [0]
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }

    static func packet(_ address: String, _ arguments: [Argument]) -> [UInt8] {
        var tags = ","
        var data: [UInt8] = []
        for argument in arguments {
            switch argument {
            case .string(let s): tags += "s"; data += padded(s)
            case .int(let i): tags += "i"; data += withUnsafeBytes(of: i.bigEndian) { Array($0) }
            case .float(let f): tags += "f"; data += withUnsafeBytes(of: f.bitPattern.bigEndian) { Array($0) }
            case .blob(let b):
                tags += "b"
                data += withUnsafeBytes(of: UInt32(b.count).bigEndian) { Array($0) } + b
                while data.count % 4 != 0 { data.append(0) }
            }
        }
        return padded(address) + padded(tags) + data
    }

    /// Reads a reply's address and its `s`/`i`/`f` arguments as text.
    static func reply(_ bytes: [UInt8]) -> Reply? {
        var offset = 0
        func string() -> String? {
            guard let end = bytes[offset...].firstIndex(of: 0) else { return nil }
            let text = String(decoding: bytes[offset..<end], as: UTF8.self)
            offset = (end + 4) & ~3
            return text
        }
        func word() -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            defer { offset += 4 }
            return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        guard let address = string(), let tags = string(), tags.hasPrefix(",") else { return nil }
        var arguments: [String] = []
        for tag in tags.dropFirst() {
            switch tag {
            case "s": guard let s = string() else { return nil }; arguments.append(s)
            case "i": guard let w = word() else { return nil }; arguments.append(String(Int32(bitPattern: w)))
            case "f": guard let w = word() else { return nil }; arguments.append(String(Float(bitPattern: w)))
            default: return nil
            }
        }
        return Reply(address: address, arguments: arguments)
    }

    /// liblo's `oscsend` (Debian `liblo-tools`), or a skip that names the package.
    static func tool(_ name: String) throws -> String {
        let path = "/usr/bin/\(name)"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw XCTSkip("\(name) is not installed (Debian package liblo-tools; scripts/install-deps installs it)")
        }
        return path
    }

    /// Runs `oscsend 127.0.0.1 PORT ADDRESS [TYPES VALUES…]` to completion.
    static func oscsend(port: Int, _ address: String, _ typesAndValues: [String] = []) throws -> ProcessResult {
        try ProcessRunner.run(try tool("oscsend"), ["127.0.0.1", String(port), address] + typesAndValues)
    }
}

/// liblo's `oscdump` listening on a port of its own, its lines collected as they come.
final class OSCDump {
    let port: Int
    private let output = PipeCollector()
    private let errors = PipeCollector()

    /// Starts `oscdump -L` on a free port and waits until it shows a probe message sent to it. A port another
    /// program takes between the probe and the start makes oscdump exit, and another free port is tried.
    init() throws {
        let path = try OSCTestClient.tool("oscdump")
        let prober = try OSCTestClient()
        for _ in 0..<5 {
            // The probe socket closes at the end of this closure, so oscdump can have its port.
            let candidate = try { try OSCTestClient().port }()
            let attempt = Process()
            attempt.executableURL = URL(fileURLWithPath: path)
            attempt.arguments = ["-L", String(candidate)]
            attempt.standardOutput = output.pipe
            attempt.standardError = errors.pipe
            try attempt.run()
            let deadline = Date().addingTimeInterval(30)
            while attempt.isRunning && Date() < deadline {
                prober.send("/oscdump/ready", to: candidate)
                if output.text.contains("/oscdump/ready") {
                    port = candidate
                    running = attempt
                    return
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
            if attempt.isRunning { attempt.terminate(); attempt.waitUntilExit() }
        }
        throw XCTSkip("oscdump found no free port to listen on")
    }

    private var running: Process?

    var lines: [String] { output.text.split(separator: "\n").map(String.init) }

    /// Waits (at most `seconds`) until a line satisfies `condition`; the lines so far.
    @discardableResult
    func waitForLine(seconds: Double = 30, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if lines.contains(where: condition) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    func stop() {
        if let running, running.isRunning {
            running.terminate()
            running.waitUntilExit()
        }
    }

    deinit { stop() }
}
