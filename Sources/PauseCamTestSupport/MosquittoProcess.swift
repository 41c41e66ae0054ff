import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throw-away Mosquitto broker on loopback, for the tests and the group benchmark: its own folder and config (one
/// listener on 127.0.0.1 on a port the kernel picked, persistence off, anonymous clients allowed unless a password
/// file is given, optionally a TLS listener), started as `/usr/sbin/mosquitto -c CONF` and ready once it accepts a
/// TCP connection. It can be stopped (SIGTERM) and started again on the same port, as a broker that restarts under
/// its clients. Debian package `mosquitto` (`scripts/install-deps` installs it).
public final class MosquittoProcess {
    public static let program = "/usr/sbin/mosquitto"
    public static let passwordTool = "/usr/bin/mosquitto_passwd"

    /// The PEM files of a TLS listener.
    public struct TLSFiles: Sendable {
        public var caFile: String
        public var certificateFile: String
        public var keyFile: String

        public init(caFile: String, certificateFile: String, keyFile: String) {
            self.caFile = caFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
        }
    }

    /// Why a broker did not come up, in the broker's or the kernel's words.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public private(set) var port = 0
    public let folder: URL
    public let tls: TLSFiles?
    private var process: Process?

    public var isInstalled: Bool { Self.isInstalled }
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: program) }

    public var url: String { "\(tls == nil ? "mqtt" : "mqtts")://127.0.0.1:\(port)" }
    public var log: String {
        (try? String(contentsOf: folder.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? ""
    }

    /// Makes the folder and config and starts the broker. With a `passwordFile` (made by `mosquitto_passwd`),
    /// anonymous clients are refused. Throws `Failure` when it does not come up: five ports are tried, since
    /// another process may take a port between the probe and the broker's bind.
    public init(folderName: String, passwordFile: String? = nil, tls: TLSFiles? = nil) throws {
        self.tls = tls
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(folderName)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var lastFailure = ""
        for _ in 0..<5 {
            port = try Self.freeLoopbackPort()
            try writeConfig(passwordFile: passwordFile)
            if let failure = try launch() { lastFailure = failure } else { return }
        }
        throw Failure(description: "mosquitto did not start on 127.0.0.1: \(lastFailure)")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts the broker again on the same port after `stop()`, and waits until it accepts connections.
    public func start() throws {
        precondition(process == nil, "the broker is running")
        // The old listener's port is free once its process is gone (Mosquitto binds with SO_REUSEADDR); a bind that
        // still fails is retried a few times rather than guessed around.
        var lastFailure = ""
        for _ in 0..<5 {
            if let failure = try launch() { lastFailure = failure } else { return }
        }
        throw Failure(description: "mosquitto did not start again: \(lastFailure)")
    }

    /// Stops the broker with SIGTERM and waits for it to exit; its clients see their connections close.
    public func stop() {
        guard let process else { return }
        self.process = nil
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
    }

    private func writeConfig(passwordFile: String?) throws {
        var lines = [
            "listener \(port) 127.0.0.1",
            "persistence false",
            // Running as root, Mosquitto would switch to the `mosquitto` user, who cannot read this folder.
            "user root",
            "log_dest file \(folder.appendingPathComponent("mosquitto.log").path)",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_type information",
            "connection_messages true",
        ]
        if let tls {
            lines += ["cafile \(tls.caFile)", "certfile \(tls.certificateFile)", "keyfile \(tls.keyFile)"]
        }
        if let passwordFile {
            lines += ["allow_anonymous false", "password_file \(passwordFile)"]
        } else {
            lines += ["allow_anonymous true"]
        }
        try (lines.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("mosquitto.conf"),
                                                        atomically: true, encoding: .utf8)
    }

    /// Starts the process and waits until its listener accepts a connection. Returns why it failed when the
    /// process exited first (a port already taken), nil when it is ready.
    private func launch() throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.program)
        process.arguments = ["-c", folder.appendingPathComponent("mosquitto.conf").path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if !process.isRunning {
                process.waitUntilExit()
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                return "exit \(process.terminationStatus): \(text) \(log)"
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

    /// A port on 127.0.0.1 that nothing is bound to right now: the kernel's choice for port 0.
    public static func freeLoopbackPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket(): \(String(cString: strerror(errno)))") }
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
        guard bound else { throw Failure(description: "no free port on 127.0.0.1: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port` now.
    public static func accepts(port: Int) -> Bool {
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

    /// Runs a helper program (`mosquitto_passwd`, `openssl`) to its end; throws with its output when it fails.
    public static func run(_ program: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(program) failed (exit \(process.terminationStatus)): \(text)")
        }
    }
}
