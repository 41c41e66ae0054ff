import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throw-away RTMP server on loopback, for the live tests: nginx with its RTMP module (`libnginx-mod-rtmp`), in the
/// foreground with one worker, one `application live` that records every stream it gets into `folder` as `KEY.flv`,
/// listening on 127.0.0.1:`port`. Ready once it accepts a TCP connection; it can be stopped and started again on the
/// same port, as a server that restarts under its clients. Debian packages `nginx` and `libnginx-mod-rtmp`
/// (`scripts/install-deps` installs them).
public final class RTMPServerProcess {
    public static let program = "/usr/sbin/nginx"
    public static let module = "/usr/lib/nginx/modules/ngx_rtmp_module.so"

    /// Why the server did not come up (not installed, or its own error log's words).
    public struct Failure: Error, CustomStringConvertible {
        /// True when nginx or its RTMP module is not installed: a test skips, naming the package.
        public var notInstalled: Bool
        public var description: String
    }

    /// nginx and its RTMP module are both installed.
    public static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: program) && FileManager.default.fileExists(atPath: module)
    }

    public let port: Int
    /// Where the configuration, the log and the recordings are.
    public let folder: String
    private var process: Process?

    /// The server's error log so far.
    public var log: String { (try? String(contentsOfFile: folder + "/error.log", encoding: .utf8)) ?? "" }
    /// Whether the server runs now.
    public var isRunning: Bool { process?.isRunning ?? false }

    /// Where the stream published with `key` is recorded.
    public func recording(key: String) -> String { folder + "/" + key + ".flv" }

    /// Writes the configuration into `folder` (which exists) and starts the server on `port` (nil: a free one),
    /// waiting until it accepts connections. Throws `Failure` when it is not installed or does not come up.
    public init(port: Int? = nil, folder: String) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.program) else {
            throw Failure(notInstalled: true, description: "\(Self.program) is not installed (Debian package nginx)")
        }
        guard FileManager.default.fileExists(atPath: Self.module) else {
            throw Failure(notInstalled: true,
                          description: "\(Self.module) is not installed (Debian package libnginx-mod-rtmp)")
        }
        self.port = try port ?? MosquittoProcess.freeLoopbackPort()
        self.folder = folder
        let config = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(folder)/nginx.pid;
            error_log \(folder)/error.log info;
            load_module \(Self.module);
            events { worker_connections 64; }
            rtmp { server { listen 127.0.0.1:\(self.port);
                application live { live on; record all; record_path \(folder); record_unique off; } } }
            """
        try config.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
        try start()
    }

    deinit { stop() }

    /// Starts the server (again, after `stop()`) and waits until it accepts a connection, at most 10 s.
    public func start() throws {
        precondition(process == nil, "the RTMP server is running")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.program)
        process.arguments = ["-p", folder, "-e", folder + "/error.log", "-c", folder + "/nginx.conf"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if !process.isRunning { break }
            if MosquittoProcess.accepts(port: port) { return }
            usleep(20_000)
        }
        stop()
        throw Failure(notInstalled: false, description: "nginx with the RTMP module did not start on 127.0.0.1:\(port): "
                      + log)
    }

    /// Stops the server with SIGTERM and waits for it to exit (nginx closes its recordings).
    public func stop() {
        guard let process else { return }
        self.process = nil
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
