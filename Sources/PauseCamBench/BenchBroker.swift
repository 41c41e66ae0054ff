import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throw-away Mosquitto broker for the group benchmark: its own folder and config (one listener on 127.0.0.1 on a
/// port the kernel picked, persistence off, anonymous clients allowed), started as `/usr/sbin/mosquitto -c CONF`
/// and ready once it accepts a TCP connection; `stop()` ends it (SIGTERM) and removes the folder.
final class BenchBroker {
    static let program = "/usr/sbin/mosquitto"

    let folder: URL
    private(set) var port = 0
    private var process: Process?

    var url: String { "mqtt://127.0.0.1:\(port)" }

    /// Starts the broker; throws with the broker's own words when it did not come up (five ports tried: another
    /// process may take a port between the probe and the broker's bind).
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-mosquitto-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var lastFailure = ""
        for _ in 0..<5 {
            port = try Self.freeLoopbackPort()
            let log = folder.appendingPathComponent("mosquitto.log").path
            let config = ["listener \(port) 127.0.0.1", "persistence false",
                          // As root, Mosquitto would switch to the `mosquitto` user, who cannot write this folder.
                          "user root", "allow_anonymous true", "log_dest file \(log)",
                          "log_type error", "log_type warning"]
            try (config.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("mosquitto.conf"),
                                                              atomically: true, encoding: .utf8)
            if let failure = try launch() { lastFailure = failure } else { return }
        }
        try? FileManager.default.removeItem(at: folder)
        throw BenchBrokerError(message: "\(Self.program) did not start on 127.0.0.1: \(lastFailure)")
    }

    /// Ends the broker and waits for it; removes its folder.
    func stop() {
        if let process {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            process.waitUntilExit()
        }
        process = nil
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }

    /// Starts the process and waits until its listener accepts a connection; returns why it failed when the
    /// process exited first, nil when the broker is ready.
    private func launch() throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.program)
        process.arguments = ["-c", folder.appendingPathComponent("mosquitto.conf").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if !process.isRunning {
                process.waitUntilExit()
                let log = (try? String(contentsOf: folder.appendingPathComponent("mosquitto.log"), encoding: .utf8))
                return "exit status \(process.terminationStatus) \(log ?? "")"
            }
            if Self.accepts(port: port) {
                self.process = process
                return nil
            }
            usleep(10_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return "no connection accepted on 127.0.0.1:\(port) within 30 s"
    }

    /// A port on 127.0.0.1 that nothing is bound to now: the kernel's choice for port 0.
    private static func freeLoopbackPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw BenchBrokerError(message: "socket(): errno \(errno)") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw BenchBrokerError(message: "no free port on 127.0.0.1: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port` now.
    private static func accepts(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// The broker could not be started: what happened, in the broker's or the kernel's words.
struct BenchBrokerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
