import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// What the built binary says when the path given as a rig is not a rig file: every command that takes a rig
/// (`check`, `run`, `shell`, `devices --rig`) reads it the same way, and says what is wrong in the user's terms
/// (a device, a folder, no such file, no permission, too large), never a Foundation error code.
final class RigMessagesEndToEndTests: XCTestCase {
    func pausecam(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(BinaryLocator.pausecam.path, arguments)
    }

    static let notRegular = "not a regular file; give the path of a rig's .yaml file"

    func testCheckSaysWhatThePathIsInstead() throws {
        let folder = try ProcessRunner.temporaryDirectory("rig-messages")
        let missing = folder.appendingPathComponent("missing.yaml").path
        let cases: [(path: String, stderr: String)] = [
            ("/dev/zero", "/dev/zero: cannot read the rig file: it is a character device, \(Self.notRegular)\n"
                + "/dev/zero: 1 error\n"),
            (folder.path, "\(folder.path): cannot read the rig file: it is a folder, \(Self.notRegular)\n"
                + "\(folder.path): 1 error\n"),
            (missing, "\(missing): cannot read the rig file: no such file; check the name and the folder\n"
                + "\(missing): 1 error\n"),
        ]
        for (path, expected) in cases {
            let result = try pausecam(["check", path])
            XCTAssertEqual(result.status, 2, path)
            XCTAssertEqual(result.stderr, expected, path)
            XCTAssertFalse(result.stderr.contains("NSCocoaErrorDomain"), path)
        }
    }

    func testRunShellAndDevicesReadTheRigTheSameWay() throws {
        let expected = "pausecam: /dev/zero: cannot read the rig file: it is a character device, \(Self.notRegular)\n"
        let folder = try ProcessRunner.temporaryDirectory("rig-messages-run")
        for arguments in [["run", "/dev/zero", "--clock", "simulated", "--output", folder.path + "/out"],
                          ["shell", "/dev/zero", "--clock", "simulated", "--output", folder.path + "/out"],
                          ["devices", "--rig", "/dev/zero"]] {
            let result = try pausecam(arguments)
            XCTAssertEqual(result.status, 2, arguments.joined(separator: " "))
            XCTAssertEqual(result.stderr, expected, arguments.joined(separator: " "))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path + "/out"))
    }

    func testUnreadableRigSaysPermission() throws {
        let folder = try ProcessRunner.temporaryDirectory("rig-permission")
        XCTAssertEqual(chmod(folder.path, 0o755), 0)
        let path = folder.appendingPathComponent("secret.yaml").path
        try Data("name: Secret\n".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(chmod(path, 0o200), 0)
        var command = [BinaryLocator.pausecam.path, "check", path]
        if geteuid() == 0 {
            // Root reads any file: drop to nobody (setpriv, from util-linux) so the permission check is real.
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                throw XCTSkip("running as root without /usr/bin/setpriv (util-linux) to drop privileges")
            }
            XCTAssertEqual(chmod(path, 0o600), 0)
            command = ["--reuid=65534", "--regid=65534", "--clear-groups"] + command
            let result = try ProcessRunner.run("/usr/bin/setpriv", command)
            try checkPermissionMessage(result, path)
        } else {
            try checkPermissionMessage(try ProcessRunner.run(command[0], Array(command.dropFirst())), path)
        }
    }

    private func checkPermissionMessage(_ result: ProcessResult, _ path: String) throws {
        if result.stderr.contains("error while loading shared libraries") {
            throw XCTSkip("the binary cannot run as another user here: \(result.stderr)")
        }
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "\(path): cannot read the rig file: you do not have permission to read it "
                       + "(check it with ls -l)\n\(path): 1 error\n")
    }

    func testTooLargeRigIsOneErrorAtOnce() throws {
        let folder = try ProcessRunner.temporaryDirectory("rig-large")
        let path = folder.appendingPathComponent("huge.yaml").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("name: Huge\n".utf8)))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 5 * 1024 * 1024)
        try handle.close()
        let result = try pausecam(["check", path])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "\(path): the rig file is 5242880 bytes, more than the limit of 4194304 bytes "
                       + "(4 MiB) for a rig file; check that this is the rig you meant, or split its scripts over "
                       + "several rig files\n\(path): 1 error\n")
    }

    func testTabIndentationSaysUseSpaces() throws {
        let folder = try ProcessRunner.temporaryDirectory("rig-tabs")
        let path = folder.appendingPathComponent("tabs.yaml").path
        try "name: Tabs\nlenses:\n\tmain:\n\t\tzoom: 1\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try pausecam(["check", path])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "\(path):3:1: tabs are not allowed for indentation; use spaces\n"
                       + "\(path): 1 error\n")
    }
}
