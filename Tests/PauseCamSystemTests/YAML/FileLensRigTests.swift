import Foundation
import XCTest
import PauseCamCore
@testable import PauseCamSystem

/// `file: PATH` and `loop:` in a rig's lens section: decoded into `Rig.Lens.Source.file`, relative paths resolved
/// against the rig file's folder (the broken cases are in the BrokenRigs corpus).
final class FileLensRigTests: XCTestCase {
    static func rig(lens: String, file: String = "rigs/desk.yaml") throws -> Rig {
        try RigLoader.load(text: """
        name: Rehearsal
        lenses:
          main: {zoom: 1, \(lens)}
        """, file: file)
    }

    func testARelativePathIsResolvedAgainstTheRigFilesFolder() throws {
        XCTAssertEqual(try Self.rig(lens: "file: clips/main.mov").lenses[0].source,
                       .file(path: "rigs/clips/main.mov", loop: false))
        XCTAssertEqual(try Self.rig(lens: "file: ../main.mov", file: "/home/a/rigs/desk.yaml").lenses[0].source,
                       .file(path: "/home/a/rigs/../main.mov", loop: false))
        XCTAssertEqual(try Self.rig(lens: "file: main.mov", file: "desk.yaml").lenses[0].source,
                       .file(path: "main.mov", loop: false), "a rig file named without a folder: the current one")
    }

    func testAbsoluteAndHomePathsAreKeptAsWritten() throws {
        XCTAssertEqual(try Self.rig(lens: "file: /srv/footage/a.mov").lenses[0].source,
                       .file(path: "/srv/footage/a.mov", loop: false))
        XCTAssertEqual(try Self.rig(lens: "file: ~/Videos/a.mov").lenses[0].source,
                       .file(path: "~/Videos/a.mov", loop: false))
    }

    func testLoopIsReadWithTheFile() throws {
        XCTAssertEqual(try Self.rig(lens: "file: /a.mov, loop: true").lenses[0].source, .file(path: "/a.mov", loop: true))
        XCTAssertEqual(try Self.rig(lens: "file: /a.mov, loop: false").lenses[0].source, .file(path: "/a.mov", loop: false))
    }

    func testTheSummaryNamesTheFileAndTheLoop() throws {
        let summary = RigSummary.text(of: try Self.rig(lens: "file: /a.mov, loop: true"), file: "desk.yaml")
        XCTAssertTrue(summary.contains("main  zoom 1x, file /a.mov (looped)"), summary)
    }
}
