import Foundation
import PauseCamCore
import XCTest

/// The ISO of an MJPEG lens through the built binary: the lens is a `file:` lens replaying an MJPEG movie made here
/// with the ffmpeg command line, which hands on undecoded `jpeg` frames as a UVC camera's MJPEG buffers come. Its
/// ISO must be MJPEG made of the source's JPEGs byte for byte (no decode, no encode), constant-rate, on the
/// program's timeline (duration, frame times, chapters), and show the program's picture wherever the program shows
/// the lens. The footage is blue with a white bar that sweeps the bottom every 2 s (which instant a picture is,
/// read as in `IsoEndToEndTests`) and a small box that creeps along the top (so no two of its JPEGs are alike).
final class IsoPassThroughEndToEndTests: XCTestCase {
    static let film = (0x30, 0x50, 0xe0)
    static let main = (0xc0, 0x30, 0x20)

    /// Ten seconds of MJPEG footage at 320x240 and 30 fps in `folder/film.mov`.
    static func makeFootage(in folder: URL) throws -> URL {
        let movie = folder.appendingPathComponent("film.mov")
        let result = try ProcessRunner.run("/usr/bin/ffmpeg", [
            "-v", "error", "-f", "lavfi", "-i", "color=c=0x3050e0:s=320x240:r=30:d=10",
            "-f", "lavfi", "-i", "color=c=white:s=20x36:r=30:d=10",
            "-f", "lavfi", "-i", "color=c=yellow:s=16x16:r=30:d=10",
            "-filter_complex", "[0:v][1:v]overlay=x='mod(t*150,300)':y=204[a];[a][2:v]overlay=x='t*30':y=8",
            "-c:v", "mjpeg", "-q:v", "3", movie.path,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        return movie
    }

    /// The MD5 of every video packet of `path`, copied out as they are stored (`-c copy -f framemd5`).
    static func packetHashes(_ path: String) throws -> [String] {
        let result = try ProcessRunner.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-c", "copy",
                                                                "-f", "framemd5", "-"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) }
    }

