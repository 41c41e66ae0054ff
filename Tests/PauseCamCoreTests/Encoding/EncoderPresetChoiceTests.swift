import XCTest
@testable import PauseCamCore

/// `preset: auto`'s choice from measured speeds: the slowest preset of the leading run that reaches 1.5 × the rate.
final class EncoderPresetChoiceTests: XCTestCase {
    private func measurement(_ speeds: [(String, Double)], rate: FrameRate = FrameRate(30)) -> EncoderSpeedMeasurement {
        EncoderSpeedMeasurement(width: 1920, height: 1080, rate: rate,
                                samples: speeds.map { .init(preset: $0.0, framesPerSecond: $0.1) })
    }

    func testTheSlowestPresetOfTheLeadingRunAboveTheHeadroomIsChosen() {
        let table: [(speeds: [(String, Double)], rate: FrameRate, chosen: String, line: UInt)] = [
            // A 2-core laptop on camera-like 1080p: only ultrafast holds 45 fps.
            ([("ultrafast", 78), ("superfast", 24)], FrameRate(30), "ultrafast", #line),
            // Its 720p: superfast and veryfast both hold 45 fps; faster does not.
            ([("ultrafast", 241), ("superfast", 63), ("veryfast", 51), ("faster", 30)], FrameRate(30), "veryfast", #line),
            // Exactly 1.5 × the rate is enough.
            ([("ultrafast", 200), ("superfast", 45), ("veryfast", 44.9)], FrameRate(30), "superfast", #line),
            // Nothing fast enough: ultrafast, the fastest there is.
            ([("ultrafast", 20)], FrameRate(30), "ultrafast", #line),
            // No measurement at all: ultrafast.
            ([], FrameRate(30), "ultrafast", #line),
            // A slower preset measured faster after a too-slow one (noise) is not trusted.
            ([("ultrafast", 100), ("superfast", 40), ("veryfast", 60)], FrameRate(30), "ultrafast", #line),
            // 29.97 needs 44.955 fps; 60 fps needs 90.
            ([("ultrafast", 120), ("superfast", 44.96), ("veryfast", 44.9)], FrameRate(30000, 1001), "superfast", #line),
            ([("ultrafast", 120), ("superfast", 89)], FrameRate(60), "ultrafast", #line),
            // A very fast machine goes down the whole ladder.
            (EncoderPresetChoice.ladder.map { ($0, 1000) }, FrameRate(30), "veryslow", #line),
        ]
        for row in table {
            XCTAssertEqual(EncoderPresetChoice.choose(measurement(row.speeds, rate: row.rate)), row.chosen, line: row.line)
        }
    }

    func testANamedPresetTooSlowGetsAWarningWithItsFigure() throws {
        let measured = measurement([("ultrafast", 78), ("superfast", 24.4)])
        XCTAssertNil(EncoderPresetChoice.warning(for: "ultrafast", in: measured))
        let measuredTooSlow = try XCTUnwrap(EncoderPresetChoice.warning(for: "superfast", in: measured))
        XCTAssertTrue(measuredTooSlow.contains("24.4 fps") && measuredTooSlow.contains("45.0 fps")
                      && measuredTooSlow.contains("1920x1080") && measuredTooSlow.contains("preset: auto"), measuredTooSlow)
        // veryfast was not measured (the measurement stopped at superfast): slower than a too-slow preset.
        let slower = try XCTUnwrap(EncoderPresetChoice.warning(for: "veryfast", in: measured))
        XCTAssertTrue(slower.contains("slower than superfast") && slower.contains("24.4 fps"), slower)
        // A preset faster than everything measured, or not a ladder preset, gets no claim.
        XCTAssertNil(EncoderPresetChoice.warning(for: "veryfast", in: measurement([("ultrafast", 300), ("superfast", 200)])))
        XCTAssertNil(EncoderPresetChoice.warning(for: "placebo", in: measurement([])))
    }

    func testTheReportListsEveryPresetAndTheChoice() {
        let report = measurement([("ultrafast", 78), ("superfast", 24)]).report
        XCTAssertEqual(report, """
        encoder speed, 1920x1080 at 30 fps, camera-like frames (needs 45.0 fps):
          ultrafast 78.0 fps
          superfast 24.0 fps (too slow)
          auto chooses: ultrafast

        """)
    }
}
