import Foundation
import PauseCamTestSupport
import XCTest

/// A real Mosquitto broker for one test, on loopback (`MosquittoProcess`), optionally with credentials (a password
/// file made by `mosquitto_passwd`) or a TLS listener. Skips the test, naming the package, when Mosquitto is not
/// installed (Debian package `mosquitto`, which `scripts/install-deps` installs).
public final class MosquittoBroker {
    public typealias TLSFiles = MosquittoProcess.TLSFiles

    /// The user name and password the broker accepts, when it was made with credentials.
    public struct Credentials {
        public var username: String
        public var password: String

        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    private let process: MosquittoProcess

    public var port: Int { process.port }
    public var folder: URL { process.folder }
    public var tls: TLSFiles? { process.tls }
    public var url: String { process.url }
    public var log: String { process.log }

    /// Starts the broker. With `credentials`, anonymous clients are refused.
    public init(credentials: Credentials? = nil, tls: TLSFiles? = nil) throws {
        guard MosquittoProcess.isInstalled else {
            throw XCTSkip("\(MosquittoProcess.program) is not installed (Debian package mosquitto)")
        }
        var passwordFile: String?
        let folderName = "pausecam-mosquitto-\(UUID().uuidString)"
        if let credentials {
            guard FileManager.default.isExecutableFile(atPath: MosquittoProcess.passwordTool) else {
                throw XCTSkip("\(MosquittoProcess.passwordTool) is not installed (Debian package mosquitto)")
            }
            // In the broker's own folder, which goes with the broker.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(folderName)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let passwords = folder.appendingPathComponent("passwords")
            try MosquittoProcess.run(MosquittoProcess.passwordTool,
                                     ["-c", "-b", passwords.path, credentials.username, credentials.password])
            passwordFile = passwords.path
        }
        process = try MosquittoProcess(folderName: folderName, passwordFile: passwordFile, tls: tls)
    }

    /// Starts the broker again on the same port after `stop()`, and waits until it accepts connections.
    public func start() throws { try process.start() }

    /// Stops the broker with SIGTERM and waits for it to exit; its clients see their connections close.
    public func stop() { process.stop() }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port` now.
    public static func accepts(port: Int) -> Bool { MosquittoProcess.accepts(port: port) }

    /// A throw-away certificate authority in `folder` and a server certificate it signed for 127.0.0.1 (the name a
    /// client checks), made with `openssl` (Debian package `openssl`); skips the test without it.
    public static func makeTestAuthority(in folder: URL) throws -> TLSFiles {
        let openssl = "/usr/bin/openssl"
        guard FileManager.default.isExecutableFile(atPath: openssl) else {
            throw XCTSkip("\(openssl) is not installed (Debian package openssl)")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: path("server.ext"), atomically: true, encoding: .utf8)
        let run = MosquittoProcess.run
        try run(openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("ca.key"), "-out",
                          path("ca.crt"), "-days", "2", "-subj", "/CN=PauseCam test authority"])
        try run(openssl, ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("server.key"), "-out",
                          path("server.csr"), "-subj", "/CN=127.0.0.1"])
        try run(openssl, ["x509", "-req", "-in", path("server.csr"), "-CA", path("ca.crt"), "-CAkey", path("ca.key"),
                          "-CAcreateserial", "-out", path("server.crt"), "-days", "2", "-extfile", path("server.ext")])
        return TLSFiles(caFile: path("ca.crt"), certificateFile: path("server.crt"), keyFile: path("server.key"))
    }
}
