import Foundation
import XCTest

/// The sidecar's rename is made durable: after `rename(NAME.json.tmp, NAME.json)` the folder itself is flushed
/// (`fsync` on the folder), or a power cut soon after could lose the new name. Seen from outside, with `strace`.
final class SidecarDurabilityEndToEndTests: XCTestCase {
    func testTheFolderIsFlushedAfterTheSidecarsRename() throws {
        let strace = "/usr/bin/strace"
        guard FileManager.default.isExecutableFile(atPath: strace) else { throw XCTSkip("strace is not installed") }
        let directory = try ProcessRunner.temporaryDirectory("fsync")
        let folder = directory.resolvingSymlinksInPath().path
        let trace = directory.appendingPathComponent("trace").path
        let result = try ProcessRunner.run(strace, [
            "-f", "-qq", "-y", "-e", "trace=rename,renameat,renameat2,fsync,fdatasync", "-o", trace,
            BinaryLocator.pausecam.path, "run", ProcessRunner.rig("e2e.yaml"), "--script", "short",
            "--clock", "simulated", "--output", folder + "/clips",
        ])
        guard result.status == 0 || !result.stderr.contains("ptrace") else {
            throw XCTSkip("strace cannot trace here: \(result.stderr)")
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        let sidecar = folder + "/clips/e2e-rig.json"
        let lastRename = try XCTUnwrap(lines.lastIndex { $0.contains("rename") && $0.contains("\"\(sidecar)\")") },
                                       "no rename onto \(sidecar) in:\n\(lines.joined(separator: "\n"))")
        let folderFlush = lines[lastRename...].contains { $0.contains("fsync(") && $0.contains("<\(folder)/clips>") }
        XCTAssertTrue(folderFlush, "no fsync of \(folder)/clips after the rename:\n\(lines[lastRename...].joined(separator: "\n"))")
    }
}
