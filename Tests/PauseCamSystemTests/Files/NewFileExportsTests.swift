import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// Exports go through `AtomicSidecarStore.writeNew`: a file, or a link planted at the export's name, is never
/// opened; the next free name is used.
final class NewFileExportsTests: XCTestCase {
    func testAnExistingFileAndAPlantedLinkAreLeftAloneAndTheNextNameIsUsed() throws {
        let directory = try MovieWriterFixture.directory("exports")
        let victim = directory + "/victim.txt"
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: victim))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: directory + "/clip.edl"))
        try FileManager.default.createSymbolicLink(atPath: directory + "/clip-2.edl", withDestinationPath: victim)

        let store = AtomicSidecarStore()
        let written = try store.writeNew(Data("EDL".utf8), stem: directory + "/clip", suffix: ".edl")

        XCTAssertEqual(written, directory + "/clip-3.edl")
        XCTAssertEqual(try String(contentsOfFile: written, encoding: .utf8), "EDL")
        XCTAssertEqual(try String(contentsOfFile: directory + "/clip.edl", encoding: .utf8), "mine")
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "untouched", "the link was followed")
        XCTAssertEqual(try store.writeNew(Data("again".utf8), stem: directory + "/clip", suffix: ".edl"),
                       directory + "/clip-4.edl")
    }

    func testAFolderThatCannotBeWrittenIsAnErrorThatNamesThePath() throws {
        let missing = try MovieWriterFixture.directory("exports-missing") + "/no/such/folder"
        XCTAssertThrowsError(try AtomicSidecarStore().writeNew(Data(), stem: missing + "/clip", suffix: ".csv")) {
            XCTAssertTrue("\($0)".contains(missing + "/clip.csv"), "\($0)")
        }
    }
}
