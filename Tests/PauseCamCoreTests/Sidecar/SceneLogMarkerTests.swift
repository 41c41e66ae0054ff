import XCTest
@testable import PauseCamCore

/// `SceneLog`'s markers: numbered in the order given, named by text or by number, renamed by number, and not
/// renamed once `retake` threw their take away.
final class SceneLogMarkerTests: XCTestCase {
    func testMarkersAreNumberedAndRenamedByNumber() {
        var log = SceneLog(frameDuration: MediaTime(value: 1, timescale: 30))
        XCTAssertEqual(log.mark(nil, scene: 1, at: .seconds(1)),
                       SceneLog.Marker(scene: 1, time: .seconds(1), text: "Marker 1", number: 1))
        XCTAssertEqual(log.mark("named", scene: 1, at: .seconds(2)).number, 2)
        XCTAssertEqual(log.mark(nil, scene: 2, at: .seconds(3)).text, "Marker 3")
        let table: [(Int, Result<String, SceneLog.MarkerRenameRefusal>)] = [
            (0, .failure(.noSuchMarker(count: 3))),
            (-1, .failure(.noSuchMarker(count: 3))),
            (4, .failure(.noSuchMarker(count: 3))),
            (Int.max, .failure(.noSuchMarker(count: 3))),
            (1, .success("first")),
            (3, .success("third")),
        ]
        for (number, expected) in table {
            let name = number == 1 ? "first" : "third"
            XCTAssertEqual(log.renameMarker(number, to: name).map(\.text), expected, "marker \(number)")
        }
        XCTAssertEqual(log.markers.map(\.text), ["first", "named", "third"])
        log.discardTake(ofScene: 2, from: .milliseconds(2500))
        XCTAssertEqual(log.renameMarker(3, to: "x").map(\.text), .failure(.discarded))
        XCTAssertEqual(log.mark(nil, scene: 2, at: .seconds(4)).text, "Marker 4", "a discarded number stays used")
    }
}
