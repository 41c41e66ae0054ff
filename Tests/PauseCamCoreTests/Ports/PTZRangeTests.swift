import XCTest
@testable import PauseCamCore

/// `PTZRange` is what a camera says of one pan, tilt or zoom control; a ramp's every step goes through `clamp`, so
/// a value off the camera's grid or outside its range must never reach the device.
final class PTZRangeTests: XCTestCase {
    func testClampRoundsToTheNearestStepThenKeepsInsideTheRange() {
        let range = PTZRange(minimum: -36000, maximum: 36000, step: 3600, defaultValue: 0)
        let table: [(given: Int, expected: Int)] = [
            (0, 0),
            (1799, 0),            // under half a step: down
            (1800, 3600),         // half a step: up
            (-1801, -3600),
            (36000, 36000),
            (40000, 36000),       // past the maximum
            (-99999, -36000),     // past the minimum
            (Int.max, 36000),
            (Int.min, -36000),
        ]
        for row in table {
            XCTAssertEqual(range.clamp(row.given), row.expected, "clamp(\(row.given))")
        }
    }

    func testAMaximumOffTheGridIsNeverExceeded() {
        let range = PTZRange(minimum: 100, maximum: 505, step: 10, defaultValue: 100)
        XCTAssertEqual(range.clamp(506), 505)   // the nearest step (510) lies past the maximum
        XCTAssertEqual(range.clamp(504), 500)
        XCTAssertEqual(range.clamp(494), 490)
        XCTAssertEqual(range.clamp(600), 505)
    }

    func testNonsenseFromACameraIsMadeUsable() {
        let inverted = PTZRange(minimum: 500, maximum: 100, step: 0, defaultValue: 500)
        XCTAssertEqual(inverted.maximum, 500, "a maximum under the minimum is taken as the minimum")
        XCTAssertEqual(inverted.step, 1, "a step under 1 is taken as 1")
        XCTAssertEqual(inverted.clamp(42), 500)
    }

    func testAFirstRampStartsWhereTheCameraSaidItStood() {
        XCTAssertEqual(PTZRange(minimum: 100, maximum: 500, defaultValue: 100, current: 320).start, 320)
        XCTAssertEqual(PTZRange(minimum: 100, maximum: 500, defaultValue: 150).start, 150,
                       "without a reported value, the default")
        XCTAssertEqual(PTZRange(minimum: 100, maximum: 500, step: 100, defaultValue: 100, current: 9999).start, 500,
                       "a reported value outside the range is clamped")
    }

    func testTheTextNamesTheStepOnlyWhenThereIsOne() {
        XCTAssertEqual(PTZRange(minimum: 100, maximum: 500, defaultValue: 100).text, "100…500")
        XCTAssertEqual(PTZRange(minimum: -36000, maximum: 36000, step: 3600, defaultValue: 0).text,
                       "-36000…36000 step 3600")
    }
}
