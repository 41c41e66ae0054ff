import Foundation
import PauseCamCore
import XCTest

/// A clip of many scenes (a pedal pressed a thousand times): every scene, pause and marker lands in the sidecar, in
/// order, and the sidecar's scenes are the movie's chapters. The sidecar is rewritten at every scene change with
/// only its open scenes encoded again; this checks that what it writes is the whole clip (the speed is a benchmark:
/// `PauseCamBench scenes`).
final class ManyScenesEndToEndTests: XCTestCase {
    func testAThousandTogglesAllLandInTheSidecarAndTheChapters() throws {
        let directory = try ProcessRunner.temporaryDirectory("many-scenes")
        var lines = ["record", "wait 100ms"]
        for pair in 1...500 {
            if pair % 50 == 0 { lines.append("mark scene \(pair)") }
            lines += ["toggle", "wait 100ms", "toggle", "wait 100ms"]
        }
        lines.append("stop")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated", "--output", directory.path,
        ], input: lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let sidecar = try Sidecar.decode(Data(contentsOf: directory.appendingPathComponent("e2e-rig.json")))
        XCTAssertTrue(sidecar.complete)
        XCTAssertEqual(sidecar.scenes.map(\.index), Array(1...501))
        XCTAssertEqual(sidecar.pauses.map(\.afterScene), Array(1...500))
        for (scene, next) in zip(sidecar.scenes, sidecar.scenes.dropFirst()) {
            XCTAssertEqual(scene.start + scene.duration, next.start, accuracy: 1e-6, "scene \(scene.index)")
        }
        for (pause, scene) in zip(sidecar.pauses, sidecar.scenes) {
            XCTAssertEqual(pause.at, scene.start + scene.duration, accuracy: 1e-6, "pause after \(scene.index)")
            XCTAssertEqual(pause.wallDuration ?? 0, 0.1, accuracy: 1e-9)
        }
        let marked = sidecar.scenes.filter { !$0.markers.isEmpty }
        XCTAssertEqual(marked.map(\.index), (1...10).map { $0 * 50 })
        XCTAssertEqual(marked.map { $0.markers.map(\.text) }, (1...10).map { ["scene \($0 * 50)"] })
        XCTAssertEqual(sidecar.duration, 50.1, accuracy: 1e-6)
        let chapters = try MediaProbe(path: directory.appendingPathComponent("e2e-rig.mov").path).chapters()
        XCTAssertEqual(chapters.map { $0.title ?? "" }, sidecar.scenes.map(\.title))
        for (chapter, scene) in zip(chapters, sidecar.scenes) {
            XCTAssertEqual(chapter.start, scene.start, accuracy: 0.0015, scene.title)
        }
    }
}
