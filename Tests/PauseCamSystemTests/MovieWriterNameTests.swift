import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

final class MovieWriterNameTests: XCTestCase {
    func testExistingMovieGetsTheNextNumberAndKeepsItsBytes() throws {
        let directory = try MovieWriterFixture.directory("names")
        let existing = directory + "/take.mov"
        let bytes = Data("an older movie".utf8)
        try bytes.write(to: URL(fileURLWithPath: existing))
        try Data("sidecar".utf8).write(to: URL(fileURLWithPath: directory + "/take-2.json"))
        let sink = try MovieWriterFactory().makeSink(directory: directory, baseName: "take",
                                                     settings: MovieWriterFixture.settings(audio: false))
        XCTAssertEqual(sink.moviePath, directory + "/take-3.mov", "take.mov and take-2.json are both taken")
        XCTAssertEqual(sink.partialPath, directory + "/take-3.mov.partial")
        try sink.appendVideo(MovieWriterFixture.solidFrame(width: 320, height: 180, y: 90), at: .zero, keyframe: true)
        _ = try sink.finish(chapters: [])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: existing)), bytes, "the old file is untouched")
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/take-3.mov"))
    }

    func testConcurrentReservationsNeverShareAName() throws {
        let directory = try MovieWriterFixture.directory("race")
        final class Paths: @unchecked Sendable {
            let lock = NSLock()
            var all: [String] = []
            func add(_ path: String) { lock.withLock { all.append(path) } }
        }
        let collected = Paths()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let reservation = try? MovieNameReserver(directory: directory, baseName: "rig-2026-11-30-120000",
                                                     fileExtension: "mov").reserve()
            collected.add(reservation?.moviePath ?? "failed")
        }
        let paths = collected.all
        XCTAssertFalse(paths.contains("failed"))
        XCTAssertEqual(Set(paths).count, 16, "every reservation got its own name")
    }

    func testMissingDirectoryIsCreatedAndAnUnwritableOneIsAClearError() throws {
        let parent = try MovieWriterFixture.directory("mkdir")
        let nested = parent + "/a/b"
        let reservation = try MovieNameReserver(directory: nested, baseName: "x", fileExtension: "mkv").reserve()
        XCTAssertEqual(reservation.moviePath, nested + "/x.mkv")
        XCTAssertTrue(FileManager.default.fileExists(atPath: reservation.partialPath))
        let blocked = parent + "/file"
        try Data().write(to: URL(fileURLWithPath: blocked))
        XCTAssertThrowsError(try MovieNameReserver(directory: blocked + "/sub", baseName: "x",
                                                   fileExtension: "mov").reserve()) { error in
            XCTAssertTrue("\(error)".contains("cannot create the output directory"), "\(error)")
        }
    }
}
