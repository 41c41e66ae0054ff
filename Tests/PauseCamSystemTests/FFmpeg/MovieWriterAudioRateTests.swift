import Foundation
import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// The movie takes the microphone's negotiated rate: a 44.1 kHz microphone gives a 44.1 kHz AAC track, in sync,
/// and a long hole in the audio is filled (in capped runs) without losing sync.
final class MovieWriterAudioRateTests: XCTestCase {
    func testA441kHzMicrophoneGivesA441kHzTrackAsLongAsTheVideo() throws {
        let directory = try MovieWriterFixture.directory("rate441")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var settings = MovieWriterFixture.settings()
        settings.audio = MovieSettings.AudioSettings(sampleRate: 44_100, channels: 2)
        let sink = try MovieWriterFactory().makeSink(directory: directory, baseName: "mic", settings: settings)
        for index in 0..<90 {
            try sink.appendVideo(MovieWriterFixture.solidFrame(width: 320, height: 180, y: 90),
                                 at: MediaTime(value: Int64(index), timescale: 30), keyframe: index == 0)
            try sink.appendAudio(MovieWriterFixture.audioChunk(index: index, sampleRate: 44_100, channels: 2))
        }
        let summary = try sink.finish(chapters: [])
        let streams = try MovieWriterFixture.probe(summary.path, ["-show_streams"])["streams"] as? [[String: Any]] ?? []
        XCTAssertEqual(streams.last?["codec_name"] as? String, "aac")
        XCTAssertEqual(streams.last?["sample_rate"] as? String, "44100")
        XCTAssertEqual(streams.last?["channels"] as? Int, 2)
        let durations = streams.compactMap { MovieWriterFixture.double($0["duration"]) }
        XCTAssertEqual(durations.count, 2)
        XCTAssertEqual(durations[1], durations[0], accuracy: 1024.0 / 44_100 + 1e-3, "audio as long as video")
        XCTAssertEqual(Double(summary.audioSamplesWritten) / 44_100, 3.0, accuracy: 0.03)
    }

    /// A minute without audio (chunks lost) followed by more audio: the encoder fills the minute with silence
    /// and the later audio lands at its file time.
    func testAMinuteLongHoleIsFilledAndTheAudioAfterItStaysInPlace() throws {
        let encoder = try AudioEncoder(settings: MovieSettings.AudioSettings(sampleRate: 48_000, channels: 1),
                                       globalHeader: true)
        var packets = 0
        try encoder.append(MovieWriterFixture.audioChunk(index: 0), emit: { _ in packets += 1 })
        var later = MovieWriterFixture.audioChunk(index: 0)
        later.pts = .seconds(60)
        try encoder.append(later, emit: { _ in packets += 1 })
        try encoder.flush(emit: { _ in packets += 1 })
        XCTAssertEqual(encoder.samplesWritten, 60 * 48_000 + 1600)
        XCTAssertGreaterThanOrEqual(packets, 60 * 48_000 / 1024)
    }
}
