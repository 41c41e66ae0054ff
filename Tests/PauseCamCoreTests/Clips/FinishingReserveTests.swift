import XCTest
@testable import PauseCamCore

/// The free space kept for finishing, as a table: a copy needs its `.partial`'s size again, an in-place finish only
/// the bound on its index; in-place indexes add up (they stay in the movies), copies do not (each `.partial` goes
/// once its copy is complete, so the largest copy is what is needed at once).
final class FinishingReserveTests: XCTestCase {
    typealias Movie = FinishingReserve.Movie

    func testEachFinishingPathReservesWhatItWrites() {
        let index = FinishingReserve.indexBytesFixed + 1_000 * FinishingReserve.indexBytesPerSample
        let rows: [(movies: [Movie], expected: Int64, why: String)] = [
            ([], 0, "no movie"),
            ([Movie(finishing: .byCopy, partialBytes: 5_000_000, samples: 1_000)], 5_000_000, "a copy"),
            ([Movie(finishing: .inPlace, partialBytes: 5_000_000, samples: 1_000)], index, "in place"),
            ([Movie(finishing: .inPlace, partialBytes: 5_000_000, samples: 1_000),
              Movie(finishing: .inPlace, partialBytes: 90_000_000, samples: 1_000)], 2 * index, "two indexes add up"),
            ([Movie(finishing: .byCopy, partialBytes: 1_000_000, samples: 10),
              Movie(finishing: .byCopy, partialBytes: 7_000_000, samples: 10),
              Movie(finishing: .byCopy, partialBytes: 3_000_000, samples: 10)], 7_000_000, "the largest copy (an ISO)"),
            ([Movie(finishing: .inPlace, partialBytes: 5_000_000, samples: 1_000),
              Movie(finishing: .byCopy, partialBytes: 2_000_000, samples: 10)], index + 2_000_000, "both kinds"),
        ]
        for row in rows {
            XCTAssertEqual(FinishingReserve(movies: row.movies).bytes, row.expected, row.why)
        }
    }

    func testChaptersAndAudioPacketsAreCounted() {
        XCTAssertEqual(FinishingReserve.samples(videoFrames: 30, audioSamples: 0), 30)
        XCTAssertEqual(FinishingReserve.samples(videoFrames: 30, audioSamples: 1), 31, "a packet begun counts")
        XCTAssertEqual(FinishingReserve.samples(videoFrames: 30, audioSamples: 48_000), 30 + 47)
        let movie = Movie(finishing: .inPlace, partialBytes: 0, samples: 0)
        let withChapters = FinishingReserve(movies: [movie], chapters: 3, chapterTitleBytes: 30)
        XCTAssertEqual(withChapters.bytes, FinishingReserve.indexBytesFixed + 3 * FinishingReserve.indexBytesPerChapter + 60)
    }

    func testAnHourIn1080pKeepsWellUnderOnePercent() {
        // An hour at 30 fps with 48 kHz AAC, at 5 Mbit/s (a modest 1080p rate): the bound, not the index itself.
        let samples = FinishingReserve.samples(videoFrames: 3_600 * 30, audioSamples: 3_600 * 48_000)
        let movieBytes: Int64 = 3_600 * 5_000_000 / 8
        let reserve = FinishingReserve(movies: [Movie(finishing: .inPlace, partialBytes: movieBytes, samples: samples)],
                                       chapters: 100, chapterTitleBytes: 2_000).bytes
        XCTAssertLessThan(Double(reserve) / Double(movieBytes), 0.01)
    }
}
