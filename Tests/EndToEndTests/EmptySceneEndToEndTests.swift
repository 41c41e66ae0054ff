import Foundation
import PauseCamCore
import XCTest

/// Scenes that got no video frame — two `chapter`s at the same instant, a burst of pause/resume toggles, a pedal
/// storm — are merged into the scene before them, the same way in the sidecar and in the movie's chapters: the
/// sidecar lists exactly the movie's chapters, in order, none empty, and every marker sits inside its scene.
final class EmptySceneEndToEndTests: XCTestCase {
    func testSameInstantChaptersAndToggleBurstsLeaveTheSidecarScenesEqualToTheChapters() throws {
        let directory = try ProcessRunner.temporaryDirectory("empty-scenes")
        let burst = Array(repeating: "toggle", count: 56)  // 28 pause/resume pairs, no time between them
        let lines = ["record Start", "wait 1s", "chapter Dropped", "chapter Questions", "mark first", "wait 1s"]
            + burst + ["mark second"] + burst + ["wait 1s", "chapter Tail", "mark last", "stop"]
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated", "--output", directory.path,
        ], input: lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let sidecar = try Sidecar.decode(Data(contentsOf: directory.appendingPathComponent("e2e-rig.json")))
        let chapters = try MediaProbe(path: directory.appendingPathComponent("e2e-rig.mov").path).chapters()
        try assertScenesAreTheChapters(sidecar, chapters)
        // Scenes 4…58 of the bursts and "Tail" (60), stopped at once, got no frame.
        XCTAssertEqual(sidecar.scenes.map(\.title), ["Start", "Questions", "Scene 59"])
        XCTAssertEqual(sidecar.scenes.map(\.markers).map { $0.map(\.text) }, [[], ["first", "second"], ["last"]])
        XCTAssertEqual(sidecar.pauses.map(\.afterScene), [3], "the bursts are one cut, after the scene before them")
        XCTAssertEqual(sidecar.pauses.first?.at ?? -1, 2, accuracy: 1e-9)
        XCTAssertTrue(result.stdoutText.contains("saved \(directory.path)/e2e-rig.mov — 3 scene(s)"), result.stdoutText)
    }

    /// The pedal's signals sent in a burst on the real clock, then SIGTERM: however many toggles got frames between
    /// them, the sidecar and the movie agree.
    func testAPedalSignalStormBeforeSigtermLeavesTheSidecarScenesEqualToTheChapters() throws {
        let directory = try ProcessRunner.temporaryDirectory("pedal-storm")
        let running = try RunningCommand(["run", ProcessRunner.rig("e2e-pedal.yaml"), "--script", "pedal",
                                          "--output", directory.path])
        let pid = running.process.processIdentifier
        // The sidecar is first written with the clip's first frame: from then on the movie has a scene.
        let sidecarPath = directory.appendingPathComponent("e2e-pedal-rig.json").path
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: sidecarPath) && Date() < deadline && running.process.isRunning {
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: sidecarPath), running.stderr)
        for index in 0..<40 {
            kill(pid, SIGUSR1)
            if index % 3 == 0 { kill(pid, SIGUSR2) }
            usleep(1_000)  // lets each signal be taken apart from the next (pending signals of one kind merge)
        }
        kill(pid, SIGTERM)
        XCTAssertNotNil(running.waitForExit(seconds: 90), running.stderr)
        let sidecar = try Sidecar.decode(Data(contentsOf: URL(fileURLWithPath: sidecarPath)))
        XCTAssertTrue(sidecar.complete, running.stderr)
        let chapters = try MediaProbe(path: directory.appendingPathComponent("e2e-pedal-rig.mov").path).chapters()
        try assertScenesAreTheChapters(sidecar, chapters)
    }

    private func assertScenesAreTheChapters(_ sidecar: Sidecar, _ chapters: [MediaProbe.Chapter],
                                            file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(sidecar.scenes.map(\.title), chapters.map { $0.title ?? "" }, file: file, line: line)
        for (scene, chapter) in zip(sidecar.scenes, chapters) {
            XCTAssertEqual(scene.start, chapter.start, accuracy: 0.0015, "\(scene.title) start", file: file, line: line)
            XCTAssertEqual(scene.start + scene.duration, Double(chapter.endTime) ?? -1, accuracy: 0.0015,
                           "\(scene.title) end", file: file, line: line)
        }
        for (scene, next) in zip(sidecar.scenes, sidecar.scenes.dropFirst()) {
            XCTAssertLessThan(scene.index, next.index, file: file, line: line)
            XCTAssertEqual(scene.start + scene.duration, next.start, accuracy: 1e-6, "scenes edge to edge",
                           file: file, line: line)
        }
        let indices = Set(sidecar.scenes.map(\.index))
        for scene in sidecar.scenes {
            XCTAssertGreaterThan(scene.duration, 0, "scene \(scene.index) is empty", file: file, line: line)
            for marker in scene.markers {
                XCTAssertTrue(marker.time >= scene.start - 1e-9 && marker.time <= scene.start + scene.duration + 1e-9,
                              "marker \(marker.text) at \(marker.time) outside scene \(scene.index)", file: file, line: line)
            }
        }
        for pause in sidecar.pauses {
            XCTAssertTrue(indices.contains(pause.afterScene), "pause after scene \(pause.afterScene), which is not listed",
                          file: file, line: line)
        }
    }
}
