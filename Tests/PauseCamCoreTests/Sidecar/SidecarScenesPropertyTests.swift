import Foundation
import XCTest
@testable import PauseCamCore

/// Seeded random sessions of toggles, chapters, marks and lens switches, many of them at the same instant (empty
/// scenes): the sidecar written piece by piece (`Recorder.sidecarDocument`, which keeps settled scenes encoded) is
/// always byte for byte the whole sidecar encoded at once, and the finished clip's scenes are its chapters — none
/// empty, in order, each marker inside its scene, each pause after one of them.
final class SidecarScenesPropertyTests: XCTestCase {
    func testTheSidecarWrittenPieceByPieceIsTheWholeOneAndItsScenesAreTheChapters() throws {
        var settled = 0
        for seed in UInt64(1)...16 {
            settled += try check(seed: seed)
        }
        XCTAssertGreaterThan(settled, 16 * 3, "scenes were settled and kept encoded, not encoded again every time")
    }

    func testMovieScenesMergeEmptyScenesIntoTheSceneBeforeAndLeadingOnesIntoTheFirst() {
        func scene(_ index: Int, _ frames: Bool) -> Session.Scene {
            let start = MediaTime.seconds(Int64(index))
            return Session.Scene(index: index, name: nil, commandTime: start, start: frames ? start : nil,
                                 end: frames ? start + .seconds(1) : nil)
        }
        let scenes = [scene(1, false), scene(2, true), scene(3, false), scene(4, false), scene(5, true), scene(6, false)]
        let groups = MovieScenes.groups(of: scenes)
        XCTAssertEqual(groups, [MovieScenes.Group(kept: 1, members: 0..<4), MovieScenes.Group(kept: 4, members: 4..<6)])
        XCTAssertEqual(MovieScenes.groups(of: scenes, from: 4), [MovieScenes.Group(kept: 4, members: 4..<6)])
        XCTAssertEqual(MovieScenes.groups(of: [scene(1, false)]), [])
        let pause = { (after: Int, began: Int64, ended: Int64?) in
            Session.Pause(afterScene: after, at: .zero, began: .seconds(began), ended: ended.map { .seconds($0) })
        }
        // A pause before the first frame cuts nothing; pauses with no frame between them are one cut.
        let cuts = MovieScenes.cuts(of: [pause(1, 10, 11), pause(2, 12, 13), pause(3, 14, 15), pause(5, 16, nil)][...],
                                    scenes: scenes, groups: groups, leading: true)
        XCTAssertEqual(cuts, [
            MovieScenes.Cut(afterScene: 2, at: .seconds(3), began: .seconds(12), ended: .seconds(15)),
            MovieScenes.Cut(afterScene: 5, at: .seconds(6), began: .seconds(16), ended: nil),
        ])
    }

    /// Runs one seed; returns how many scenes the recorder had settled by the end.
    private func check(seed: UInt64) throws -> Int {
        var random = SeededGenerator(seed: seed)
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        let runner = fixture.runner
        XCTAssertTrue(runner.perform(.record(name: "First")).ok)
        for step in 0..<50 {
            let command: Command
            switch random.next() % 10 {
            case 0, 1, 2: command = .toggle
            case 3, 4: command = .chapter(name: random.next() % 2 == 0 ? nil : "Chapter \(step)")
            case 5: command = .mark("mark \(step)")
            case 6: command = .lens(.next)
            default: command = .wait(MediaTime(value: Int64(random.next() % 700), timescale: 1000))
            }
            _ = runner.perform(command)
            let recorder = try XCTUnwrap(fixture.controller.clips.recorder, "seed \(seed) step \(step)")
            guard recorder.hasVideo else { continue }
            let whole = try recorder.makeSidecar(complete: false).encoded()
            let pieces = try recorder.sidecarDocument()
            XCTAssertEqual(String(decoding: pieces, as: UTF8.self), String(decoding: whole, as: UTF8.self),
                           "seed \(seed) step \(step) (\(command))")
            if pieces != whole { return 0 }
        }
        let settled = fixture.controller.clips.recorder?.settledScenes ?? 0
        _ = runner.perform(.stop)
        let clip = try XCTUnwrap(runner.finishClip(), "seed \(seed)")
        let chapters = try XCTUnwrap(fixture.factory.sinks.last).chapters
        let scenes = clip.sidecar.scenes
        XCTAssertEqual(scenes.map(\.title), chapters.map(\.title), "seed \(seed)")
        XCTAssertEqual(scenes.map(\.start), chapters.map(\.start.seconds), "seed \(seed)")
        for (scene, chapter) in zip(scenes, chapters) {
            XCTAssertEqual(scene.start + scene.duration, chapter.end.seconds, accuracy: 1e-9, "seed \(seed)")
        }
        XCTAssertEqual(scenes.map(\.index), scenes.map(\.index).sorted(), "seed \(seed)")
        for (scene, next) in zip(scenes, scenes.dropFirst()) {
            XCTAssertEqual(next.start, scene.start + scene.duration, accuracy: 1e-9, "seed \(seed): edge to edge")
        }
        for scene in scenes {
            XCTAssertGreaterThan(scene.duration, 0, "seed \(seed) scene \(scene.index)")
            for marker in scene.markers {
                XCTAssertTrue(marker.time >= scene.start && marker.time <= scene.start + scene.duration + 1e-9,
                              "seed \(seed): marker \(marker) outside scene \(scene.index)")
            }
        }
        let indices = scenes.map(\.index)
        for pause in clip.sidecar.pauses {
            XCTAssertTrue(indices.contains(pause.afterScene), "seed \(seed): \(pause) after no scene")
        }
        XCTAssertEqual(Set(clip.sidecar.pauses.map(\.afterScene)).count, clip.sidecar.pauses.count, "seed \(seed)")
        return settled
    }
}
