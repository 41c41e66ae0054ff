import Foundation
import XCTest

/// `preset: auto` through the built binary: measured once per machine, size and rate, cached under
/// `$XDG_CACHE_HOME/pausecam/`, re-measured when the cache is corrupt; `check --measure` prints the figures; a
/// named preset too slow for the machine is warned about at the start. `PAUSECAM_FAULT_ENCODER_FPS` stands in
/// for the timing (a loaded machine gives no stable figures); the preset that reaches x264 is read from the
/// settings x264 writes into the stream (`subme=2` is veryfast's, `cabac=0` ultrafast's).
final class PresetAutoEndToEndTests: XCTestCase {
    private func rig(in folder: URL, preset: String) throws -> String {
        let text = """
        name: Auto
        output: {name: "{rig}-{time}", size: 320x240, fps: 30, video: {codec: h264, preset: \(preset), crf: 30}}
        audio: {device: virtual}
        lenses:
          main: {zoom: 1, virtual: {color: "#20c040"}}
        scripts:
          take:
            - record: Take
            - wait: 1s
            - stop
        """
        let path = folder.appendingPathComponent("auto-\(preset).yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Records the rig's 1 s take (on the real clock: only there is the encoder's speed measured).
    private func record(_ rigPath: String, cache: URL, fps: String, clock: String = "real") throws -> (ProcessResult, Data) {
        let out = try ProcessRunner.temporaryDirectory("auto-out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["run", rigPath, "--clock", clock, "--output", out.path],
                                           environment: ["XDG_CACHE_HOME": cache.path, "PAUSECAM_FAULT_ENCODER_FPS": fps])
        let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        let movie = names.first { $0.hasSuffix(".mov") }.map { out.appendingPathComponent($0) }
        return (result, try movie.map { try Data(contentsOf: $0) } ?? Data())
    }

    private func contains(_ data: Data, _ text: String) -> Bool {
        data.range(of: Data(text.utf8)) != nil
    }

    func testAnAutoRigMeasuresOnceReadsTheCacheAfterAndMeasuresAgainWhenTheCacheIsCorrupt() throws {
        let folder = try ProcessRunner.temporaryDirectory("auto")
        let cache = folder.appendingPathComponent("cache")
        let rigPath = try rig(in: folder, preset: "auto")

        // No cache: measured (faster is the first below 45 fps), veryfast chosen and recorded with.
        let (first, firstMovie) = try record(rigPath, cache: cache,
                                             fps: "ultrafast=900,superfast=300,veryfast=50,faster=40")
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stderr.contains("measuring encoder speed…"), first.stderr)
        let cacheFile = cache.appendingPathComponent("pausecam/encoder-speed.json")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cacheFile.path))
        XCTAssertTrue(contains(firstMovie, "subme=2"), "veryfast reaches x264")

        // Cached: not measured again (other injected speeds would choose ultrafast), still veryfast.
        let (second, secondMovie) = try record(rigPath, cache: cache, fps: "ultrafast=900,superfast=30")
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertFalse(second.stderr.contains("measuring encoder speed"), second.stderr)
        XCTAssertTrue(contains(secondMovie, "subme=2"), "the cached choice is used")

