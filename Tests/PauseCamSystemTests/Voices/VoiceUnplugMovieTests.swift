import Foundation
import XCTest
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

/// One voice's microphone pulled out and put back mid-clip, in a real movie: the engine on the simulated clock with
/// two virtual voices (each its own card, its own beep pitch), written by the real FFmpeg writer and read back with
/// ffmpeg. (The binary has no way to unplug a virtual microphone, so this test wires the parts the composition root
/// wires.)
final class VoiceUnplugMovieTests: XCTestCase {
    static let hostPitch = 700
    static let guestPitch = 1_300

    func testAnUnpluggedVoiceIsSilentOnItsOwnTrackForThatSpanAndTheOtherVoiceIsUntouched() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-voice-unplug-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var audio = Rig.AudioInput(device: .none)
        audio.voices = [Rig.Voice(name: "host", source: .virtual, virtual: Rig.VirtualVoice(frequency: Self.hostPitch)),
                        Rig.Voice(name: "guest", source: .virtual, virtual: Rig.VirtualVoice(frequency: Self.guestPitch))]
        let rig = Rig(name: "Voices", output: Rig.OutputSettings(directory: directory.path, namePattern: "voices",
                                                                width: 160, height: 90, rate: FrameRate(30),
                                                                preset: "ultrafast", crf: 30),
                      audio: audio,
                      lenses: [Rig.Lens(name: "main", source: .virtual(color: RGBColor(hex: "#20c040")!),
                                        width: 160, height: 90, rate: FrameRate(30))])
        let serialContext = SimulatedSerialContext()
        let camera = VirtualLens(lens: "main", color: RGBColor(hex: "#20c040")!, width: 160, height: 90,
                                 rate: FrameRate(30), serialContext: serialContext)
        let host = VirtualMicrophone(serialContext: serialContext, beepFrequency: Self.hostPitch)
        let guest = VirtualMicrophone(serialContext: serialContext, beepFrequency: Self.guestPitch)
        var events: [EngineEvent] = []
        let hub = DeviceHub(rig: rig, cameras: ["main": camera], microphone: nil, serialContext: serialContext,
                            devices: InlineWorker(), voiceMicrophones: [host, guest], notify: { _ in })
        let clips = ClipController(rig: rig, sinkFactory: MovieWriterFactory(), store: AtomicSidecarStore(),
                                   serialContext: serialContext, wallClock: { Date(timeIntervalSince1970: 1_800_000_000) },
                                   outputDirectory: directory.path, finishing: InlineWorker(), notify: { _ in })
        let controller = RigController(rig: rig, devices: hub, clips: clips, serialContext: serialContext,
                                       voiceResamplers: VoiceResamplers(), notify: { events.append($0) })
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        serialContext.perform { controller.startDevices() }
        XCTAssertTrue(runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(runner.perform(.wait(.milliseconds(2_500))).ok)
        serialContext.perform { guest.unplug() }
        XCTAssertTrue(runner.perform(.wait(.seconds(3))).ok)
        serialContext.perform { guest.plugBack() }
        XCTAssertTrue(runner.perform(.wait(.milliseconds(2_500))).ok)
        let clip = try XCTUnwrap(runner.finishClip())
        serialContext.perform { controller.stopDevices() }
        let movie = clip.moviePath

        XCTAssertTrue(events.contains { if case .voiceGone("guest", _) = $0 { return true } else { return false } })
        XCTAssertTrue(events.contains { if case .voiceBack("guest", _) = $0 { return true } else { return false } })
        XCTAssertFalse(events.contains { if case .voiceGone("host", _) = $0 { return true } else { return false } })

        let (streamText, _) = try MovieWriterFixture.run("ffprobe", [
            "-v", "error", "-select_streams", "a", "-show_entries", "stream=channels:stream_tags=handler_name",
            "-of", "csv=p=0", movie])
        let streams = String(decoding: streamText, as: UTF8.self).split(separator: "\n").map(String.init)
        // ffprobe 5.1 shows a .mov track's name as `handler_name` (the track's `hdlr`; the `udta` name too).
        XCTAssertEqual(streams, ["2,mix", "1,host", "1,guest"], "the mix, then one titled mono track per voice")

        // Beeps on each voice's track, by second of the movie: the host every second, the guest not while gone.
        let hostBeeps = try Self.beepSeconds(movie, track: 1)
        let guestBeeps = try Self.beepSeconds(movie, track: 2)
        XCTAssertEqual(hostBeeps, [0, 1, 2, 3, 4, 5, 6, 7])
        XCTAssertEqual(guestBeeps, [0, 1, 2, 6, 7], "silent from its unplugging (2.5 s) until it was back (5.5 s)")
        // The mix holds both voices where both speak.
        let mix = try Self.samples(movie, track: 0)
        let second = Array(mix[48_000..<(48_000 + 4_800)])
        XCTAssertGreaterThan(Self.power(second, hertz: Self.hostPitch), 100 * Self.power(second, hertz: 3_100))
        XCTAssertGreaterThan(Self.power(second, hertz: Self.guestPitch), 100 * Self.power(second, hertz: 3_100))
    }

    /// The whole seconds of the movie in which track `track` (0: the mix) has a beep within the first 100 ms.
    static func beepSeconds(_ movie: String, track: Int) throws -> [Int] {
        let samples = try samples(movie, track: track)
        return stride(from: 0, to: samples.count - 4_800, by: 48_000).compactMap { start in
            let peak = samples[start..<(start + 4_800)].map { abs(Int($0)) }.max() ?? 0
            return peak > 3_000 ? start / 48_000 : nil
        }
    }

    /// Track `track`'s decoded sound, mono 16-bit at 48 kHz.
    static func samples(_ movie: String, track: Int) throws -> [Int16] {
        let (data, error) = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-i", movie, "-map", "0:a:\(track)",
                                                                  "-f", "s16le", "-ac", "1", "-ar", "48000", "-"])
        XCTAssertFalse(data.isEmpty, error)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
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
