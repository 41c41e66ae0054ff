import XCTest
@testable import PauseCamCore

/// The group benchmark's pure part: scene-edge skew and late commands from the members' sidecars.
final class GroupSidecarComparisonTests: XCTestCase {
    /// A member's sidecar at `fps` whose scenes run between the given frames (start, end), with its group commands.
    private func sidecar(_ host: String, fps: Double = 30, frames: [(Int, Int)],
                         commands: [Sidecar.Group.Command] = []) -> Sidecar {
        let scenes = frames.enumerated().map { index, edge in
            Sidecar.Scene(index: index + 1, name: nil, title: "Scene \(index + 1)", start: Double(edge.0) / fps,
                          duration: Double(edge.1 - edge.0) / fps, lenses: [], markers: [])
        }
        return Sidecar(rig: "group-\(host)", movie: "\(host).mov", complete: true, started: "2026-12-01T05:00:00Z",
                       stopped: nil, duration: Double(frames.last?.1 ?? 0) / fps,
                       video: .init(codec: "h264", width: 320, height: 180, fps: fps,
                                    framesWritten: frames.last?.1 ?? 0, framesDropped: 0, lateFramesDropped: 0),
                       audio: nil, scenes: scenes, pauses: [],
                       group: .init(name: "studio", host: host, epochNs: 0, lead: 0.25, membersSeen: [],
                                    commands: commands, dropped: nil),
                       devices: [], warnings: [])
    }

    private func command(_ line: String, at: Int64, arrived: Int64, late: Bool = false) -> Sidecar.Group.Command {
        .init(from: "ctl-1", seq: 1, command: line, atNs: at, slot: 0, arrivedNs: arrived,
              outcome: late ? "late" : "on_time", lateBy: late ? Double(arrived - at) / 1e9 : 0)
    }

    func testEqualScenesHaveNoSkew() throws {
        // A pause between scenes 1 and 2, a chapter between 2 and 3: movie time runs on across both.
        let frames = [(0, 31), (31, 77), (77, 120)]
        let comparison = try GroupSidecarComparison(sidecars: ["a", "b", "c"].map { sidecar($0, frames: frames) })
        XCTAssertEqual(comparison.edges.count, 6)
        XCTAssertEqual(comparison.maximumSkewFrames, 0)
        XCTAssertEqual(comparison.lateCommands, 0)
    }

    /// Each row: the three members' scene frames, and the spread per edge (start, end of each scene) in frames.
    func testSpreadPerEdgeTable() throws {
        struct Row {
            var members: [[(Int, Int)]]
            var spreads: [Double]
            var note: String
        }
        let rows = [
            Row(members: [[(0, 30), (30, 60)], [(0, 31), (31, 61)], [(0, 30), (30, 60)]],
                spreads: [0, 1, 1, 1], note: "one member paused a frame late: every later edge moves"),
            Row(members: [[(0, 30), (30, 60)], [(0, 30), (30, 62)], [(0, 29), (29, 60)]],
                spreads: [0, 1, 1, 2], note: "one ends early in scene 1, another stops two frames late"),
            Row(members: [[(0, 90)], [(0, 90)], [(0, 87)]],
                spreads: [0, 3], note: "one member's stop three frames early"),
        ]
        for row in rows {
            let sidecars = row.members.enumerated().map { sidecar("m\($0.offset)", frames: $0.element) }
            let comparison = try GroupSidecarComparison(sidecars: sidecars)
            XCTAssertEqual(comparison.edges.map(\.spreadFrames), row.spreads, row.note)
            XCTAssertEqual(comparison.maximumSkewFrames, row.spreads.max(), row.note)
            XCTAssertEqual(comparison.edges.map(\.isEnd), Array(repeating: [false, true], count: row.spreads.count / 2)
                .flatMap { $0 }, row.note)
        }
    }

    /// 29.97 fps: a frame is 1001/30000 s, and a whole-frame spread still reads as whole frames.
    func testFractionalRateCountsWholeFrames() throws {
        let fps = 30000.0 / 1001
        let comparison = try GroupSidecarComparison(sidecars: [
            sidecar("a", fps: fps, frames: [(0, 17982)]), sidecar("b", fps: fps, frames: [(0, 17985)]),
        ])
        XCTAssertEqual(comparison.edges.map(\.spreadFrames), [0, 3])
    }

    func testLateCommandsAndTheSmallestMarginAreCountedOverEveryMember() throws {
        let frames = [(0, 30)]
        let a = sidecar("a", frames: frames, commands: [command("record", at: 1_000, arrived: 900),
                                                        command("stop", at: 5_000, arrived: 4_700)])
        let b = sidecar("b", frames: frames, commands: [command("record", at: 1_000, arrived: 960),
                                                        command("stop", at: 5_000, arrived: 5_200, late: true)])
        let comparison = try GroupSidecarComparison(sidecars: [a, b])
        XCTAssertEqual(comparison.commands, 4)
        XCTAssertEqual(comparison.lateCommands, 1)
        XCTAssertEqual(comparison.smallestMarginNanoseconds, 40, "b's record came 40 ns before its time")
        XCTAssertEqual(try XCTUnwrap(comparison.largestLateBy), 200e-9, accuracy: 1e-12)

        let allLate = try GroupSidecarComparison(sidecars: [
            sidecar("a", frames: frames, commands: [command("record", at: 1_000, arrived: 1_100, late: true)]),
        ])
        XCTAssertEqual(allLate.lateCommands, 1)
        XCTAssertNil(allLate.smallestMarginNanoseconds)
        XCTAssertNil(try GroupSidecarComparison(sidecars: [sidecar("a", frames: frames)]).largestLateBy)
    }

    func testMembersThatDisagreeOnScenesOrRateCannotBeCompared() {
        XCTAssertThrowsError(try GroupSidecarComparison(sidecars: [sidecar("a", frames: [(0, 30), (30, 60)]),
                                                                   sidecar("b", frames: [(0, 60)])])) { error in
            XCTAssertEqual(error as? GroupSidecarComparison.Mismatch, .sceneCounts(["a": 2, "b": 1]))
            XCTAssertTrue("\(error)".contains("a 2, b 1"), "\(error)")
        }
        XCTAssertThrowsError(try GroupSidecarComparison(sidecars: [sidecar("a", frames: [(0, 30)]),
                                                                   sidecar("b", fps: 25, frames: [(0, 25)])])) { error in
            XCTAssertEqual(error as? GroupSidecarComparison.Mismatch, .rates(["a": 30, "b": 25]))
        }
        XCTAssertThrowsError(try GroupSidecarComparison(sidecars: [])) { error in
            XCTAssertEqual(error as? GroupSidecarComparison.Mismatch, .noMembers)
        }
    }
}
