import Foundation
import PauseCamCore
import XCTest

/// `audio: {gain: …}`: a digital gain before the encoder, measured from outside with ffmpeg's `volumedetect`;
/// clipping is counted (sidecar and `status`), and a gain out of range is a rig error with its position.
final class AudioGainEndToEndTests: XCTestCase {
    /// `max_volume` and `mean_volume` (dB) of the movie's sound, as ffmpeg's `volumedetect` filter reports them.
    func volume(_ movie: String) throws -> (max: Double, mean: Double) {
        let result = try ProcessRunner.run("/usr/bin/ffmpeg", ["-hide_banner", "-nostats", "-i", movie, "-map", "0:a",
                                                               "-af", "volumedetect", "-f", "null", "-"])
        func value(_ name: String) throws -> Double {
            let line = try XCTUnwrap(result.stderr.components(separatedBy: "\n").first { $0.contains(name + ":") },
                                     result.stderr)
            let number = line.components(separatedBy: name + ":").last?.replacingOccurrences(of: "dB", with: "")
                .trimmingCharacters(in: .whitespaces) ?? ""
            return try XCTUnwrap(Double(number), line)
        }
        return (try value("max_volume"), try value("mean_volume"))
    }

    let steps = ["record", "wait: 2s", "status", "stop"]

    func testAGainOfSixDecibelsRaisesTheLevelBySixDecibels() throws {
        let plain = try SoundRig(audio: ["tone: 440"], steps: steps).record("gain-none")
        let raised = try SoundRig(audio: ["tone: 440", "gain: +6dB"], steps: steps).record("gain-six")
        let before = try volume(plain.movie), after = try volume(raised.movie)
        XCTAssertEqual(after.max - before.max, 6, accuracy: 0.5, "max_volume \(before.max) → \(after.max)")
        XCTAssertEqual(after.mean - before.mean, 6, accuracy: 0.5, "mean_volume \(before.mean) → \(after.mean)")
        XCTAssertEqual(raised.sidecar.audio?.gain, 6)
        XCTAssertEqual(raised.sidecar.audio?.clippedSamples, 0)
        XCTAssertNil(plain.sidecar.audio?.gain)
        // The scenes' levels are measured after the gain too: the −12 dBFS tone peaks at −6 dBFS.
        XCTAssertEqual(raised.sidecar.scenes.first?.audioPeak ?? 0, -6, accuracy: 0.2)
    }

    func testAGainThatClipsCountsTheClippedSamples() throws {
        let loud = try SoundRig(audio: ["tone: 440", "gain: +40dB"], steps: steps).record("gain-clipped")
        let clipped = try XCTUnwrap(loud.sidecar.audio?.clippedSamples)
        let written = try XCTUnwrap(loud.sidecar.audio?.samplesWritten)
        // A −12 dBFS sine raised by 40 dB is at full scale for most of each cycle.
        XCTAssertGreaterThan(clipped, written / 2, "clipped \(clipped) of \(written)")
        XCTAssertEqual(loud.sidecar.audio?.gain, 40)
        XCTAssertTrue(loud.stdout.contains(" clipped ") && loud.stdout.contains(" samples"),
                      "status does not say how many samples were clipped: \(loud.stdout)")
    }

    func testAGainOutOfRangeIsARigErrorWithItsPosition() throws {
        let directory = try ProcessRunner.temporaryDirectory("gain-range")
        let rigPath = directory.appendingPathComponent("sound.yaml")
        try SoundRig(audio: ["gain: +50dB"], steps: ["record", "stop"]).yaml.write(to: rigPath, atomically: true,
                                                                                   encoding: .utf8)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", rigPath.path])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("\(rigPath.path):10:9:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("expected a gain from -40dB to +40dB such as +6dB, found \"+50dB\""),
                      result.stderr)
    }
}
