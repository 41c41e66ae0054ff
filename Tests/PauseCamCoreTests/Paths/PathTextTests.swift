import Foundation
import PauseCamCore
import XCTest

/// Path maths by splitting text: the answers `NSString` gives, and none of its traps.
final class PathTextTests: XCTestCase {
    func testFolderAndLastComponentTable() {
        let rows: [(path: String, folder: String, last: String)] = [
            ("o", "", "o"),
            ("o/", "", "o"),
            ("é", "", "é"),
            ("a/b", "a", "b"),
            ("a/b/", "a", "b"),
            ("a//b", "a", "b"),
            ("x/o/", "x", "o"),
            ("./o", ".", "o"),
            ("/o", "/", "o"),
            ("/", "/", "/"),
            ("//", "/", "/"),
            ("", "", ""),
            ("clips", "", "clips"),
            ("/tmp/clips/e2e-rig.mov", "/tmp/clips", "e2e-rig.mov"),
            ("~/Videos/PauseCam", "~/Videos", "PauseCam"),
        ]
        for row in rows {
            XCTAssertEqual(PathText.folder(of: row.path), row.folder, "folder of \(row.path)")
            XCTAssertEqual(PathText.lastComponent(of: row.path), row.last, "last component of \(row.path)")
        }
    }

    /// Where `NSString` does not trap, the answers are its own (it traps on one one-character component: `o`, `o/`).
    func testTheAnswersAreNSStringsWhereItDoesNotTrap() {
        for path in ["a/b", "a/b/", "a//b", "x/o/", "./o", "/o", "/", "clips", "ab", "/tmp/clips/e2e-rig.mov",
                     "~/Videos/PauseCam", "a/.", "🎬"] {
            XCTAssertEqual(PathText.folder(of: path), (path as NSString).deletingLastPathComponent, path)
            XCTAssertEqual(PathText.lastComponent(of: path), (path as NSString).lastPathComponent, path)
        }
    }

    /// The walk up to the nearest existing folder, as the output folder's check makes it, ends for every path.
    func testWalkingUpEndsAtTheRootOrTheCurrentFolder() {
        for path in ["a/b", "o", "x/y/z/", "/a/b/c", "é/o"] {
            var folder = path
            var steps = 0
            while !folder.isEmpty && folder != "/" && steps < 10 {
                folder = PathText.folder(of: folder)
                steps += 1
            }
            XCTAssertTrue(folder.isEmpty || folder == "/", "\(path) ends at \(folder)")
            XCTAssertLessThan(steps, 10, path)
        }
    }
}
