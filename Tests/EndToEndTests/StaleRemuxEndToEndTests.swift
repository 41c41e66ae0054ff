import Foundation
import PauseCamCore
import XCTest

/// A `NAME.mov.remux` left by a crash while a clip was being finished: with a fixed `output.name`, the next clip
/// takes `NAME-2` (every file a clip creates counts as taken) and finishes, and the leftover stays as it was. Before,
/// the new clip recorded to `NAME.mov.partial` and then failed to finish ("File exists").
final class StaleRemuxEndToEndTests: XCTestCase {
    func testAStaleRemuxSendsTheNewClipToTheNextNameAndIsLeftAlone() throws {
        let directory = try ProcessRunner.temporaryDirectory("stale-remux")
        let stale = directory.appendingPathComponent("e2e-rig.mov.remux")
        let bytes = Data("half a movie, from a crash while finishing".utf8)
        try bytes.write(to: stale)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "run", ProcessRunner.rig("e2e.yaml"), "--script", "short", "--clock", "simulated",
            "--output", directory.path,
        ])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stdoutText.contains("recording scene 1 to \(directory.path)/e2e-rig-2.mov"),
                      result.stdoutText)
        XCTAssertEqual(try Data(contentsOf: stale), bytes, "the leftover is neither overwritten nor removed")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertEqual(names, ["e2e-rig-2.jpg", "e2e-rig-2.json", "e2e-rig-2.mov", "e2e-rig.mov.remux"])
        let sidecar = try Sidecar.decode(Data(contentsOf: directory.appendingPathComponent("e2e-rig-2.json")))
        XCTAssertTrue(sidecar.complete)
        XCTAssertEqual(sidecar.movie, "e2e-rig-2.mov")
        XCTAssertGreaterThan(try MediaProbe(path: directory.appendingPathComponent("e2e-rig-2.mov").path)
            .videoFrames().count, 10)
    }
}
