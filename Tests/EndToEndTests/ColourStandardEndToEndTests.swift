import Foundation
import PauseCamCore
import XCTest

/// Colour standards through the built binary: an HD movie (1280x720) holds BT.709 and says so, an SD one
/// (640x480) BT.601 (SMPTE 170M); each lens's colour decodes back both by the tags and by what an editor assumes
/// without them (BT.709 for HD, BT.601 for SD).
final class ColourStandardEndToEndTests: XCTestCase {
    func testHDMoviesAreBT709AndSDMoviesBT601FromLensToDecodedColour() throws {
        for (width, height, standard, assumed) in [(1280, 720, "bt709", "bt709"), (640, 480, "smpte170m", "bt601")] {
            let directory = try ProcessRunner.temporaryDirectory("colour-\(height)")
            let rig = """
            name: Colour rig
            output: {name: "{rig}", size: \(width)x\(height), fps: 30, video: {codec: h264, preset: ultrafast, crf: 18}}
            audio: {device: virtual}
            lenses:
              main: {zoom: 1, virtual: {color: "#20c040"}, size: \(width)x\(height), fps: 30}
              wide: {zoom: 0.5, virtual: {color: "#d03030"}, size: \(width)x\(height), fps: 30}
              grey: {zoom: 2, virtual: {color: "#8c8c8c"}, size: \(width)x\(height), fps: 30}
            default_lens: main
            scripts:
              colours:
                - record: One
                - wait: 0.5s
                - lens: wide
                - wait: 0.5s
                - lens: grey
                - wait: 0.5s
                - stop
            """
            let rigPath = directory.appendingPathComponent("colour.yaml")
            try rig.write(to: rigPath, atomically: true, encoding: .utf8)
            let out = directory.appendingPathComponent("out")
            let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                               ["run", rigPath.path, "--script", "colours", "--clock", "simulated",
                                                "--output", out.path])
            XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
            let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
            let movie = out.appendingPathComponent(try XCTUnwrap(names.first { $0.hasSuffix(".mov") }, "\(names)")).path

            let probe = try ProcessRunner.run("/usr/bin/ffprobe", [
                "-v", "error", "-select_streams", "v:0", "-show_entries",
                "stream=color_range,color_space,color_primaries,color_transfer", "-of", "default=noprint_wrappers=1",
                movie,
            ])
            let tags = probe.stdoutText
            for key in ["color_space", "color_primaries", "color_transfer"] {
                XCTAssertTrue(tags.contains("\(key)=\(standard)\n"), "\(width)x\(height): \(tags)")
            }
            XCTAssertTrue(tags.contains("color_range=tv\n"), tags)

            // A patch of background in the top right, clear of the test pattern's square and flash.
            let region = "crop=\(width / 8):\(height / 8):\(width * 3 / 4):\(height / 16)"
            let frames = try MediaProbe(path: movie).videoFrames()
            for matrix in [nil, assumed] {
                let forced = matrix.map { ":in_color_matrix=\($0):in_range=tv" } ?? ""
                let decoded = try ProcessRunner.run("/usr/bin/ffmpeg", [
                    "-v", "error", "-i", movie, "-map", "0:v:0",
                    "-vf", "\(region),scale=1:1:flags=area\(forced),format=rgb24", "-f", "rawvideo", "-pix_fmt", "rgb24",
                    "-",
                ])
                XCTAssertEqual(decoded.status, 0, decoded.stderr)
                let bytes = [UInt8](decoded.stdout)
                XCTAssertEqual(bytes.count, frames.count * 3)
                var checked = 0
                for (index, frame) in frames.enumerated() where index * 3 + 2 < bytes.count {
                    let want: (Int, Int, Int)
                    switch frame.time {
                    case 0.1...0.4: want = (0x20, 0xc0, 0x40)
                    case 0.6...0.9: want = (0xd0, 0x30, 0x30)
                    case 1.1...1.4: want = (0x8c, 0x8c, 0x8c)
                    default: continue
                    }
                    let got = (Int(bytes[index * 3]), Int(bytes[index * 3 + 1]), Int(bytes[index * 3 + 2]))
                    XCTAssertTrue(abs(got.0 - want.0) <= 6 && abs(got.1 - want.1) <= 6 && abs(got.2 - want.2) <= 6,
                                  "\(width)x\(height), matrix \(matrix ?? "from the tags"), frame \(index) at "
                                      + "\(frame.time): \(got), want \(want)")
                    checked += 1
                }
                XCTAssertGreaterThan(checked, 20, "\(width)x\(height): frames checked")
            }
        }
    }
}
