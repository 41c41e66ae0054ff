import Foundation
import XCTest
@testable import PauseCamSystem

/// The broker password comes from the first line of its file; a missing file or an empty first line names the file.
final class MQTTPasswordFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-pw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func file(_ text: String) throws -> String {
        let path = folder.appendingPathComponent(UUID().uuidString).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testTheFirstLineWithoutItsLineEndIsThePassword() throws {
        XCTAssertEqual(try MQTTPasswordFile.read(path: try file("s3cret\n")), "s3cret")
        XCTAssertEqual(try MQTTPasswordFile.read(path: try file("s3cret\r\nsecond line\n")), "s3cret")
        XCTAssertEqual(try MQTTPasswordFile.read(path: try file(" with spaces ")), " with spaces ")
    }

    func testAMissingFileAndAnEmptyPasswordAreErrorsNamingTheFile() throws {
        let missing = folder.appendingPathComponent("nothing-here").path
        XCTAssertThrowsError(try MQTTPasswordFile.read(path: missing)) { error in
            XCTAssertEqual(error as? MQTTError, .passwordFile(path: missing, reason: "No such file or directory"))
            XCTAssertTrue("\(error)".contains(missing), "\(error)")
        }
        let empty = try file("\nsecond\n")
        XCTAssertThrowsError(try MQTTPasswordFile.read(path: empty)) { error in
            XCTAssertEqual(error as? MQTTError, .passwordFile(path: empty, reason: "its first line is empty"))
        }
    }

    /// A named pipe would block `open` until a writer came: it is refused from `stat` alone, never opened.
    func testANamedPipeOrAFolderIsRefusedWithoutBeingOpened() throws {
        let pipe = folder.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(pipe, 0o600), 0)
        XCTAssertThrowsError(try MQTTPasswordFile.read(path: pipe)) { error in
            XCTAssertEqual(error as? MQTTError, .passwordFile(path: pipe, reason: "it is a named pipe, not a regular file"))
        }
        XCTAssertThrowsError(try MQTTPasswordFile.read(path: folder.path)) { error in
            XCTAssertEqual(error as? MQTTError, .passwordFile(path: folder.path, reason: "it is a folder, not a regular file"))
        }
    }
}
