import Foundation
import PauseCamCore
import XCTest

/// The movie's own clock, through the built binary: lenses at 15, 30 and 60 fps and three sizes into one 30 fps
/// output, with seeded switches (some while paused, some within a frame of a pause or resume). ffprobe must find a
/// constant-rate movie whose decoded colours follow the sidecar's lens segments and whose flashes meet their beeps.
final class OutputClockEndToEndTests: XCTestCase {
    static let colors: [String: (Int, Int, Int)] = ["wide": (0xd0, 0x30, 0x30), "main": (0x20, 0xc0, 0x40),
                                                     "tele": (0x30, 0x50, 0xe0)]


    /// A script of `switches` lens switches with pauses among them, as YAML steps, and the recorded seconds.
    static func script(seed: UInt64, switches: Int) -> (steps: [String], recorded: Double, resumes: Int) {
        var rng = SplitMix64(state: seed)
        var steps = ["- record: Scene 1"]
        var recorded = 0.0
        var paused = false
        var scene = 1
        var lens = "main"
        func wait(_ seconds: Double) {
            steps.append(String(format: "- wait: %.3fs", seconds))
            if !paused { recorded += seconds }
        }
        for _ in 0..<switches {
            let roll = Int.random(in: 0..<10, using: &rng)
            if roll < 2 {
                // A pause, sometimes with a switch while paused, sometimes resumed within one frame.
                wait(Bool.random(using: &rng) ? 0.02 : Double.random(in: 0.1...0.6, using: &rng))
                steps.append("- pause")
                paused = true
                if Bool.random(using: &rng) {
                    lens = ["wide", "main", "tele"].filter { $0 != lens }.randomElement(using: &rng)!
                    steps.append("- lens: \(lens)")
                }
                wait(Bool.random(using: &rng) ? 0.03 : Double.random(in: 0.1...0.5, using: &rng))
                scene += 1
                steps.append("- resume: Scene \(scene)")
                paused = false
            }
            wait(roll == 9 ? 0.01 : Double.random(in: 0.05...0.4, using: &rng))
            lens = ["wide", "main", "tele"].filter { $0 != lens }.randomElement(using: &rng)!
            steps.append("- lens: \(lens)")
        }
        wait(0.5)
        steps.append("- stop")
        return (steps, recorded, scene - 1)
    }

    func testMixedRateLensesMakeAConstantRateMovieThatFollowsTheSwitches() throws {
        try record(output: (30, 1), lensRates: ["15", "30", "60"], seed: 7, switches: 100)
    }

    func testAnNTSCOutputFromLensesAt25And30And60() throws {
        try record(output: (30000, 1001), lensRates: ["25", "30", "60"], seed: 11, switches: 30)
    }

