import Foundation
import PauseCamCore
import XCTest

/// The lens policy through the built binary: a cold-standby switch between a 15 fps and a 60 fps lens into a
/// 30 fps movie. The movie stays constant-rate with no hole, its decoded colours follow the sidecar's lens segments,
/// and the sidecar's new fields (switch times, repeated and skipped frames, no-signal spans) are written under the
/// names the README documents.
final class LensBankEndToEndTests: XCTestCase {
    func testAColdSwitchBetweenMixedRateLensesLeavesNoHoleAndTheSidecarCountsRepeatsAndSkips() throws {
        let directory = try ProcessRunner.temporaryDirectory("lensbank")
        let rig = """
        name: Cold rig
        output: {name: "{rig}", size: 320x180, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}}
        audio: {device: virtual}
        standby: cold
        lenses:
          main: {zoom: 1, virtual: {color: "#20c040"}, size: 320x180, fps: 15}
          tele: {zoom: 3, virtual: {color: "#3050e0"}, size: 320x180, fps: 60}
        default_lens: main
        scripts:
          switch:
            - record: One
            - wait: 1.5s
            - lens: tele
            - wait: 1.5s
            - stop
        """
        let rigPath = directory.appendingPathComponent("cold.yaml")
        try rig.write(to: rigPath, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["run", rigPath.path, "--script", "switch", "--clock", "simulated",
                                            "--output", out.path])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        let movie = try XCTUnwrap(names.first { $0.hasSuffix(".mov") }, "\(names)")
        let sidecarURL = out.appendingPathComponent(String(movie.dropLast(4)) + ".json")
        let sidecar = try Sidecar.decode(Data(contentsOf: sidecarURL))
        let probe = MediaProbe(path: out.appendingPathComponent(movie).path)

        try probe.assertConstantRate(30, 1)
        let frames = try probe.videoFrames()
        XCTAssertEqual(Double(frames.count) / 30, 3, accuracy: 2.0 / 30)
        XCTAssertEqual(sidecar.duration, Double(frames.count) / 30, accuracy: 1e-3)
        XCTAssertEqual(try probe.audioDuration(), sidecar.duration, accuracy: 1024.0 / 48_000)

        // The names the README documents, in the file itself.
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: sidecarURL)) as? [String: Any])
        let switches = try XCTUnwrap(json["switches"] as? [[String: Any]])
        XCTAssertEqual(switches.count, 1)
        XCTAssertEqual(switches.first?["lens"] as? String, "tele")
        let requested = try XCTUnwrap(switches.first?["requested"] as? Double)
        let effective = try XCTUnwrap(switches.first?["effective"] as? Double)
        XCTAssertEqual(requested, 1.5, accuracy: 1.0 / 30 + 1e-6)
        XCTAssertGreaterThanOrEqual(effective, requested)
        let scene = try XCTUnwrap((json["scenes"] as? [[String: Any]])?.first)
        XCTAssertEqual((scene["no_signal"] as? [Any])?.count, 0)
        let lenses = try XCTUnwrap(scene["lenses"] as? [[String: Any]])
        XCTAssertEqual(lenses.map { $0["lens"] as? String }, ["main", "tele"])
        XCTAssertNotNil(lenses[0]["repeated_frames"] as? Int)
        XCTAssertNotNil(lenses[0]["skipped_frames"] as? Int)

        // 15 fps into 30: every other slot repeats; 60 fps into 30: every other frame is skipped.
        let segments = sidecar.scenes[0].lenses
        let mainSlots = Int((segments[0].duration * 30).rounded())
        let teleSlots = Int((segments[1].duration * 30).rounded())
        XCTAssertEqual(Double(segments[0].repeatedFrames), Double(mainSlots) / 2, accuracy: 1)
        XCTAssertEqual(segments[0].skippedFrames, 0)
        XCTAssertEqual(segments[1].repeatedFrames, 0)
        XCTAssertEqual(Double(segments[1].skippedFrames), Double(teleSlots), accuracy: 2)
        XCTAssertEqual(segments[1].start, effective, accuracy: 1e-6)

        // Every decoded frame shows the lens the sidecar says, but for one frame at the switch.
        let colors = try probe.regionColors(x: 236, y: 8, width: 30, height: 20)
        XCTAssertEqual(colors.count, frames.count)
        for (index, frame) in frames.enumerated() where index < colors.count && abs(frame.time - effective) > 1.01 / 30 {
            let want = frame.time < effective ? (0x20, 0xc0, 0x40) : (0x30, 0x50, 0xe0)
            let got = colors[index]
            XCTAssertTrue(abs(got.0 - want.0) <= 40 && abs(got.1 - want.1) <= 40 && abs(got.2 - want.2) <= 40,
                          "frame \(index) at \(frame.time): \(got), want \(want)")
        }
    }
}
