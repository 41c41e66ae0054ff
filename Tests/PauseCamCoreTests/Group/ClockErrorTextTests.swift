import XCTest
@testable import PauseCamCore

/// The words `ctl --group status` gives a member's clock error: what the figure means, and what to do.
final class ClockErrorTextTests: XCTestCase {
    func testTheFigureIsExplainedAgainstAQuarterFrame() {
        let rows: [(error: Int64, rate: FrameRate?, has: String, hasNot: String?)] = [
            // The kernel's cap: the clock is not synchronised at all.
            (16_000_000_000, FrameRate(30), "clock not synchronised (the kernel's largest error estimate, clock error "
                + "±16000.000 ms)", nil),
            (16_000_000_000, nil, "start chrony or ptp4l with phc2sys on it", nil),
            (12_000, FrameRate(30), "clock error ±0.012 ms (within a quarter frame)", "not synchronised"),
            // A quarter frame at 30 fps is 8.333 ms.
            (8_333_333, FrameRate(30), "(within a quarter frame)", "more than"),
            (8_333_334, FrameRate(30), "more than a quarter frame at 30 fps (8.333 ms)", nil),
            (40_000_000, FrameRate(25), "clock error ±40.000 ms, more than a quarter frame at 25 fps (10.000 ms)", nil),
            (40_000_000, nil, "clock error ±40.000 ms", "quarter"),
        ]
        for row in rows {
            let text = ClockErrorText.describe(errorNanoseconds: row.error, rate: row.rate)
            XCTAssertTrue(text.contains(row.has), "\(row.error): \(text)")
            if let hasNot = row.hasNot { XCTAssertFalse(text.contains(hasNot), "\(row.error): \(text)") }
        }
    }
}
