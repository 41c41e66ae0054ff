import Foundation
import XCTest
import PauseCamCore
@testable import PauseCamSystem
#if canImport(Glibc)
import Glibc
#endif

/// A path given as a rig that is not a readable regular file says what it is instead, at line 0 (`FILE: message`),
/// without opening a device or waiting on a pipe.
final class RigFileReaderTests: XCTestCase {
    func message(_ path: String) -> String? {
        do {
            _ = try RigLoader.read(path)
            return nil
        } catch {
            XCTAssertEqual(error.diagnostics.count, 1)
            XCTAssertEqual(error.diagnostics.first?.mark.line, 0)
            return error.description
        }
    }

    func testDeviceIsNotARegularFile() {
        XCTAssertEqual(message("/dev/zero"), "/dev/zero: cannot read the rig file: it is a character device, not a "
                       + "regular file; give the path of a rig's .yaml file")
        XCTAssertEqual(message("/dev/null"), "/dev/null: cannot read the rig file: it is a character device, not a "
                       + "regular file; give the path of a rig's .yaml file")
    }

    func testFolderIsNotARegularFile() throws {
        let folder = try temporaryFolder()
        XCTAssertEqual(message(folder), "\(folder): cannot read the rig file: it is a folder, not a regular file; "
                       + "give the path of a rig's .yaml file")
    }

    func testNamedPipeIsRefusedWithoutWaitingForAWriter() throws {
        let path = try temporaryFolder() + "/rig.yaml"
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        XCTAssertEqual(message(path), "\(path): cannot read the rig file: it is a named pipe, not a regular file; "
                       + "give the path of a rig's .yaml file")
    }

    func testMissingFileAndMissingFolder() throws {
        let folder = try temporaryFolder()
        XCTAssertEqual(message(folder + "/nope.yaml"),
                       "\(folder)/nope.yaml: cannot read the rig file: no such file; check the name and the folder")
        let file = folder + "/plain.yaml"
        try Data("name: x\n".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(message(file + "/rig.yaml"), "\(file)/rig.yaml: cannot read the rig file: a part of the path "
                       + "is a file, not a folder; check the path")
    }

    func testUnreadableFileSaysPermission() throws {
        if geteuid() == 0 { throw XCTSkip("root reads any file: permissions cannot be tested as root") }
        let file = try temporaryFolder() + "/secret.yaml"
        try Data("name: x\n".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(chmod(file, 0o200), 0)
        XCTAssertEqual(message(file), "\(file): cannot read the rig file: you do not have permission to read it "
                       + "(check it with ls -l)")
    }

    func testRegularFileIsReadWhole() throws {
        let file = try temporaryFolder() + "/rig.yaml"
        // Bigger than one read chunk (64 KiB), so the loop is exercised.
        let text = String(repeating: "# padding\n", count: 10_000) + "name: x\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(try RigLoader.read(file), Array(text.utf8))
        XCTAssertEqual(try RigLoader.read(try temporaryFile(contents: "")), [])
    }

    private func temporaryFolder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-rigread-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    private func temporaryFile(contents: String) throws -> String {
        let path = try temporaryFolder() + "/empty.yaml"
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
