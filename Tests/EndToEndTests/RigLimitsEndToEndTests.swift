import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Rigs that every other check passes but that fail only when used, on the built binary: a `file:` lens that is
/// a named pipe or a device, an output rate below 1 fps, an output name too long for a file name, a rig name too
/// long for the control socket's path. `check` says so at the value's line and column with exit status 2, and
/// `run` and `shell` refuse the same way before they open anything.
final class RigLimitsEndToEndTests: XCTestCase {
    func pausecam(_ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult {
        try ProcessRunner.run(BinaryLocator.pausecam.path, arguments, environment: environment)
    }

    /// A virtual-microphone-free rig: `name`, `output` (a flow mapping's inside) and the main lens's source line.
    static func rig(name: String = "limits", output: String = "", lensSource: String = "virtual: {color: \"#20c040\"}",
                    scripts: Bool = false) -> String {
        """
        name: \(name)
        output: {size: 320x180, fps: 15, video: {preset: ultrafast}\(output.isEmpty ? "" : ", " + output)}
        audio: {device: none}
        lenses:
          main:
            zoom: 1
            \(lensSource)
        """ + (scripts ? "\nscripts:\n  take:\n    - record\n    - wait: 1s\n    - stop\n" : "\n")
    }

    static func write(_ text: String, to folder: URL, _ name: String = "rig.yaml") throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: file: lenses that are not files

    func testAFileLensThatIsANamedPipeOrADeviceIsARigError() throws {
        let folder = try ProcessRunner.temporaryDirectory("rig-limits-fifo")
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("pipe.mov").path, 0o600), 0)
        let cases = [("pipe.mov", folder.appendingPathComponent("pipe.mov").path, "a named pipe"),
                     ("/dev/urandom", "/dev/urandom", "a character device")]
        for (written, resolved, kind) in cases {
            let rig = try Self.write(Self.rig(lensSource: "file: \(written)"), to: folder)
            let result = try pausecam(["check", rig])
            XCTAssertEqual(result.status, 2, written)
            XCTAssertEqual(result.stderr, "\(rig):7:11: lenses.main.file: \(resolved) is \(kind), not a regular file; "
                           + "a file lens replays a movie file: give the path of one\n\(rig): 1 error\n", written)
        }
    }

    /// Before, `shell` hung for ever in `open()` on the pipe (nobody writes to it): each command must end on its
    /// own, refusing the rig, and leave no output folder.
    func testRunAndShellRefuseANamedPipeLensWithoutOpeningIt() throws {
        let folder = try ProcessRunner.temporaryDirectory("rig-limits-fifo-run")
        let pipe = folder.appendingPathComponent("pipe.mov").path
        XCTAssertEqual(mkfifo(pipe, 0o600), 0)
        let rig = try Self.write(Self.rig(lensSource: "file: pipe.mov", scripts: true), to: folder)
        let out = folder.appendingPathComponent("out").path
        for command in ["run", "shell"] {
            let running = try RunningCommand([command, rig, "--clock", "simulated", "--output", out],
                                             environment: ["XDG_RUNTIME_DIR": folder.path])
            let status = running.waitForExit(seconds: 60)
            XCTAssertEqual(status, 2, "\(command) did not end (hanging on the pipe?): \(running.stderr)")
            XCTAssertTrue(running.stderr.contains("\(rig):7:11: lenses.main.file: \(pipe) is a named pipe"),
                          running.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    // MARK: output rates

    func testOutputRatesOutsideOneTo240FPSAreRigErrors() throws {
        let folder = try ProcessRunner.temporaryDirectory("rig-limits-fps")
        for rate in ["\"1/1000000\"", "\"1/10000\"", "0.5", "241"] {
            let rig = try Self.write(Self.rig(output: "fps: \(rate)").replacingOccurrences(of: "fps: 15, ", with: ""),
                                     to: folder)
            let result = try pausecam(["check", rig])
            XCTAssertEqual(result.status, 2, rate)
            let written = rate.replacingOccurrences(of: "\"", with: "")
            XCTAssertEqual(result.stderr, "\(rig):2:58: output.fps: frame rate \(written) is out of range (1 to 240 fps)\n"
                           + "\(rig): 1 error\n", rate)
        }
        for rate in ["1", "240", "\"30000/1001\""] {
            let rig = try Self.write(Self.rig(output: "fps: \(rate)").replacingOccurrences(of: "fps: 15, ", with: ""),
                                     to: folder)
            let result = try pausecam(["check", rig])
            XCTAssertEqual(result.status, 0, "\(rate): \(result.stderr)")
        }
    }

    // MARK: file names

    /// A 300-character `output.name` passed `check`, then `record` failed with "File name too long; check the
    /// directory's permissions". The longest name that fits leaves room for "-10000-10000.youtube.txt" (24 bytes).
    func testAnOutputNameTooLongForAFileNameIsARigError() throws {
        let folder = try ProcessRunner.temporaryDirectory("rig-limits-name")
        let long = try Self.write(Self.rig(output: "name: \"\(String(repeating: "n", count: 300))\""), to: folder)
        let result = try pausecam(["check", long])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("\(long):2:68: output.name: \"nnnn"), result.stderr)
        XCTAssertTrue(result.stderr.contains("makes file names of up to 324 bytes")
                      && result.stderr.contains("a file name holds at most 255 bytes: make it 69 bytes shorter"),
                      result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("\(long): 1 error\n"), result.stderr)

        let fits = try Self.write(Self.rig(output: "name: \"\(String(repeating: "n", count: 231))\""), to: folder)
        XCTAssertEqual(try pausecam(["check", fits]).status, 0)
        let oneOver = try Self.write(Self.rig(output: "name: \"\(String(repeating: "n", count: 232))\""), to: folder)
        XCTAssertTrue(try pausecam(["check", oneOver]).stderr.contains("make it 1 byte shorter"))

        // With the default pattern the rig's name is what to shorten: the error is at `name:`. (A socket folder
        // short enough for the name's socket, which is cut at 80 characters, so this is the only error.)
        let rigName = try Self.write(Self.rig(name: String(repeating: "r", count: 240)), to: folder)
        let named = try pausecam(["check", rigName], environment: ["XDG_RUNTIME_DIR": "/tmp"])
        XCTAssertEqual(named.status, 2)
        XCTAssertTrue(named.stderr.hasPrefix("\(rigName):1:7: name: the rig's name, in the movie's name "
                                             + "({rig}-{date}-{time}), makes file names of up to 282 bytes"),
                      named.stderr)
    }

    /// A path past PATH_MAX (the folder, not the rig, is at fault) still fails when recording: the message names
    /// the real limit instead of blaming the folder's permissions.
    func testAPathTooLongWhenRecordingNamesTheLimitNotPermissions() throws {
        let folder = try ProcessRunner.temporaryDirectory("rig-limits-path")
        var deep = folder
        while deep.path.utf8.count < 4060 { deep.appendPathComponent(String(repeating: "d", count: 200)) }
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        let rig = try Self.write(Self.rig(scripts: true), to: folder)
        let result = try pausecam(["run", rig, "--clock", "simulated", "--output", deep.path])
        XCTAssertEqual(result.status, 1)
        let all = result.stdoutText + result.stderr
        XCTAssertTrue(all.contains("File name too long: the path is ")
                      && all.contains(" bytes and a path holds at most 4095; record to a folder with a shorter path"),
                      all)
        XCTAssertFalse(all.contains("permissions"), all)
    }

    // MARK: control socket

    /// `sun_path` holds 107 bytes: a long rig name in a long XDG_RUNTIME_DIR made `shell` fail with exit 1 after it
    /// had opened the lenses. It is a rig error at `name:`; `--socket` places the socket elsewhere and lifts it.
    func testARigNameTooLongForTheControlSocketIsARigError() throws {
        let runtime = try ProcessRunner.temporaryDirectory("rig-limits-socket-runtime-folder")
        XCTAssertEqual(chmod(runtime.path, 0o700), 0)
        let environment = ["XDG_RUNTIME_DIR": runtime.path]
        let name = String(repeating: "a", count: 90)
        let rig = try Self.write(Self.rig(name: name), to: runtime)
        let socket = "\(runtime.path)/pausecam/\(String(repeating: "a", count: 80)).sock"
        let room = 80 - (socket.utf8.count - 107)
        XCTAssertGreaterThan(socket.utf8.count, 107, "the temporary folder is too short to test this")
        let expected = "\(rig):1:7: name: the rig's control socket would be \(socket), \(socket.utf8.count) bytes, "
            + "and a socket path holds at most 107; shorten the name so its socket name (\"\(String(repeating: "a", count: 80))\", "
            + "letters and digits) has at most \(room) characters, or give run/shell --socket PATH"
        let checked = try pausecam(["check", rig], environment: environment)
        XCTAssertEqual(checked.status, 2)
        XCTAssertEqual(checked.stderr, "\(expected)\n\(rig): 1 error\n")

        let out = runtime.appendingPathComponent("out").path
        let shell = try pausecam(["shell", rig, "--clock", "simulated", "--output", out], environment: environment)
        XCTAssertEqual(shell.status, 2, shell.stderr)
        XCTAssertEqual(shell.stderr, "pausecam: \(expected)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))

        let elsewhere = try pausecam(["shell", rig, "--clock", "simulated", "--output", out, "--socket",
                                      runtime.appendingPathComponent("s.sock").path], environment: environment)
        XCTAssertEqual(elsewhere.status, 0, elsewhere.stderr)
    }
}