        // Corrupt: measured again with the new speeds, which choose ultrafast.
        try "{\"version\": 1, \"entries\": ".write(to: cacheFile, atomically: true, encoding: .utf8)
        let (third, thirdMovie) = try record(rigPath, cache: cache, fps: "ultrafast=900,superfast=30")
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertTrue(third.stderr.contains("measuring encoder speed…"), third.stderr)
        XCTAssertTrue(contains(thirdMovie, "cabac=0"), "ultrafast reaches x264")
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(contentsOf: cacheFile)), "the cache is rewritten whole")
    }

    /// On the simulated clock the encoder sets the pace: `auto` is veryfast, nothing is measured or cached, and
    /// the output is the same on every machine.
    func testTheSimulatedClockNeverMeasures() throws {
        let folder = try ProcessRunner.temporaryDirectory("auto-simulated")
        let cache = folder.appendingPathComponent("cache")
        let (result, movie) = try record(try rig(in: folder, preset: "auto"), cache: cache,
                                         fps: "ultrafast=900,superfast=30", clock: "simulated")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("measuring"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.appendingPathComponent("pausecam").path))
        XCTAssertTrue(contains(movie, "subme=2"), "veryfast reaches x264")
    }

    func testANamedPresetIsWarnedAboutOnlyOnceAMeasurementExists() throws {
        let folder = try ProcessRunner.temporaryDirectory("named")
        let cache = folder.appendingPathComponent("cache")
        let rigPath = try rig(in: folder, preset: "veryfast")
        let speeds = "ultrafast=100,superfast=20"
        let (before, _) = try record(rigPath, cache: cache, fps: speeds)
        XCTAssertEqual(before.status, 0, before.stderr)
        XCTAssertFalse(before.stderr.contains("measuring") || before.stderr.contains("x264 preset"), before.stderr)

        let check = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", "--measure", rigPath],
                                          environment: ["XDG_CACHE_HOME": cache.path,
                                                        "PAUSECAM_FAULT_ENCODER_FPS": speeds])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdoutText.contains("warning: x264 preset veryfast is slower than superfast"), check.stdoutText)

        let (after, movie) = try record(rigPath, cache: cache, fps: speeds)
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stderr.contains("warning: x264 preset veryfast is slower than superfast, which encodes "
                                            + "320x240 at 30 fps camera-like frames at only 20.0 fps"), after.stderr)
        XCTAssertTrue(contains(movie, "subme=2"), "a named preset is kept, only warned about")
    }

    /// An `auto` rig on a machine where even ultrafast is too slow is warned that frames will drop, but never told
    /// to "use `preset: auto`": it already does.
    func testAnAutoRigTooSlowEvenAtUltrafastIsNotToldToUseAuto() throws {
        let folder = try ProcessRunner.temporaryDirectory("auto-slow")
        let (result, movie) = try record(try rig(in: folder, preset: "auto"),
                                         cache: folder.appendingPathComponent("cache"), fps: "ultrafast=20")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("warning: x264 preset ultrafast encodes"), result.stderr)
        XCTAssertTrue(result.stderr.contains("use a smaller size or a lower rate"), result.stderr)
        XCTAssertFalse(result.stderr.contains("use `preset: auto`"), result.stderr)
        XCTAssertTrue(contains(movie, "cabac=0"), "ultrafast reaches x264")
    }

    /// The first real-clock run of an `auto` rig measures the real encoder: x264's own statistics
    /// (`[libx264 @ 0x…] frame I:1 Avg QP…`) must not reach the terminal, only PauseCam's lines.
    func testARealMeasurementKeepsX264sOwnLogOffTheTerminal() throws {
        let folder = try ProcessRunner.temporaryDirectory("auto-real")
        let out = try ProcessRunner.temporaryDirectory("auto-real-out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["run", try rig(in: folder, preset: "auto"), "--output", out.path],
                                           environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("measuring encoder speed…"), result.stderr)
        XCTAssertFalse(result.stderr.contains("libx264 @"), result.stderr)
        for line in result.stderr.split(separator: "\n") {
            XCTAssertTrue(line.hasPrefix("pausecam: ") || line.hasPrefix("  "), "not PauseCam's line: \(line)")
        }
    }

    func testCheckMeasureTimesTheRealEncoderAndPrintsLinesThatParse() throws {
        let folder = try ProcessRunner.temporaryDirectory("measure")
        let rigPath = try rig(in: folder, preset: "auto")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", "--measure", rigPath],
                                           environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        let header = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("encoder speed, 320x240 at 30 fps") }, result.stdoutText)
        XCTAssertTrue(lines[header].hasSuffix("(needs 45.0 fps):"), lines[header])
        var measured: [(String, Double)] = []
        var index = header + 1
        while index < lines.count, let match = lines[index].wholeMatch(of: /\ \ ([a-z]+) ([0-9]+\.[0-9]) fps( \(too slow\))?/) {
            measured.append((String(match.1), Double(match.2)!))
            XCTAssertEqual(match.3 != nil, Double(match.2)! < 45, lines[index])
            index += 1
        }
        XCTAssertEqual(measured.first?.0, "ultrafast", result.stdoutText)
        XCTAssertEqual(measured.map(\.0), Array(["ultrafast", "superfast", "veryfast", "faster", "fast", "medium",
                                                 "slow", "slower", "veryslow"].prefix(measured.count)))
        let chosen = try XCTUnwrap(lines.dropFirst(index).first?.wholeMatch(of: /\ \ auto chooses: ([a-z]+)/)?.1,
                                   result.stdoutText)
        XCTAssertTrue(measured.contains { $0.0 == chosen }, result.stdoutText)
    }
}
