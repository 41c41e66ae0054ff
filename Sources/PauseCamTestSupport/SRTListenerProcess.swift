import Foundation

/// The `ffmpeg` command as an SRT listener on loopback, for the live tests: what a streaming server does with an SRT
/// push. It listens on 127.0.0.1:`port`, copies the MPEG-TS it receives into a file, and ends by itself when the
/// sender closes. Debian package `ffmpeg` (`scripts/install-deps` installs it).
public enum SRTListenerProcess {
    public static let program = "/usr/bin/ffmpeg"

    /// Why the listener did not start.
    public struct Failure: Error, CustomStringConvertible {
        /// True when ffmpeg is not installed: a test skips, naming the package.
        public var notInstalled: Bool
        public var description: String
    }

    /// Starts the listener on `port`, writing what it receives into `file`. The caller ends it (it ends by itself
    /// when the sender closes) and waits for it.
    public static func start(port: Int, file: String) throws -> Process {
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw Failure(notInstalled: true, description: "\(program) is not installed (Debian package ffmpeg)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["-nostdin", "-v", "error", "-y", "-f", "mpegts", "-i",
                             "srt://127.0.0.1:\(port)?mode=listener", "-c", "copy", "-f", "mpegts", file]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
