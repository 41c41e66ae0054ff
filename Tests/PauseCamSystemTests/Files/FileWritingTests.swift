import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// PauseCam's own small files: the sidecar never written through a planted link, and a thumbnail that fails
/// half-way removed instead of left torn.
final class FileWritingTests: XCTestCase {
    private var mountPoint: String?

    override func tearDown() {
        if let mountPoint { _ = try? Self.runTool("/bin/umount", [mountPoint]) }
        super.tearDown()
    }

    func testTheSidecarIsNeverWrittenThroughALinkPlantedAtItsTemporaryName() throws {
        let directory = try MovieWriterFixture.directory("planted")
        let victim = directory + "/victim.txt"
        let victimBytes = Data("must stay untouched".utf8)
        try victimBytes.write(to: URL(fileURLWithPath: victim))
        let sidecar = directory + "/clip.json"
        try FileManager.default.createSymbolicLink(atPath: sidecar + ".tmp", withDestinationPath: victim)

        try AtomicSidecarStore().write(Data("{\"complete\": true}".utf8), to: sidecar)

        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: victim)), victimBytes, "the link was followed")
        XCTAssertEqual(try String(contentsOfFile: sidecar, encoding: .utf8), "{\"complete\": true}")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: sidecar + ".tmp"), victim,
                       "the planted link is left alone, not replaced")
        XCTAssertFalse(MovieNameReserver.exists(sidecar + ".tmp-2"), "the temporary file was renamed away")
    }

    func testASidecarReplacesTheOldOneAndLeavesNoTemporaryFile() throws {
        let directory = try MovieWriterFixture.directory("replace")
        let sidecar = directory + "/clip.json"
        try AtomicSidecarStore().write(Data("old".utf8), to: sidecar)
        try AtomicSidecarStore().write(Data("new".utf8), to: sidecar)
        XCTAssertEqual(try String(contentsOfFile: sidecar, encoding: .utf8), "new")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["clip.json"])
    }

    func testAThumbnailThatFillsTheDiskIsRemovedNotLeftHalfWritten() throws {
        let disk = try fullDiskWithOnePageFree()
        let path = disk + "/clip.jpg"
        let writer = ThumbnailWriter(canvasWidth: 640, canvasHeight: 360)
        XCTAssertThrowsError(try writer.write(Self.noisyFrame(width: 640, height: 360), to: path)) { error in
            XCTAssertTrue("\(error)".contains("No space left on device"), "\(error)")
            XCTAssertTrue("\(error)".contains(path), "the error names the file: \(error)")
        }
        XCTAssertFalse(MovieNameReserver.exists(path), "a torn thumbnail was left behind")
    }

    func testASidecarThatFillsTheDiskLeavesNoTemporaryFile() throws {
        let disk = try fullDiskWithOnePageFree()
        let sidecar = disk + "/clip.json"
        XCTAssertThrowsError(try AtomicSidecarStore().write(Data(repeating: 32, count: 64 * 1024), to: sidecar))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk), ["filler"])
    }

    // MARK: Fixtures

    /// A tmpfs filled to the last page (4 KiB free): the next write of more than that fails half-way with
    /// ENOSPC. Skips where mounting is not allowed.
    private func fullDiskWithOnePageFree() throws -> String {
        let directory = try MovieWriterFixture.directory("full")
        guard try Self.runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", directory]) == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (needs root and mount rights)")
        }
        mountPoint = directory
        let filler = directory + "/filler"
        let fd = open(filler, O_WRONLY | O_CREAT, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let page = [UInt8](repeating: 7, count: 4096)
        var size = 0
        while page.withUnsafeBytes({ write(fd, $0.baseAddress, 4096) }) == 4096 { size += 4096 }
        XCTAssertEqual(ftruncate(fd, off_t(size - 4096)), 0)
        close(fd)
        return directory
    }

    /// Runs `tool` and returns its exit status (its output goes to the test's own).
    private static func runTool(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Random luma: a JPEG of it is far larger than one page.
    static func noisyFrame(width: Int, height: Int) -> VideoFrame {
        var frame = MovieWriterFixture.solidFrame(width: width, height: height, y: 128)
        var generator = SystemRandomNumberGenerator()
        frame.planes[0].bytes = (0..<frame.planes[0].bytes.count).map { _ in UInt8.random(in: 16...235, using: &generator) }
        return frame
    }
}
