import PauseCamCore
import XCTest

/// The room a clip's name must leave for the endings PauseCam adds.
final class ClipFileNamesTests: XCTestCase {
    func testTheLongestEndingIsAnExportAfterTwoCounters() {
        for container in MovieSettings.Container.allCases {
            XCTAssertEqual(ClipFileNames.longestEnding(container: container), "-10000-10000.youtube.txt")
        }
        XCTAssertEqual(ClipFileNames.counted("clip", attempt: 1), "clip")
        XCTAssertEqual(ClipFileNames.counted("clip", attempt: 3), "clip-3")
    }
}
