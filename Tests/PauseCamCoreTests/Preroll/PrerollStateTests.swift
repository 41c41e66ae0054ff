import XCTest
@testable import PauseCamCore

/// A scene catching up on its preroll: the backlog goes out a few frames at a time with the sound between them,
/// and what arrives meanwhile waits behind it, so the recorder gets every sample in the order it came.
final class PrerollStateTests: XCTestCase {
    func testTheBacklogGoesOutInOrderAFewFramesAtATime() {
        var state = PrerollState(Rig.Preroll(length: .seconds(3)))
        XCTAssertFalse(state.isCatchingUp)
        var samples: [PrerollRing.Sample] = []
        for index in Int64(0)..<5 {
            samples.append(.video(PrerollRingTests.frame(at: index), program: nil, iso: true))
            samples.append(.audio(PrerollRingTests.chunk(at: index * 1_600, frames: 1_600)))
        }
        state.beginCatchUp(samples)
        XCTAssertTrue(state.isCatchingUp)
        state.queue(.video(PrerollRingTests.frame(at: 5), program: nil, iso: true))
        var handed: [MediaTime] = []
        var rounds = 0
        while state.isCatchingUp {
            let next = state.next(frames: 2)
            XCTAssertLessThanOrEqual(next.filter { if case .video = $0 { true } else { false } }.count, 2)
            handed += next.map(\.pts)
            rounds += 1
        }
        XCTAssertEqual(rounds, 3)
        XCTAssertEqual(handed.count, 11)
        XCTAssertEqual(handed, handed.sorted(), "out of order: \(handed)")
        XCTAssertTrue(state.next(frames: nil).isEmpty)
    }

    func testTheClipsOwnLengthOverridesTheRigsForItsScenes() {
        var state = PrerollState(Rig.Preroll(length: .seconds(3)))
        XCTAssertEqual(state.length, .seconds(3))
        state.clipLength = .seconds(1)
        XCTAssertEqual(state.length, .seconds(1))
    }
}