    func testAnMJPEGLensIsoHoldsTheCamerasJPEGsAsTheyCameOnTheProgramsTimeline() throws {
        let directory = try ProcessRunner.temporaryDirectory("iso-mjpeg")
        let footage = try Self.makeFootage(in: directory)
        let rig = """
        name: Film rig
        output: {name: "{rig}", size: 320x240, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}, iso: [film]}
        audio: {device: virtual}
        lenses:
          main: {zoom: 1, virtual: {color: "#c03020"}, size: 320x240, fps: 30}
          film: {zoom: 2, file: film.mov, loop: true}
        default_lens: main
        scripts:
          take:
            - record: One
            - wait: 1s
            - lens: film
            - wait: 1s
            - pause
            - wait: 0.5s
            - resume: Two
            - wait: 1s
            - lens: main
            - wait: 0.5s
            - chapter: Three
            - wait: 0.5s
            - lens: film
            - wait: 1s
            - stop
        """
        let rigPath = directory.appendingPathComponent("film.yaml")
        try rig.write(to: rigPath, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["run", rigPath.path, "--script", "take",
                                                                          "--clock", "simulated", "--output", out.path])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertFalse(result.stderr.contains("finishing by a copy"), "finished in place: \(result.stderr)")

        let isoPath = out.appendingPathComponent("film-rig.iso/film.mov").path
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("film-rig.iso").path),
                       ["film.mov"], "the ISO is finished and its .partial removed")
        let program = MediaProbe(path: out.appendingPathComponent("film-rig.mov").path)
        let iso = MediaProbe(path: isoPath)
        let video = try XCTUnwrap(try iso.streams().first { $0.codecType == "video" })
        XCTAssertEqual(video.codecName, "mjpeg", "the lens's JPEGs, not x264")
        XCTAssertEqual(video.width, 320)
        XCTAssertEqual(video.height, 240)
        try iso.assertConstantRate(30)
        XCTAssertEqual(try iso.decodeErrors(), "")

        // The program's timeline: frame times, duration, chapters and audio.
        let programFrames = try program.videoFrames()
        let isoFrames = try iso.videoFrames()
        XCTAssertEqual(Double(programFrames.count) / 30, 5, accuracy: 1.5 / 30)
        XCTAssertEqual(isoFrames.map(\.time), programFrames.map(\.time))
        XCTAssertTrue(isoFrames.allSatisfy(\.keyframe), "every MJPEG frame is a keyframe")
        XCTAssertEqual(try iso.duration(), try program.duration(), accuracy: 1e-3)
        XCTAssertEqual(try iso.audioDuration(), try program.audioDuration(), accuracy: 1e-3)
        XCTAssertEqual(try IsoEndToEndTests.audioPackets(isoPath), try IsoEndToEndTests.audioPackets(program.path),
                       "the program's AAC packets, as they are")
        let programChapters = try program.chapters()
        XCTAssertEqual(programChapters.map(\.title), ["One", "Two", "Three"])
        let isoChapters = try iso.chapters()
        XCTAssertEqual(isoChapters.map(\.title), programChapters.map(\.title))
        XCTAssertEqual(isoChapters.map(\.startTime), programChapters.map(\.startTime))
        XCTAssertEqual(isoChapters.map(\.endTime), programChapters.map(\.endTime))

        // Byte for byte: every ISO packet is one of the source's JPEGs.
        let sourceHashes = Set(try Self.packetHashes(footage.path))
        XCTAssertGreaterThan(sourceHashes.count, 250, "the footage's JPEGs are all different")
        let isoHashes = try Self.packetHashes(isoPath)
        XCTAssertEqual(isoHashes.count, isoFrames.count)
        let foreign = isoHashes.enumerated().filter { !sourceHashes.contains($0.element) }.map(\.offset)
        XCTAssertEqual(foreign, [], "ISO packets that are not one of the source's JPEGs")

        // Wherever the program shows the film lens, the ISO shows the same instant; at each switch too.
        let sidecar = try Sidecar.decode(Data(contentsOf: out.appendingPathComponent("film-rig.json")))
        XCTAssertEqual(sidecar.switches.map(\.lens), ["film", "main", "film"])
        let programBars = try program.barPositions(width: 320, height: 240)
        let isoBars = try iso.barPositions(width: 320, height: 240)
        let shown = try program.regionColors(x: 150, y: 100, width: 16, height: 16).map {
            IsoEndToEndTests.distance($0, Self.film) < IsoEndToEndTests.distance($0, Self.main) ? "film" : "main"
        }
        XCTAssertEqual(programBars.count, programFrames.count)
        XCTAssertEqual(isoBars.count, programFrames.count)
        XCTAssertEqual(shown.count, programFrames.count)
        // The bar moves 5 pixels of 320 a frame: a third of that tells frames apart.
        let tolerance = 5.0 / 320 / 3
        let filmFrames = programFrames.indices.filter { $0 < shown.count && shown[$0] == "film" }
        XCTAssertGreaterThan(filmFrames.count, 80)
        for index in filmFrames where index < programBars.count && index < isoBars.count {
            XCTAssertEqual(isoBars[index], programBars[index], accuracy: tolerance,
                           "frame \(index) at \(programFrames[index].time)")
        }
        for change in sidecar.switches where change.lens == "film" {
            let index = try XCTUnwrap(programFrames.firstIndex { abs($0.time - change.effective) < 0.5 / 30 },
                                      "a frame at the switch to film (\(change.effective) s)")
            XCTAssertEqual(shown[index], "film", "the switch's frame")
            XCTAssertEqual(shown[index - 1], "main", "the frame before the switch")
            XCTAssertEqual(isoBars[index], programBars[index], accuracy: tolerance, "the switch's frame \(index)")
        }
    }
}
