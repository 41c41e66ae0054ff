import Foundation
import XCTest

/// `rotate:` and `mirror:` of a lens, through the built binary on the simulated clock. The footage (made here with
/// the `ffmpeg` command line) is 320x180 with a red left half and a blue right half, so where the halves land in
/// the recorded movie (decoded by the real ffmpeg) shows how the picture was turned and fitted.
final class LensOrientationEndToEndTests: XCTestCase {
    static let red = (0xd0, 0x30, 0x30)
    static let blue = (0x30, 0x50, 0xe0)
    static let black = (0, 0, 0)

    /// A new folder with `footage/halves.mov`: one second at 15 fps of the two halves, as MJPEG in 4:2:2 (what
    /// webcams send; decoded when drawn) or as H.264 in 4:2:0 (decoded by the file lens).
    static func folderWithHalves(_ name: String, mjpeg: Bool) throws -> URL {
        let folder = try ProcessRunner.temporaryDirectory(name)
        let footage = folder.appendingPathComponent("footage")
        try FileManager.default.createDirectory(at: footage, withIntermediateDirectories: true)
        let codec = mjpeg ? ["-c:v", "mjpeg", "-q:v", "2", "-pix_fmt", "yuvj422p"]
                          : ["-c:v", "libx264", "-preset", "ultrafast", "-qp", "10", "-pix_fmt", "yuv420p"]
        let result = try ProcessRunner.run("/usr/bin/ffmpeg", [
            "-v", "error", "-f", "lavfi",
            "-i", "color=c=0xd03030:s=320x180:r=15:d=1,drawbox=x=160:y=0:w=160:h=180:color=0x3050e0:t=fill",
        ] + codec + [footage.appendingPathComponent("halves.mov").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        return folder
    }

    /// Records one second of the halves through a lens with `orientation` (its rig lines) on a canvas of `size`;
    /// returns the movie's probe after checking the run succeeded.
    func record(_ name: String, mjpeg: Bool, orientation: String, size: String) throws -> MediaProbe {
        let folder = try Self.folderWithHalves(name, mjpeg: mjpeg)
        let rig = """
        name: Rehearsal
        output: {name: "{rig}", size: \(size), fps: 30, video: {codec: h264, preset: ultrafast, crf: 18}}
        audio: {device: none}
        lenses:
          main: {zoom: 1, file: footage/halves.mov, loop: true, \(orientation)}
        scripts:
          take:
            - record: Take
            - wait: 1s
            - stop
        """
        let (result, out) = try FileLensEndToEndTests.run(rig, in: folder)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        return MediaProbe(path: out.appendingPathComponent("rehearsal.mov").path)
    }

    /// Asserts that every frame's mean colour in the rectangle is near `want`.
    func assertRegion(_ probe: MediaProbe, x: Int, y: Int, width: Int, height: Int, is want: (Int, Int, Int),
                      _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let colors = try probe.regionColors(x: x, y: y, width: width, height: height)
        XCTAssertGreaterThan(colors.count, 20, what, file: file, line: line)
        for (index, color) in colors.enumerated() where !FileLensEndToEndTests.isNear(color, want) {
            return XCTFail("\(what): frame \(index) is \(color), expected about \(want)", file: file, line: line)
        }
    }

    /// A quarter turn clockwise into a portrait canvas: the 320x180 picture becomes 180x320 and fills it exactly,
    /// the left (red) half on top, the right (blue) half below.
    func testQuarterTurnFillsAPortraitCanvasLeftHalfOnTop() throws {
        let probe = try record("orient-portrait", mjpeg: true, orientation: "rotate: 90", size: "180x320")
        let video = try XCTUnwrap(try probe.streams().first { $0.codecType == "video" })
        XCTAssertEqual(video.width, 180)
        XCTAssertEqual(video.height, 320)
        try assertRegion(probe, x: 10, y: 10, width: 160, height: 130, is: Self.red, "top")
        try assertRegion(probe, x: 10, y: 180, width: 160, height: 130, is: Self.blue, "bottom")
    }

    /// A mirror flips left and right: blue on the left, red on the right (a 4:2:0 H.264 file this time).
    func testMirrorSwapsTheHalves() throws {
        let probe = try record("orient-mirror", mjpeg: false, orientation: "mirror: true", size: "320x180")
        try assertRegion(probe, x: 10, y: 20, width: 130, height: 140, is: Self.blue, "left")
        try assertRegion(probe, x: 180, y: 20, width: 130, height: 140, is: Self.red, "right")
    }

    /// A three-quarter turn in a landscape canvas: a 100x180 column pillarboxed in the middle (black bars either
    /// side), the right (blue) half on top and the left (red) half below.
    func testThreeQuarterTurnIsPillarboxedInALandscapeCanvas() throws {
        let probe = try record("orient-pillar", mjpeg: true, orientation: "rotate: 270", size: "320x180")
        try assertRegion(probe, x: 120, y: 10, width: 80, height: 70, is: Self.blue, "top of the column")
        try assertRegion(probe, x: 120, y: 100, width: 80, height: 70, is: Self.red, "bottom of the column")
        try assertRegion(probe, x: 10, y: 10, width: 90, height: 160, is: Self.black, "left bar")
        try assertRegion(probe, x: 220, y: 10, width: 90, height: 160, is: Self.black, "right bar")
    }

    /// `check` shows the orientation; a rotation that is not a quarter turn is a rig error (exit 2) at its line
    /// and column, naming the allowed values.
    func testCheckShowsTheOrientationAndRejectsOtherAngles() throws {
        let folder = try ProcessRunner.temporaryDirectory("orient-check")
        func check(_ lens: String) throws -> (ProcessResult, String) {
            let path = folder.appendingPathComponent("rig.yaml").path
            try """
            name: T
            lenses:
              main:
                zoom: 1
                virtual: {color: "#102030"}
            \(lens)
            """.write(toFile: path, atomically: true, encoding: .utf8)
            return (try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", path]), path)
        }
        let (good, _) = try check("    rotate: 90\n    mirror: true")
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertTrue(good.stdoutText.contains("main  zoom 1x, virtual #102030, rotated 90°, mirrored"), good.stdoutText)
        let (bad, path) = try check("    rotate: 45")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("\(path):6:13: lenses.main.rotate: \"45\" is not a rotation; "
                                          + "write one of 0, 90, 180, 270 (degrees clockwise)"), bad.stderr)
    }
}
