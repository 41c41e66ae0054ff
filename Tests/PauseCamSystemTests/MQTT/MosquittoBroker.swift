import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A real Mosquitto broker for one test, on loopback: a throw-away folder with its config (one listener on
/// 127.0.0.1 and a port the kernel picked, persistence off, optionally a password file made by `mosquitto_passwd`),
/// started as `/usr/sbin/mosquitto -c CONF` and ready once it accepts a TCP connection. It can be stopped (SIGTERM)
/// and started again on the same port, as a broker that restarts under its clients. Skips the test when Mosquitto is
/// not installed (Debian package `mosquitto`, which `scripts/install-deps` installs).
final class MosquittoBroker {
    static let program = "/usr/sbin/mosquitto"
    static let passwordTool = "/usr/bin/mosquitto_passwd"

    /// The user name and password the broker accepts, when it was made with credentials.
    struct Credentials {
        var username: String
        var password: String
    }

    /// The PEM files of a TLS listener (`openssl` makes them in `makeTestAuthority`).
    struct TLSFiles {
        var caFile: String
        var certificateFile: String
        var keyFile: String
    }

    private(set) var port: Int = 0
    let folder: URL
    let tls: TLSFiles?
    private var process: Process?

    var url: String { "\(tls == nil ? "mqtt" : "mqtts")://127.0.0.1:\(port)" }
    var log: String { (try? String(contentsOf: folder.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? "" }

    /// Makes the folder and config and starts the broker. With `credentials`, anonymous clients are refused.
    init(credentials: Credentials? = nil, tls: TLSFiles? = nil) throws {
        self.tls = tls
        guard FileManager.default.isExecutableFile(atPath: Self.program) else {
            throw XCTSkip("\(Self.program) is not installed (Debian package mosquitto)")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-mosquitto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var passwordFile: String?
        if let credentials {
            guard FileManager.default.isExecutableFile(atPath: Self.passwordTool) else {
                throw XCTSkip("\(Self.passwordTool) is not installed (Debian package mosquitto)")
            }
            let path = folder.appendingPathComponent("passwords").path
            try Self.run(Self.passwordTool, ["-c", "-b", path, credentials.username, credentials.password])
            passwordFile = path
        }
        // A port another process takes between our probe and the broker's bind makes the broker exit: try another.
        var lastFailure = ""
        for _ in 0..<5 {
            port = try Self.freeLoopbackPort()
            try writeConfig(passwordFile: passwordFile)
            if let failure = try launch() { lastFailure = failure } else { return }
        }
        throw NSError(domain: "MosquittoBroker", code: 1,
                      userInfo: [NSLocalizedDescriptionKey: "mosquitto did not start: \(lastFailure)"])
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts the broker again on the same port after `stop()`, and waits until it accepts connections.
    func start() throws {
        precondition(process == nil, "the broker is running")
        // The old listener's port is free once its process is gone (Mosquitto binds with SO_REUSEADDR); a bind that
        // still fails is retried a few times rather than guessed around.
        var lastFailure = ""
        for _ in 0..<5 {
            if let failure = try launch() { lastFailure = failure } else { return }
        }
        throw NSError(domain: "MosquittoBroker", code: 2,
                      userInfo: [NSLocalizedDescriptionKey: "mosquitto did not start again: \(lastFailure)"])
    }

    /// Stops the broker with SIGTERM and waits for it to exit; its clients see their connections close.
    func stop() {
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
    private static func freeLoopbackPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
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
        guard bound else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port` now.
    static func accepts(port: Int) -> Bool {
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

    /// A throw-away certificate authority in `folder` and a server certificate it signed for 127.0.0.1 (the name a
    /// client checks), made with `openssl` (Debian package `openssl`); skips the test without it.
    static func makeTestAuthority(in folder: URL) throws -> TLSFiles {
        let openssl = "/usr/bin/openssl"
        guard FileManager.default.isExecutableFile(atPath: openssl) else {
            throw XCTSkip("\(openssl) is not installed (Debian package openssl)")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: path("server.ext"), atomically: true, encoding: .utf8)
        try run(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("ca.key"), "-out",
                          path("ca.crt"), "-days", "2", "-subj", "/CN=PauseCam test authority"])
        try run(openssl, ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("server.key"), "-out",
                          path("server.csr"), "-subj", "/CN=127.0.0.1"])
        try run(openssl, ["x509", "-req", "-in", path("server.csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"),
                          "-CAcreateserial", "-out", path("server.crt"), "-days", "2", "-extfile", path("server.ext")])
        return TLSFiles(caFile: path("ca.crt"), certificateFile: path("server.crt"), keyFile: path("server.key"))
    }

    private static func run(_ program: String, _ arguments: [String]) throws {
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
            throw NSError(domain: "MosquittoBroker", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: "\(program) failed: \(text)"])
        }
    }
}
