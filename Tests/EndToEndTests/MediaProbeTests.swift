import Foundation
import XCTest

/// The probe itself can fail: a variable-rate movie made with the `ffmpeg` command line is told apart from a
/// constant-rate one by MediaInfo's frame rate mode, the check every end-to-end movie now goes through.
final class MediaProbeTests: XCTestCase {
    func testMediaInfoTellsAVariableRateMovieFromAConstantRateOne() throws {
        let folder = try ProcessRunner.temporaryDirectory("probe-rate")
        let constant = folder.appendingPathComponent("cfr.mov").path
        let variable = folder.appendingPathComponent("vfr.mov").path
        let source = ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=30:d=2"]
        var result = try ProcessRunner.run("/usr/bin/ffmpeg", source + ["-c:v", "libx264", "-preset", "ultrafast", constant])
        XCTAssertEqual(result.status, 0, result.stderr)
        // The second second's frames last two frame durations: a 30 fps movie with 33 ms and 67 ms frames.
        result = try ProcessRunner.run("/usr/bin/ffmpeg", source + [
            "-vf", "setpts='if(lt(N,30),N,N*2-30)/30/TB'", "-fps_mode", "passthrough",
            "-c:v", "libx264", "-preset", "ultrafast", variable])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try MediaProbe(path: constant).mediaInfoFrameRateMode(), "CFR")
        XCTAssertEqual(try MediaProbe(path: variable).mediaInfoFrameRateMode(), "VFR")
    }
}
