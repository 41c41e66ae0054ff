import XCTest
@testable import PauseCamCore

/// The periodic check while recording, as a table of rounds: what each round says, and when it stops the clip.
final class HealthCheckTests: XCTestCase {
    let policy = StoragePolicy(interval: .seconds(2), warnBelow: 1_000, stopBelow: 100)

    func testEncoderDropsAreReportedAsTheirIncreaseOnly() {
        var check = HealthCheck(policy: policy)
        let rounds: [(dropped: Int, expected: Int?)] = [(0, nil), (5, 5), (5, nil), (12, 7)]
        for (dropped, expected) in rounds {
            let actions = check.check(droppedFrames: dropped, freeBytes: nil, finishingBytes: 0)
            XCTAssertEqual(actions, expected.map {
                [.notify(.framesDropped(count: $0, interval: .seconds(2)))]
            } ?? [], "after \(dropped)")
        }
    }

    func testTheDiskIsWarnedAboutOnceThenTheClipIsStoppedWhileThereIsRoomToFinishIt() {
        var check = HealthCheck(policy: policy)
        // Free bytes minus what finishing needs: 5000 spare, 900 (warn), 800 (quiet), 50 (stop).
        let rounds: [(free: Int64, reserve: Int64, warns: Bool, stops: Bool)] = [
            (6_000, 1_000, false, false), (1_900, 1_000, true, false), (1_800, 1_000, false, false),
            (1_050, 1_000, false, true),
        ]
        for (free, reserve, warns, stops) in rounds {
            let actions = check.check(droppedFrames: 0, freeBytes: free, finishingBytes: reserve)
            XCTAssertEqual(actions.contains { if case .warnClip(let m) = $0 { m.text.contains("almost full") } else { false } },
                           warns, "\(free)")
            XCTAssertEqual(actions.contains(.stop(reason: "the disk is nearly full")), stops, "\(free)")
        }
    }

    func testADeletedPartialStopsTheClipAtOnceWithItsReason() {
        var check = HealthCheck(policy: policy)
        XCTAssertEqual(check.check(droppedFrames: 0, freeBytes: 5_000, finishingBytes: 10, partialPath: "/v/a.mov.partial"), [])
        let actions = check.check(droppedFrames: 3, freeBytes: nil, finishingBytes: 0, partialDeleted: true,
                                  partialPath: "/v/a.mov.partial")
        XCTAssertEqual(actions, [
            .warnClip(.movieFileDeleted(partialPath: "/v/a.mov.partial")),
            .stop(reason: "the movie's file was deleted while recording"),
        ])
        XCTAssertEqual(EngineEvent.movieFileDeleted(partialPath: "/v/a.mov.partial").text,
                       "the movie's file /v/a.mov.partial was deleted while recording (by hand, or with its folder): "
                       + "nothing of this clip can be saved; stopping it")
    }

    func testASuspensionIsALateTickAndItsCatchUpDropsAreNotTheEncoders() {
        var detector = SuspensionDetector()
        let ms = MediaTime.milliseconds
        // (tick time, reported gap): on time, a little late, and 3 s late.
        let ticks: [(MediaTime, MediaTime?)] = [(ms(0), nil), (ms(100), nil), (ms(1_600), nil), (ms(4_700), ms(3_000))]
        for (now, gap) in ticks {
            XCTAssertEqual(detector.tick(at: now, interval: ms(100)), gap, "\(now)")
        }
        XCTAssertEqual(EngineEvent.suspended(duration: ms(10_660)).text,
                       "PauseCam was suspended for 10.7 s: the picture was held")

        var check = HealthCheck(policy: policy)
        let interval = policy.interval
        XCTAssertEqual(check.check(droppedFrames: 0, freeBytes: nil, finishingBytes: 0, now: .seconds(100)), [])
        // The video hold noticed a suspension: this round's drops and the next's are the catch-up.
        XCTAssertEqual(check.check(droppedFrames: 300, freeBytes: nil, finishingBytes: 0, suspensions: 1,
                                   now: .seconds(100) + interval), [])
        XCTAssertEqual(check.excusedDrops(atEnd: 345, suspensions: 1), 345, "the window is still open")
        XCTAssertEqual(check.check(droppedFrames: 345, freeBytes: nil, finishingBytes: 0, suspensions: 1,
                                   now: .seconds(100) + interval + interval), [])
        // After that, drops are the encoder's again.
        XCTAssertEqual(check.check(droppedFrames: 350, freeBytes: nil, finishingBytes: 0, suspensions: 1,
                                   now: .seconds(100) + interval + interval + interval),
                       [.notify(.framesDropped(count: 5, interval: interval))])
        XCTAssertEqual(check.excusedDrops, 345)
        XCTAssertEqual(check.excusedDrops(atEnd: 360, suspensions: 1), 345)
        // A round that itself comes 10 s late is a suspension too, whichever timer runs first after it.
        XCTAssertEqual(check.check(droppedFrames: 400, freeBytes: nil, finishingBytes: 0, suspensions: 1,
                                   now: .seconds(113) + interval + interval + interval), [])
        XCTAssertEqual(check.excusedDrops, 395)
    }
}
