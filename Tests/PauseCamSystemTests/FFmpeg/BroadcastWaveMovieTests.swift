import Foundation
import XCTest
@testable import PauseCamCore
@testable import PauseCamSystem

/// A voice file beside a real movie: the recorder hands the voice's channel of the sound the movie gets to the
/// Broadcast WAV, and after a `retake` both leave out the same take, so the WAV is as long as the movie's sound
/// within one AAC packet (1024 samples: the movie cuts sound at whole packets, the WAV at the exact sample).
final class BroadcastWaveMovieTests: XCTestCase {
    func testTheVoiceFileIsAsLongAsTheMoviesSoundAfterARetake() throws {
        let directory = try MovieWriterFixture.directory("bwf")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var settings = MovieWriterFixture.settings()
        settings.audio?.declick = false
        let sink = try MovieWriterFactory().makeSink(directory: directory, baseName: "clip", settings: settings)
        let recorder = Recorder(description: Recorder.Description(rigName: "voices", settings: settings, devices: [],
                                                                  sidecarPath: directory + "/clip.json", started: "now"),
                                sink: sink, store: AtomicSidecarStore())
        let wave = try BroadcastWaveWriterFactory(timeZone: try XCTUnwrap(TimeZone(identifier: "UTC")))
            .makeVoiceSink(directory: directory + "/clip.iso", voice: "host", sampleRate: 48_000,
                           startedAt: Date(timeIntervalSince1970: 1_800_000_000), blockWhenBehind: true)
        recorder.addVoiceWave(wave, channel: 0)
        func record(frames: Range<Int>) {
            for index in frames {
                var frame = MovieWriterFixture.movingFrame(width: 320, height: 180, index: index)
                frame.pts = MediaTime(value: Int64(index), timescale: 30)
                recorder.appendVideo(frame)
                recorder.appendAudio(MovieWriterFixture.audioChunk(index: index))
            }
        }
        func succeed(_ result: Result<[Session.Action], Session.Rejection>) {
            if case .failure(let rejection) = result { XCTFail("\(rejection)") }
        }
        succeed(recorder.handle(.record(name: nil), at: .zero))
        record(frames: 0..<45)
        succeed(recorder.handle(.chapter(name: nil), at: MediaTime(value: 45, timescale: 30)))
        record(frames: 45..<77)
        succeed(recorder.handle(.retake, at: MediaTime(value: 77, timescale: 30)))
        record(frames: 77..<120)
        succeed(recorder.handle(.stop, at: .seconds(4)))
        let clip = try recorder.finish(stoppedAt: "later")
        XCTAssertEqual(clip.sidecar.retakes?.count, 1)

        let (text, _) = try MovieWriterFixture.run("ffprobe", ["-v", "error", "-show_entries",
                                                               "stream=codec_type,duration", "-of", "csv=p=0",
                                                               clip.moviePath])
        var durations: [String: Double] = [:]
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: ",")
            if fields.count == 2, let value = Double(fields[1]) { durations[String(fields[0])] = value }
        }
        let movieSound = try XCTUnwrap(durations["audio"])
        XCTAssertEqual(try XCTUnwrap(durations["video"]), 88.0 / 30, accuracy: 1e-3, "the first take of scene 2 left out")
        let format = try MovieWriterFixture.probe(wave.path, ["-show_format"])["format"] as? [String: Any]
        let waveLength = try XCTUnwrap(MovieWriterFixture.double(format?["duration"]))
        XCTAssertEqual(waveLength, movieSound, accuracy: 1024.0 / 48_000, "within one AAC packet")
        XCTAssertEqual(try BroadcastWaveWriterTests.soxSamples(wave.path).map { Double($0) / 48_000 } ?? 0, waveLength,
                       accuracy: 1e-5, "ffprobe and sox agree")
    }
}