    /// Records a seeded script on lenses wide, main, tele at `lensRates` into a 320x180 output at `output` fps, and
    /// checks the movie with ffprobe and ffmpeg.
    func record(output: (Int, Int), lensRates: [String], seed: UInt64, switches: Int) throws {
        let directory = try ProcessRunner.temporaryDirectory("mixed-rates")
        let (steps, recorded, resumes) = Self.script(seed: seed, switches: switches)
        let frameSeconds = Double(output.1) / Double(output.0)
        let rig = """
        name: Mixed rates
        output: {name: "{rig}", size: 320x180, fps: "\(output.0)/\(output.1)", video: {codec: h264, preset: ultrafast, crf: 30}}
        audio: {device: virtual}
        lenses:
          wide: {zoom: 0.5, virtual: {color: "#d03030"}, size: 320x240, fps: \(lensRates[0])}
          main: {zoom: 1, virtual: {color: "#20c040"}, size: 640x360, fps: \(lensRates[1])}
          tele: {zoom: 3, virtual: {color: "#3050e0"}, size: 320x180, fps: \(lensRates[2])}
        default_lens: main
        scripts:
          mixed:
        \(steps.map { "    " + $0 }.joined(separator: "\n"))
        """
        let rigPath = directory.appendingPathComponent("mixed.yaml")
        try rig.write(to: rigPath, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["run", rigPath.path, "--script", "mixed", "--clock", "simulated",
                                            "--output", out.path])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        let movie = try XCTUnwrap(names.first { $0.hasSuffix(".mov") }, "\(names)")
        let sidecar = try Sidecar.decode(Data(contentsOf: out.appendingPathComponent(String(movie.dropLast(4)) + ".json")))
        let probe = MediaProbe(path: out.appendingPathComponent(movie).path)

        // Constant rate, constant size.
        try probe.assertConstantRate(output.0, output.1)
        let video = try XCTUnwrap(try probe.streams().first { $0.codecType == "video" })
        XCTAssertEqual(video.width, 320)
        XCTAssertEqual(video.height, 180)
        XCTAssertEqual(try probe.decodeErrors(), "")

        // Durations: the recorded spans, each segment starting on its lens's first frameSeconds (up to 1/15 s late).
        let frames = try probe.videoFrames()
        let videoDuration = Double(frames.count) * frameSeconds
        XCTAssertEqual(sidecar.duration, videoDuration, accuracy: 1e-3)
        XCTAssertEqual(videoDuration, recorded, accuracy: Double(resumes + 1) * (1.0 / 15 + frameSeconds))
        XCTAssertEqual(try probe.audioDuration(), videoDuration, accuracy: 1024.0 / 48_000)
        XCTAssertEqual(sidecar.scenes.count, resumes + 1)

        // Every decoded frameSeconds shows the lens the sidecar says, but for one frameSeconds at each edge.
        // Inside every lens's picture (the 4:3 lens is pillarboxed to x 40…280), clear of the square and the bar.
        let background = try probe.regionColors(x: 236, y: 8, width: 30, height: 20)
        XCTAssertEqual(background.count, frames.count)
        let segments = sidecar.scenes.flatMap(\.lenses)
        XCTAssertEqual(Set(segments.map(\.lens)), ["wide", "main", "tele"])
        var mismatches: [String] = []
        for (index, frame) in frames.enumerated() where index < background.count {
            let t = frame.time
            guard let segment = segments.last(where: { $0.start <= t + 1e-6 }) else { continue }
            let nearEdge = segments.contains {
                abs($0.start - t) < frameSeconds * 1.01 || abs($0.start + $0.duration - t) < frameSeconds * 1.01
            }
            if nearEdge { continue }
            let want = Self.colors[segment.lens]!
            let got = background[index]
            if abs(got.0 - want.0) > 40 || abs(got.1 - want.1) > 40 || abs(got.2 - want.2) > 40 {
                mismatches.append("frame \(index) at \(t): \(got) but lens \(segment.lens)")
            }
        }
        XCTAssertTrue(mismatches.isEmpty, "\(mismatches.count) mismatches:\n" + mismatches.prefix(5).joined(separator: "\n"))

        // Sync: every flash has its beep within one output frameSeconds.
        let times = frames.map(\.time)
        // Where the flash square of every lens is (x 0…45 on the 16:9 lenses, 40…85 on the pillarboxed 4:3 one).
        let flashes = try probe.regionColors(x: 41, y: 10, width: 4, height: 20).enumerated()
            .filter { $0.element.0 > 180 && $0.element.1 > 180 && $0.element.2 > 180 }
            .map { times[$0.offset] }
        // A held (repeated) flash frameSeconds shows in consecutive slots: its first slot is the flash.
        let flashStarts = flashes.enumerated().filter { $0.offset == 0 || $0.element - flashes[$0.offset - 1] > 1.5 * frameSeconds }
            .map(\.element)
        let beeps = RecordingEndToEndTests.beepOnsets(try probe.audioSamples())
        XCTAssertGreaterThanOrEqual(flashStarts.count, 3, "flashes: \(flashStarts)")
        for flash in flashStarts {
            XCTAssertTrue(beeps.contains { abs($0 - flash) <= frameSeconds + 1e-6 },
                          "flash at \(flash) has no beep within a frame; beeps \(beeps)")
        }
    }
}
