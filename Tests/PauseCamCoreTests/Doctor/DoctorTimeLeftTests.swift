import XCTest
@testable import PauseCamCore

/// `doctor`'s recording time left: the free space at the newest clip's rate, a warning at ten minutes.
final class DoctorTimeLeftTests: XCTestCase {
    func testTheTimeLeftAtTheNewestClipsRate() {
        let stop: Int64 = 64 << 20
        let clip = ClipRate(movie: "take.mov", bytesPerSecond: 1_000_000)
        let table: [(free: Int64?, clip: ClipRate?, DoctorFinding.Severity?, String?)] = [
            (stop + 7_200_000_000, clip, .ok, "recording time left: about 2 h at 1.0 MB/s, the rate of take.mov, "
                + "the newest clip there"),
            (stop + 600_000_000, clip, .warning, "recording time left: about 10 min at 1.0 MB/s, the rate of take.mov, "
                + "the newest clip there"),
            (stop + 7_200_000_000, nil, nil, nil),      // no clip there: the rate is unknown
            (nil, clip, nil, nil),                      // free space unknown: the disk findings say so
            (stop - 1, clip, nil, nil),                 // below the stop threshold: a blocker says so
        ]
        for row in table {
            let folder = DoctorFacts.OutputFolder(path: "/v", state: .writable, availableBytes: row.free,
                                                  warnBelow: 1 << 30, stopBelow: stop, lastClip: row.clip)
            let finding = DoctorExamination.recordingTimeLeft(folder)
            XCTAssertEqual(finding?.severity, row.2, "\(row)")
            XCTAssertEqual(finding?.what, row.3, "\(row)")
            if let finding { XCTAssertTrue(DoctorExamination.disk(folder).findings.contains(finding)) }
        }
    }

    func testAClipsRateNeedsASecondAndBytes() {
        XCTAssertEqual(ClipRate.measured(movie: "a.mov", bytes: 10_000_000, duration: 4),
                       ClipRate(movie: "a.mov", bytesPerSecond: 2_500_000))
        for (bytes, duration) in [(Int64(10), 0.5), (0, 10), (-5, 10), (10, .nan), (10, .infinity), (10, 1e12)] {
            XCTAssertNil(ClipRate.measured(movie: "a.mov", bytes: bytes, duration: duration), "\(bytes) \(duration)")
        }
    }
}
