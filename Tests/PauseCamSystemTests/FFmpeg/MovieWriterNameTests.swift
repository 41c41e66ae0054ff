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

/// Every file a clip creates makes its name taken: a leftover of an earlier clip (a `.remux` from a crash while
/// finishing, a sidecar's `.tmp`, an export) sends the new clip to `NAME-2`, and stays as it was.
final class MovieNameLeftoverTests: XCTestCase {
    func testEachFileAClipCreatesMakesTheNameTaken() throws {
        let leftovers = ["take.mov", "take.mov.partial", "take.mov.remux", "take.json", "take.json.tmp", "take.jpg",
                         "take.edl", "take.fcpxml", "take.csv", "take.ffmeta", "take.youtube.txt", "take.iso"]
        XCTAssertEqual(Set(MovieNameReserver.clipFiles(stem: "take", fileExtension: "mov")), Set(leftovers))
        for leftover in leftovers {
            let directory = try MovieWriterFixture.directory("leftover")
            let bytes = Data("left by an earlier clip: \(leftover)".utf8)
            try bytes.write(to: URL(fileURLWithPath: directory + "/" + leftover))
            let reservation = try MovieNameReserver(directory: directory, baseName: "take", fileExtension: "mov").reserve()
            XCTAssertEqual(reservation.moviePath, directory + "/take-2.mov", leftover)
            XCTAssertEqual(reservation.nameTakenBy, directory + "/" + leftover)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + leftover)), bytes, leftover)
        }
    }
}
