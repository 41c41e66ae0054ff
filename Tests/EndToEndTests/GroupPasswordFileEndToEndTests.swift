import Foundation
import XCTest

/// A group's `password_file` that is a named pipe: opening it would wait for a writer forever, so `check`, `run` and
/// `shell` refuse it from `stat` alone, with its position in the rig, and none of them hangs.
final class GroupPasswordFileEndToEndTests: XCTestCase {
    func testANamedPipeAsPasswordFileIsRefusedByCheckRunAndShellWithItsPosition() throws {
        let directory = try ProcessRunner.temporaryDirectory("group-fifo")
        let fifo = directory.appendingPathComponent("password").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let base = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
        let groupLine = "group: {name: studio, broker: \"mqtt://127.0.0.1:1\", host: cam-a, require_sync: false, "
            + "username: cam, password_file: \"\(fifo)\"}"
        let rig = directory.appendingPathComponent("fifo.yaml").path
        try (base + groupLine + "\n").write(toFile: rig, atomically: true, encoding: .utf8)
        let line = base.split(separator: "\n", omittingEmptySubsequences: false).count
        let column = try XCTUnwrap(groupLine.range(of: "\"\(fifo)\"")).lowerBound.utf16Offset(in: groupLine) + 1
        let expected = "\(rig):\(line):\(column): group.password_file: \(fifo) is a named pipe, not a regular file"

        for arguments in [["check", rig],
                          ["run", rig, "--script", "short", "--output", directory.appendingPathComponent("run").path],
                          ["shell", rig, "--output", directory.appendingPathComponent("shell").path]] {
            let command = try RunningCommand(arguments)
            let status = command.waitForExit(seconds: 30)
            XCTAssertEqual(status, 2, "\(arguments[0]) must refuse the rig, not hang: " + command.stdout + command.stderr)
            XCTAssertTrue(command.stderr.contains(expected), "\(arguments[0]): " + command.stderr)
        }
    }
}
