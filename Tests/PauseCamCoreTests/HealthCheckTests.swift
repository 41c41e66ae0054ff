import XCTest
@testable import PauseCamCore

/// The periodic check while recording, as a table of rounds: what each round says, and when it stops the clip.
final class HealthCheckTests: XCTestCase {
    let policy = StoragePolicy(interval: .seconds(2), warnBelow: 1_000, stopBelow: 100)

    func testEncoderDropsAreReportedAsTheirIncreaseOnly() {
        var check = HealthCheck(policy: policy)
        let rounds: [(dropped: Int, expected: Int?)] = [(0, nil), (5, 5), (5, nil), (12, 7)]
        for (dropped, expected) in rounds {
            let actions = check.check(droppedFrames: dropped, freeBytes: nil, partialBytes: 0)
            XCTAssertEqual(actions, expected.map {
                [.notify(.framesDropped(count: $0, interval: .seconds(2)))]
            } ?? [], "after \(dropped)")
        }
    }

    func testTheDiskIsWarnedAboutOnceThenTheClipIsStoppedWhileThereIsRoomToFinishIt() {
        var check = HealthCheck(policy: policy)
        // Free bytes minus the `.partial` (what finishing needs): 5000 spare, 900 (warn), 800 (quiet), 50 (stop).
        let rounds: [(free: Int64, partial: Int64, warns: Bool, stops: Bool)] = [
            (6_000, 1_000, false, false), (1_900, 1_000, true, false), (1_800, 1_000, false, false),
            (1_050, 1_000, false, true),
        ]
        for (free, partial, warns, stops) in rounds {
            let actions = check.check(droppedFrames: 0, freeBytes: free, partialBytes: partial)
            XCTAssertEqual(actions.contains { if case .warnClip(let m) = $0 { m.text.contains("almost full") } else { false } },
                           warns, "\(free)")
            XCTAssertEqual(actions.contains(.stop(reason: "the disk is nearly full")), stops, "\(free)")
        }
    }

    func testADeletedPartialStopsTheClipAtOnceWithItsReason() {
        var check = HealthCheck(policy: policy)
        XCTAssertEqual(check.check(droppedFrames: 0, freeBytes: 5_000, partialBytes: 10, partialPath: "/v/a.mov.partial"), [])
        let actions = check.check(droppedFrames: 3, freeBytes: nil, partialBytes: 0, partialDeleted: true,
                                  partialPath: "/v/a.mov.partial")
        XCTAssertEqual(actions, [
            .warnClip(.movieFileDeleted(partialPath: "/v/a.mov.partial")),
            .stop(reason: "the movie's file was deleted while recording"),
        ])
        XCTAssertEqual(EngineEvent.movieFileDeleted(partialPath: "/v/a.mov.partial").text,
                       "the movie's file /v/a.mov.partial was deleted while recording (by hand, or with its folder): "
                       + "nothing of this clip can be saved; stopping it")
    }
}
