import Foundation
import PauseCamCore
import XCTest

/// A lens that replays a movie file (`file: PATH`), through the built binary on the simulated clock. The footage is
/// an MJPEG movie made here with the `ffmpeg` command line (Debian package `ffmpeg`): one second of red, then one
/// second of blue, at 15 fps, so the decoded movie shows whether its pictures come from the file, and when.
final class FileLensEndToEndTests: XCTestCase {
    static let red = (0xd0, 0x30, 0x30)
    static let blue = (0x30, 0x50, 0xe0)

    /// A folder with `footage/two.mov` in it; the rig written there names it by a relative path.
    static func folderWithFootage() throws -> URL {
        try folder("file-lens", movie: "two.mov", colors: ["0xd03030", "0x3050e0"])
    }

    /// A new folder holding `footage/MOVIE`: MJPEG at 320x240 and 15 fps, one second of each colour in turn.
    static func folder(_ name: String, movie: String, colors: [String]) throws -> URL {
        let folder = try ProcessRunner.temporaryDirectory(name)
        let footage = folder.appendingPathComponent("footage")
        try FileManager.default.createDirectory(at: footage, withIntermediateDirectories: true)
        let inputs = colors.indices.map { "[\($0):v]" }.joined()
        let result = try ProcessRunner.run("/usr/bin/ffmpeg", ["-v", "error"]
            + colors.flatMap { ["-f", "lavfi", "-i", "color=c=\($0):s=320x240:r=15:d=1"] } + [
            "-filter_complex", "\(inputs)concat=n=\(colors.count):v=1", "-c:v", "mjpeg", "-q:v", "2",
            footage.appendingPathComponent(movie).path,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        return folder
    }

    /// Writes a rig whose only lens replays `file` (as written in the rig) and runs a script that records for
    /// `seconds`; returns the run and the output folder.
    static func record(in folder: URL, file: String, loop: Bool?, seconds: Double) throws -> (ProcessResult, URL) {
        let rig = """
        name: Rehearsal
        output: {name: "{rig}", size: 320x240, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}}
        audio: {device: virtual}
        lenses:
          main: {zoom: 1, file: \(file)\(loop.map { ", loop: \($0)" } ?? "")}
        scripts:
          take:
            - record: Take
            - wait: \(seconds)s
            - stop
        """
        return try run(rig, in: folder)
    }

    /// Writes `rig` as `rehearsal.yaml` in `folder` and runs its script `take` on the simulated clock, from another
    /// folder than the rig's (a relative `file:` must be found from the rig file's folder); returns the run and the
    /// output folder.
    static func run(_ rig: String, in folder: URL) throws -> (ProcessResult, URL) {
        let rigPath = folder.appendingPathComponent("rehearsal.yaml")
        try rig.write(to: rigPath, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["run", rigPath.path, "--script", "take",
                                                                          "--clock", "simulated", "--output", out.path])
        return (result, out)
    }

    static func isNear(_ got: (Int, Int, Int), _ want: (Int, Int, Int)) -> Bool {
        abs(got.0 - want.0) <= 30 && abs(got.1 - want.1) <= 30 && abs(got.2 - want.2) <= 30
    }

    /// The frame times and mean colours of the movie in `out`, after checking it is constant-rate at 30 fps and
    /// lasts `seconds` (the sidecar agreeing).
    func checkedMovie(_ out: URL, seconds: Double) throws -> (times: [Double], colors: [(Int, Int, Int)], sidecar: Sidecar) {
        let probe = MediaProbe(path: out.appendingPathComponent("rehearsal.mov").path)
        try probe.assertConstantRate(30)
        XCTAssertEqual(try probe.decodeErrors(), "")
        let frames = try probe.videoFrames()
        XCTAssertEqual(Double(frames.count) / 30, seconds, accuracy: 1.0 / 30 + 1e-9)
        let sidecar = try Sidecar.decode(Data(contentsOf: out.appendingPathComponent("rehearsal.json")))
        XCTAssertEqual(sidecar.duration, seconds, accuracy: 1.0 / 30 + 1e-9)
        let colors = try probe.regionColors(x: 100, y: 80, width: 40, height: 40)
        XCTAssertEqual(colors.count, frames.count)
        return (frames.map(\.time), colors, sidecar)
    }

    /// The frames between `from` and `to` seconds that do not show `color`.
    static func mismatches(_ movie: (times: [Double], colors: [(Int, Int, Int)], sidecar: Sidecar), from: Double,
                           to: Double, _ color: (Int, Int, Int)) -> [String] {
        zip(movie.times, movie.colors).filter { $0.0 >= from && $0.0 < to && !isNear($0.1, color) }
            .map { "\($0.0): \($0.1)" }
    }

    func testAnMJPEGFileLensMakesAConstantRateMovieOfTheFilesPictures() throws {
        let folder = try Self.folderWithFootage()
        let (result, out) = try Self.record(in: folder, file: "footage/two.mov", loop: nil, seconds: 1.8)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let movie = try checkedMovie(out, seconds: 1.8)
        XCTAssertEqual(Self.mismatches(movie, from: 0, to: 0.9, Self.red), [], "the file's first second")
        XCTAssertEqual(Self.mismatches(movie, from: 1.1, to: 1.8, Self.blue), [], "the file's second second")
        XCTAssertEqual(movie.sidecar.scenes.flatMap(\.lenses).map(\.lens), ["main"])
    }

    func testALoopingFileLensPlaysOnPastTheEndOfTheFile() throws {
        let folder = try Self.folderWithFootage()
        let (result, out) = try Self.record(in: folder, file: "footage/two.mov", loop: true, seconds: 3.6)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertFalse(result.stderr.contains("end of file"), result.stderr)
        let movie = try checkedMovie(out, seconds: 3.6)
        XCTAssertEqual(Self.mismatches(movie, from: 1.1, to: 1.9, Self.blue), [])
        XCTAssertEqual(Self.mismatches(movie, from: 2.1, to: 2.9, Self.red), [], "the file again from its start")
        XCTAssertEqual(Self.mismatches(movie, from: 3.1, to: 3.6, Self.blue), [])
        XCTAssertEqual(movie.sidecar.warnings, [])
    }

    func testWithoutLoopTheLensEndsAtTheEndOfTheFileLikeAnUnplug() throws {
        let folder = try Self.folderWithFootage()
        let (result, out) = try Self.record(in: folder, file: "footage/two.mov", loop: false, seconds: 3)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stderr.contains("lens main lost its camera: end of file"), result.stderr)
        // What the movie gets is said as it is: the held picture, then the slate, with sound — not "audio only".
        let told = result.stdoutText + result.stderr
        XCTAssertTrue(told.contains("no lens has a camera: the movie holds the last picture, then shows the "
                                    + "no-camera slate, with sound"), told)
        XCTAssertFalse(told.contains("audio only"), told)
        let movie = try checkedMovie(out, seconds: 3)
        XCTAssertEqual(Self.mismatches(movie, from: 0, to: 0.9, Self.red), [])
        // The last picture is held (no hole, no loop back to red) while the audio goes on.
        XCTAssertEqual(Self.mismatches(movie, from: 1.1, to: 3, Self.blue), [], "the held last picture")
        XCTAssertTrue(movie.sidecar.warnings.contains { $0.contains("end of file") }, "\(movie.sidecar.warnings)")
    }

    /// A missing movie is a rig error, found by `check` and by `run` alike before anything is recorded: exit 2
    /// (as for every rig error) with the rig file's line and column.
    func testAMissingFileIsARigErrorForCheckAndRunWithItsPosition() throws {
        let folder = try Self.folderWithFootage()
        let (result, out) = try Self.record(in: folder, file: "footage/missing.mov", loop: nil, seconds: 1)
        XCTAssertEqual(result.status, 2, result.stdoutText + result.stderr)
        let rigPath = folder.appendingPathComponent("rehearsal.yaml").path
        let resolved = folder.appendingPathComponent("footage/missing.mov").path
        // `  main: {zoom: 1, file: footage/missing.mov}` is line 5; the path starts at column 25.
        let expected = "\(rigPath):5:25: lenses.main.file: \(resolved) does not exist"
        XCTAssertTrue(result.stderr.contains(expected), result.stderr)
        let written = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        XCTAssertFalse(written.contains { $0.hasSuffix(".mov") }, "\(written)")

        let check = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", rigPath])
        XCTAssertEqual(check.status, 2, check.stdoutText + check.stderr)
        XCTAssertTrue(check.stderr.contains(expected), check.stderr)
        XCTAssertFalse(check.stdoutText.contains("is valid"), check.stdoutText)
    }

    static let green = (0x30, 0xc0, 0x40)
    static let yellow = (0xe0, 0xe0, 0x40)

    /// A folder with `footage/four.mov`: four seconds at 15 fps, one colour a second (red, green, blue, yellow).
    static func folderWithFourSeconds() throws -> URL {
        try folder("file-lens-pace", movie: "four.mov", colors: ["0xd03030", "0x30c040", "0x3050e0", "0xe0e040"])
    }

    /// Records `seconds` with a virtual lens first and a cold `file:` lens switched to at `switchAt` seconds.
    static func recordColdSwitch(in folder: URL, loop: Bool, switchAt: Double, seconds: Double) throws -> (ProcessResult, URL) {
        let rig = """
        name: Rehearsal
        output: {name: "{rig}", size: 320x240, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}}
        audio: {device: virtual}
        standby: cold
        lenses:
          main: {zoom: 1, virtual: {color: "#808080"}}
          film: {zoom: 2, file: footage/four.mov, loop: \(loop)}
        default_lens: main
        scripts:
          take:
            - record: Take
            - wait: \(switchAt)s
            - lens: film
            - wait: \(seconds - switchAt)s
            - stop
        """
        return try run(rig, in: folder)
    }

    func testAColdFileLensStartsWhereTheSessionClockHasGotTo() throws {
        let folder = try Self.folderWithFourSeconds()
        let (result, out) = try Self.recordColdSwitch(in: folder, loop: false, switchAt: 2.5, seconds: 4)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let movie = try checkedMovie(out, seconds: 4)
        // Switched to at 2.5 s, the file shows its third second (blue), then its fourth (yellow): not its first.
        XCTAssertEqual(Self.mismatches(movie, from: 2.65, to: 2.95, Self.blue), [], "the file at 2.6 s, not at 0 s")
        XCTAssertEqual(Self.mismatches(movie, from: 3.1, to: 4, Self.yellow), [], "the file's fourth second")
    }

    func testALoopingColdFileLensStartsAtTheSessionTimeModuloItsLength() throws {
        let folder = try Self.folderWithFourSeconds()
        let (result, out) = try Self.recordColdSwitch(in: folder, loop: true, switchAt: 5.5, seconds: 6.5)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let movie = try checkedMovie(out, seconds: 6.5)
        // 5.5 s into the session is 1.5 s into the second pass of a 4 s file: green, then blue.
        XCTAssertEqual(Self.mismatches(movie, from: 5.65, to: 5.95, Self.green), [], "the file at 1.6 s of its loop")
        XCTAssertEqual(Self.mismatches(movie, from: 6.1, to: 6.5, Self.blue), [], "the file at 2.1 s of its loop")
    }
}
