import XCTest
@testable import PauseCamCore

/// Repeated scene names get a suffix, because Resolve mishandles markers that share a name.
final class ChapterTitlesTests: XCTestCase {
    func testRepeatsGetNumberedSuffixes() {
        XCTAssertEqual(ChapterTitles.unique(["Intro", "Interview", "Interview", "Scene 4", "Interview"]),
                       ["Intro", "Interview", "Interview 2", "Scene 4", "Interview 3"])
    }

    func testASuffixAnotherTitleUsesIsSkipped() {
        XCTAssertEqual(ChapterTitles.unique(["A", "A 2", "A"]), ["A", "A 2", "A 3"])
        XCTAssertEqual(ChapterTitles.unique(["A", "A", "A 2"]), ["A", "A 3", "A 2"])
        let many = ChapterTitles.unique(Array(repeating: "X", count: 50) + ["X 7", "X 2"])
        XCTAssertEqual(Set(many).count, many.count)
    }

    func testManyRepeatsOfOneNameAreNumberedInOrder() {
        let titles = ChapterTitles.unique(Array(repeating: "Take", count: 5_000) + ["Take 3"])
        XCTAssertEqual(titles.first, "Take")
        XCTAssertEqual(titles[1], "Take 2")
        XCTAssertEqual(titles[2], "Take 4", "Take 3 is another title's")
        XCTAssertEqual(titles[4_999], "Take 5001")
        XCTAssertEqual(Set(titles).count, titles.count)
    }

    func testUniqueTitlesAreUnchanged() {
        let titles = ["Scene 1", "Scene 2", "Answer"]
        XCTAssertEqual(ChapterTitles.unique(titles), titles)
        XCTAssertEqual(ChapterTitles.unique([String]()), [])
    }

    func testChaptersKeepTheirTimes() {
        let chapters = [Chapter(title: "Take", start: .zero, end: .seconds(1)),
                        Chapter(title: "Take", start: .seconds(1), end: .seconds(2))]
        XCTAssertEqual(ChapterTitles.unique(chapters),
                       [Chapter(title: "Take", start: .zero, end: .seconds(1)),
                        Chapter(title: "Take 2", start: .seconds(1), end: .seconds(2))])
    }

    /// The hook where the recorder builds the movie's chapters: two scenes named alike become two chapters.
    func testTheMoviesChaptersAreUnique() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        for step: Command in [.record(name: "Interview"), .wait(.seconds(1)), .pause, .wait(.seconds(1)),
                              .resume(name: "Interview"), .wait(.seconds(1)), .stop] {
            XCTAssertTrue(fixture.runner.perform(step).ok, "\(step)")
        }
        _ = try XCTUnwrap(fixture.runner.finishClip())
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        XCTAssertEqual(sink.chapters.map(\.title), ["Interview", "Interview 2"])
    }
}
