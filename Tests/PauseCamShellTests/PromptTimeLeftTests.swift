import XCTest
import PauseCamCore
@testable import PauseCamShell

/// The time-left mark before the prompt: only under an hour, red at ten minutes, nothing when unknown.
final class PromptTimeLeftTests: XCTestCase {
    private func left(_ seconds: Int?) -> RecordingTimeLeft {
        RecordingTimeLeft(freeBytes: seconds.map { Int64($0) * 1000 }, keepFree: 0, bytesPerSecond: 1000)
    }

    func testTheMarkShowsUnderAnHourOnly() {
        let plain = PromptFormatter(color: false)
        let table: [(Int?, String)] = [(nil, ""), (7200, ""), (3600, ""), (3599, "[59 min left] "),
                                       (601, "[10 min left] "), (600, "[10 min left] "), (42, "[42 s left] ")]
        for (seconds, mark) in table { XCTAssertEqual(plain.timeLeftMark(left(seconds)), mark, "\(String(describing: seconds))") }
        let color = PromptFormatter(color: true)
        XCTAssertEqual(color.timeLeftMark(left(1200)), "\u{1B}[33m[20 min left]\u{1B}[0m ")
        XCTAssertEqual(color.timeLeftMark(left(600)), "\u{1B}[1;31m[10 min left]\u{1B}[0m ")
    }
}
