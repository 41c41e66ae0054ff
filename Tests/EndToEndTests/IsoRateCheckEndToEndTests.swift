import Foundation
import XCTest

/// An ISO keeps the movie's cuts exactly, so a lens whose rate is not a whole multiple of the movie's cannot keep
/// every frame the same length there: `check` (and every command that reads the rig) says so, at `output.iso`.
final class IsoRateCheckEndToEndTests: XCTestCase {
    func testCheckWarnsForAnIsoLensWhoseRateIsNotAMultipleOfTheMovies() throws {
        let directory = try ProcessRunner.temporaryDirectory("iso-rate")
        let rig = """
        name: Iso rates
        output: {size: 320x180, fps: 30, iso: [wide, main, tele]}
        lenses:
          wide: {zoom: 0.5, virtual: {color: "#20c040"}, fps: 25}
          main: {zoom: 1, virtual: {color: "#c03020"}, fps: 60}
          tele: {zoom: 3, virtual: {color: "#3050e0"}}
          side: {zoom: 2, virtual: {color: "#a0a0a0"}, fps: 24}
        """
        let path = directory.appendingPathComponent("iso-rates.yaml").path
        try rig.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", path])
        let output = result.stdoutText + result.stderr
        XCTAssertEqual(result.status, 0, "a warning, not an error: \(output)")
        let warnings = output.split(separator: "\n").filter { $0.contains("not a multiple of the movie's") }
        XCTAssertEqual(warnings.count, 1, output)
        XCTAssertTrue(warnings.first?.contains("lens wide records its ISO at 25 fps, not a multiple of the movie's 30 fps")
                      ?? false, output)
        XCTAssertTrue(warnings.first?.contains("iso-rates.yaml:2:") ?? false, "the place of output.iso: \(output)")
        XCTAssertFalse(output.contains("lens side records its ISO"), "side has no ISO: \(output)")
    }
}
