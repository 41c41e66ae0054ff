import Foundation
import PauseCamCore
import XCTest

/// Three voices, each its own virtual microphone with its own pitch and crystal (+100, −100 and 0 ppm), recorded
/// for ten simulated minutes with pauses, a retake and lens switches through the binary: the movie has the mix and
/// one titled track per voice, every voice's beeps stay within 5 ms of the picture's flashes to the end, the mix
/// holds every voice, and every track has the same length and the same cuts.
final class VoiceTracksEndToEndTests: XCTestCase {
    static let pitches = ["host": 700, "guest": 1_300, "room": 2_100]

    static let yaml = """
        name: Voices rig
        output:
          name: "{rig}"
          container: mov
          size: 160x90
          fps: 30
          video: {codec: h264, preset: ultrafast, crf: 30, keyframe_interval: 2s}
        audio:
          - {name: host, device: virtual, tone: 700, drift_ppm: 100}
          - {name: guest, device: virtual, tone: 1300, drift_ppm: -100}
          - {name: room, device: virtual, tone: 2100}
        lenses:
          wide:
            zoom: 0.5
            virtual: {color: "#2040c0"}
          main:
            zoom: 1
            virtual: {color: "#20c040"}
        default_lens: main
        scripts:
          take:
            - record: Voices
            - wait: 120.4s
            - lens: wide
            - wait: 120s
            - pause
            - wait: 1.3s
            - resume
            - wait: 60s
            - retake
            - wait: 150s
            - lens: main
            - wait: 90s
            - pause
            - wait: 0.7s
            - resume
            - wait: 100s
            - stop

        """

    func testThreeVoicesOverTenMinutesKeepTheirTracksInSyncWithTheSameCuts() throws {
        let directory = try ProcessRunner.temporaryDirectory("voices-ten-minutes")
        let rigPath = directory.appendingPathComponent("voices.yaml")
        try Self.yaml.write(to: rigPath, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["run", rigPath.path, "--script", "take",
                                                                          "--clock", "simulated", "--output", output.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        let movie = output.appendingPathComponent(try XCTUnwrap(names.first { $0.hasSuffix(".mov") }, "\(names)")).path
        let probe = MediaProbe(path: movie)

        // The mix first (stereo), then one titled mono track per voice, all starting together.
        let audio = try probe.streams().filter { $0.codecType == "audio" }
        // ffprobe 5.1 shows a .mov track's name as `handler_name` (the track's `hdlr`; the `udta` name too).
        XCTAssertEqual(audio.map { $0.tags?["title"] ?? $0.tags?["handler_name"] ?? "" }, ["mix", "host", "guest", "room"])
        XCTAssertEqual(audio.map { $0.channels ?? 0 }, [2, 1, 1, 1])
        XCTAssertEqual(Set(audio.map { $0.startTime ?? "?" }).count, 1, "every track starts together")

        let flashes = try SoundRig.flashes(probe)
        XCTAssertGreaterThan(flashes.count, 500, "a flash every second of the movie")
        var lengths: [Int] = []
        var voiceSamples: [String: [Int16]] = [:]
        for (track, voice) in ["host", "guest", "room"].enumerated() {
            let samples = try probe.audioSamples(track: track + 1)
            voiceSamples[voice] = samples
            lengths.append(samples.count)
            let beeps = RecordingEndToEndTests.beepOnsets(samples)
            XCTAssertGreaterThan(beeps.count, 500, "\(voice): a beep every second")
            // Every flash of the last minute (after ten minutes of drift) and of the whole movie has its beep.
            var worst = 0.0
            for flash in flashes {
                guard let beep = beeps.min(by: { abs($0 - flash) < abs($1 - flash) }) else { continue }
                worst = max(worst, abs(beep - flash))
            }
            XCTAssertLessThanOrEqual(worst, 0.005, "\(voice): a beep more than 5 ms from its flash (\(worst * 1000) ms)")
            // Its own pitch, not another voice's.
            let beep = Array(samples[Int((beeps[beeps.count - 2]) * 48_000)...].prefix(4_096))
            for (other, pitch) in Self.pitches {
                let power = Self.power(beep, hertz: pitch)
                if other == voice {
                    XCTAssertGreaterThan(power, 100 * Self.power(beep, hertz: 3_100), "\(voice) lacks its pitch")
                } else {
                    XCTAssertLessThan(power, Self.power(beep, hertz: Self.pitches[voice]!) / 100,
                                      "\(voice)'s track holds \(other)'s pitch")
                }
            }
        }
        XCTAssertEqual(Set(lengths).count, 1, "every voice's track has the same length: \(lengths)")

        // The mix holds every voice (in its last beep, after all the cuts).
        let mix = try probe.audioSamples(track: 0)
        XCTAssertEqual(mix.count, lengths[0], "the mix as long as the voices")
        let lastBeep = RecordingEndToEndTests.beepOnsets(mix).last ?? 0
        let window = Array(mix[Int(lastBeep * 48_000)...].prefix(4_096))
        for (voice, pitch) in Self.pitches {
            XCTAssertGreaterThan(Self.power(window, hertz: pitch), 100 * Self.power(window, hertz: 3_100),
                                 "the mix lacks \(voice)")
        }

        // Beeps are cut and faded at the same places on every track: the onsets agree to the sample frame (each
        // card was placed on the same grid, and the recorder cut and declicked one stream of all of them).
        let onsets = ["host", "guest", "room"].map { RecordingEndToEndTests.beepOnsets(voiceSamples[$0]!) }
        XCTAssertEqual(onsets[0].count, onsets[1].count)
        XCTAssertEqual(onsets[0].count, onsets[2].count)
        for (a, b) in zip(onsets[0], onsets[2]) { XCTAssertEqual(a, b, accuracy: 0.002) }
        for (a, b) in zip(onsets[1], onsets[2]) { XCTAssertEqual(a, b, accuracy: 0.002) }
    }

    /// The power of `samples` at `hertz` (Goertzel).
    static func power(_ samples: [Int16], hertz: Int) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * Double(hertz) / 48_000)
        var previous = 0.0, beforePrevious = 0.0
        for sample in samples {
            let current = Double(sample) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
    }
}
