import Foundation
import XCTest
@testable import PauseCamCore

/// `VoiceWaveLayout`: sample n of a voice file at file time n / rate, whatever the chunks do; `retake`'s spans as
/// sample ranges; the `bext` time reference.
final class VoiceWaveLayoutTests: XCTestCase {
    func testGapsAreSilenceAndOverlapsAreLeftOut() {
        var layout = VoiceWaveLayout(sampleRate: 48_000)
        XCTAssertEqual(layout.place(count: 960, at: .zero), .init(silence: 0, skip: 0))
        XCTAssertEqual(layout.place(count: 960, at: .milliseconds(20)), .init(silence: 0, skip: 0), "seamless")
        XCTAssertEqual(layout.place(count: 960, at: .milliseconds(60)), .init(silence: 960, skip: 0), "a 20 ms gap")
        XCTAssertEqual(layout.nextSample, 3_840)
        XCTAssertEqual(layout.place(count: 960, at: .milliseconds(70)), .init(silence: 0, skip: 480), "overlap")
        XCTAssertEqual(layout.place(count: 10, at: .zero), .init(silence: 0, skip: 10), "all old")
        XCTAssertEqual(layout.nextSample, 4_320)
        XCTAssertEqual(layout.place(count: 1, at: MediaTime(value: 4_320 * 2 + 1, timescale: 96_000)),
                       .init(silence: 1, skip: 0), "half a sample late rounds to the next")
    }

    func testSpansBecomeTheirSampleRanges() {
        let spans = [MediaTime.seconds(1)..<MediaTime(value: 2, timescale: 1),
                     MediaTime(value: 100, timescale: 30)..<MediaTime(value: 101, timescale: 30),
                     MediaTime.seconds(5)..<MediaTime.seconds(5)]
        XCTAssertEqual(VoiceWaveLayout.discardedSamples(spans, sampleRate: 48_000),
                       [48_000..<96_000, 160_000..<161_600], "an empty span cuts nothing")
    }

    func testTheTimeReferenceCountsFromLocalMidnight() throws {
        // 2027-01-05 10:30:00.5 UTC.
        let date = Date(timeIntervalSince1970: 1_799_145_000.5)
        let utc = try XCTUnwrap(TimeZone(identifier: "UTC"))
        XCTAssertEqual(VoiceWaveLayout.timeReference(of: date, timeZone: utc, sampleRate: 48_000),
                       UInt64(10 * 3600 + 30 * 60) * 48_000 + 24_000)
        let paris = try XCTUnwrap(TimeZone(secondsFromGMT: 3600))
        XCTAssertEqual(VoiceWaveLayout.timeReference(of: date, timeZone: paris, sampleRate: 48_000),
                       UInt64(11 * 3600 + 30 * 60) * 48_000 + 24_000, "the local time of day")
        let tokyo = try XCTUnwrap(TimeZone(secondsFromGMT: 9 * 3600))
        XCTAssertEqual(VoiceWaveLayout.timeReference(of: date, timeZone: tokyo, sampleRate: 48_000),
                       UInt64(19 * 3600 + 30 * 60) * 48_000 + 24_000)
    }
}
