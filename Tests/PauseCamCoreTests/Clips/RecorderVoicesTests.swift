import Foundation
import XCTest
@testable import PauseCamCore

/// A voice file that keeps what it is given, for checking the recorder's wiring without FFmpeg.
/// Unchecked Sendable: a fake driven by one thread at a time (the test's, or the worker it hands the clip to).
final class RecordingVoiceWaveSink: VoiceWaveSink, @unchecked Sendable {
    let voice: String
    let path: String
    var appended: [(samples: [Int16], fileTime: MediaTime)] = []
    var finishedSpans: [Range<MediaTime>]?
    var aborted = false
    var discarded = false
    var failOnAppend = false
    var droppedOnFinish = 0

    init(voice: String, path: String) {
        self.voice = voice
        self.path = path
    }

    func append(_ samples: [Int16], at fileTime: MediaTime) throws {
        if failOnAppend { throw CocoaError(.fileWriteOutOfSpace) }
        appended.append((samples, fileTime))
    }
    func finish(discarding spans: [Range<MediaTime>]) throws -> VoiceWaveSummary {
        finishedSpans = spans
        return VoiceWaveSummary(path: path, samples: appended.reduce(0) { $0 + $1.samples.count },
                                samplesDropped: droppedOnFinish)
    }
    func abort() { aborted = true }
    func discard() { discarded = true }
}

/// Makes `RecordingVoiceWaveSink`s and remembers them.
final class RecordingVoiceWaveFactory: VoiceWaveSinkFactory {
    var sinks: [RecordingVoiceWaveSink] = []
    var startedAt: [Date] = []
    func makeVoiceSink(directory: String, voice: String, sampleRate: Int32, startedAt: Date,
                       blockWhenBehind: Bool) throws -> any VoiceWaveSink {
        let sink = RecordingVoiceWaveSink(voice: voice, path: "\(directory)/\(voice).wav")
        sinks.append(sink)
        self.startedAt.append(startedAt)
        return sink
    }
}

/// A movie sink that accepts `retake`'s spans and remembers them.
/// Unchecked Sendable: a fake driven by one thread at a time.
final class CuttingSink: MovieSink, @unchecked Sendable {
    let moviePath: String
    var partialPath: String { moviePath + ".partial" }
    var droppedVideoFrames: Int { 0 }
    var frames = 0
    var spans: [Range<MediaTime>]?
    init(path: String) { moviePath = path }
    func appendVideo(_ frame: VideoFrame, at fileTime: MediaTime, keyframe: Bool) throws { frames += 1 }
    func setThumbnail(_ frame: VideoFrame) {}
    func appendAudio(_ chunk: AudioChunk) throws {}
    func finish(chapters: [Chapter]) throws -> MovieSummary { try finish(chapters: chapters, discarding: []) }
    func finish(chapters: [Chapter], discarding spans: [Range<MediaTime>]) throws -> MovieSummary {
        self.spans = spans
        return MovieSummary(path: moviePath, videoFramesWritten: frames, videoFramesDropped: 0, audioSamplesWritten: 0)
    }
    func abort() {}
}

/// The recorder with several voices: each voice's channel to its own file at its file time, finished with the
/// movie's discarded spans, removed with an empty clip; the sidecar's tracks, each voice's gone spans, and the
/// switches `follow` made.
final class RecorderVoicesTests: XCTestCase {
    private let d = MediaTime(value: 1, timescale: 30)
    private static let tracks = [MovieSettings.AudioTrack(title: "mix", channels: [0, 1]),
                                 MovieSettings.AudioTrack(title: "host", channels: [2]),
                                 MovieSettings.AudioTrack(title: "guest", channels: [3])]

    private func makeRecorder(sink: any MovieSink) -> Recorder {
        var audio = MovieSettings.AudioSettings(sampleRate: 48_000, channels: 4, declick: false)
        audio.tracks = Self.tracks
        var description = Recorder.Description(
            rigName: "voices", settings: MovieSettings(width: 2, height: 2, rate: FrameRate(30), audio: audio),
            devices: [], sidecarPath: "/clip.json", started: "now")
        description.voices = [Recorder.Voice(name: "host", device: "Scarlett 2i2 USB"),
                              Recorder.Voice(name: "guest", device: "Blue Yeti")]
        return Recorder(description: description, sink: sink, store: MemorySidecarStore())
    }

    private func frame(_ index: Int64, lens: String = "main") -> VideoFrame {
        VideoFrame(pts: try! d.multiplied(by: index), width: 2, height: 2, format: .yuv420p,
                   planes: [Plane(bytes: [0, 0, 0, 0], stride: 2), Plane(bytes: [0], stride: 1),
                            Plane(bytes: [0], stride: 1)], lens: lens)
    }

    /// 20 ms of four channels from `milliseconds`: the mix 1 and 2, the host 100 + n, the guest its bitwise complement, for
    /// sample n of the clip.
    private func chunk(milliseconds: Int64) -> AudioChunk {
        let first = Int(milliseconds) * 48
        let samples = (0..<960).flatMap { n -> [Int16] in
            let value = Int16(truncatingIfNeeded: 100 + first + n)
            return [1, 2, value, ~value]
        }
        return AudioChunk(pts: .milliseconds(milliseconds), sampleRate: 48_000, channels: 4, samples: samples)
    }

    private func succeed(_ result: Result<[Session.Action], Session.Rejection>) {
        if case .failure(let rejection) = result { XCTFail("\(rejection)") }
    }

    func testEachVoiceChannelGoesToItsOwnFileAtItsFileTime() throws {
        let sink = RecordingSink(path: "/clip.mov")
        let recorder = makeRecorder(sink: sink)
        let host = RecordingVoiceWaveSink(voice: "host", path: "/clip.iso/host.wav")
        let guest = RecordingVoiceWaveSink(voice: "guest", path: "/clip.iso/guest.wav")
        recorder.addVoiceWave(host, channel: 2)
        recorder.addVoiceWave(guest, channel: 3)
        succeed(recorder.handle(.record(name: nil), at: .zero))
        for index: Int64 in 0..<30 { recorder.appendVideo(frame(index)) }
        for piece: Int64 in 0..<50 { recorder.appendAudio(chunk(milliseconds: piece * 20)) }
        succeed(recorder.handle(.stop, at: .seconds(1)))
        let clip = try recorder.finish(stoppedAt: "later")

        let hostSamples = host.appended.flatMap(\.samples)
        XCTAssertEqual(hostSamples.count, 48_000, "one second of the host")
        XCTAssertEqual(hostSamples, (0..<48_000).map { Int16(truncatingIfNeeded: 100 + $0) }, "channel 2, in order")
        XCTAssertEqual(guest.appended.flatMap(\.samples), hostSamples.map { ~$0 }, "channel 3")
        let movieTimes = sink.audio.map(\.pts)
        XCTAssertEqual(host.appended.map(\.fileTime), movieTimes, "each piece at the movie's file time")
        XCTAssertEqual(host.finishedSpans, [], "finished with the movie")
        XCTAssertEqual(guest.finishedSpans, [])

        let tracks = try XCTUnwrap(clip.sidecar.audio?.tracks)
        XCTAssertEqual(tracks, [
            Sidecar.AudioTrack(title: "mix", channels: [0, 1]),
            Sidecar.AudioTrack(title: "host", channels: [2], microphone: "Scarlett 2i2 USB", file: "clip.iso/host.wav"),
            Sidecar.AudioTrack(title: "guest", channels: [3], microphone: "Blue Yeti", file: "clip.iso/guest.wav"),
        ])
        let json = String(decoding: try clip.sidecar.encoded(), as: UTF8.self)
        XCTAssertTrue(json.contains("\"file\" : \"clip.iso/host.wav\""), json)
        XCTAssertEqual(try Sidecar.decode(clip.sidecar.encoded()), clip.sidecar, "reads back")
    }

    func testARetakesSpansAreLeftOutOfEveryVoiceFileAsOutOfTheMovie() throws {
        let sink = CuttingSink(path: "/clip.mov")
        let recorder = makeRecorder(sink: sink)
        let host = RecordingVoiceWaveSink(voice: "host", path: "/clip.iso/host.wav")
        recorder.addVoiceWave(host, channel: 2)
        succeed(recorder.handle(.record(name: nil), at: .zero))
        for index: Int64 in 0..<30 { recorder.appendVideo(frame(index)) }
        for piece: Int64 in 0..<50 { recorder.appendAudio(chunk(milliseconds: piece * 20)) }
        succeed(recorder.handle(.retake, at: .seconds(1)))
        for index: Int64 in 30..<60 { recorder.appendVideo(frame(index)) }
        for piece: Int64 in 50..<100 { recorder.appendAudio(chunk(milliseconds: piece * 20)) }
        succeed(recorder.handle(.stop, at: .seconds(2)))
        _ = try recorder.finish(stoppedAt: "later")

        let spans = try XCTUnwrap(sink.spans)
        XCTAssertFalse(spans.isEmpty, "the retake discarded a span")
        XCTAssertEqual(host.finishedSpans, spans, "the voice file leaves out exactly the movie's spans")
    }

    func testAClipDiscardedRemovesItsVoiceFilesAndAFailedOneIsAWarning() throws {
        let recorder = makeRecorder(sink: RecordingSink(path: "/clip.mov"))
        let host = RecordingVoiceWaveSink(voice: "host", path: "/clip.iso/host.wav")
        recorder.addVoiceWave(host, channel: 2)
        recorder.discard()
        XCTAssertTrue(host.discarded)

        let second = makeRecorder(sink: RecordingSink(path: "/clip.mov"))
        let broken = RecordingVoiceWaveSink(voice: "guest", path: "/clip.iso/guest.wav")
        broken.failOnAppend = true
        second.addVoiceWave(broken, channel: 3)
        let behind = RecordingVoiceWaveSink(voice: "host", path: "/clip.iso/host.wav")
        behind.droppedOnFinish = 960
        second.addVoiceWave(behind, channel: 2)
        succeed(second.handle(.record(name: nil), at: .zero))
        for index: Int64 in 0..<30 { second.appendVideo(frame(index)) }
        for piece: Int64 in 0..<50 { second.appendAudio(chunk(milliseconds: piece * 20)) }
        succeed(second.handle(.stop, at: .seconds(1)))
        let clip = try second.finish(stoppedAt: "later")
        XCTAssertTrue(broken.aborted, "kept as it is")
        XCTAssertNil(broken.finishedSpans)
        XCTAssertTrue(clip.sidecar.warnings.contains { $0.hasPrefix("the sound file of voice guest stopped") },
                      "\(clip.sidecar.warnings)")
        XCTAssertTrue(clip.sidecar.warnings.contains("960 samples of voice host's sound file are silence: its writer "
                                                     + "fell behind"), "\(clip.sidecar.warnings)")
        XCTAssertEqual(clip.sidecar.video.framesWritten, 30, "the movie is saved whatever the voice file did")
    }

    func testAVoicesGoneSpansAreInItsTrackAndOneStillOpenEndsWithTheClip() throws {
        let recorder = makeRecorder(sink: RecordingSink(path: "/clip.mov"))
        succeed(recorder.handle(.record(name: nil), at: .zero))
        for index: Int64 in 0..<15 { recorder.appendVideo(frame(index)) }
        recorder.noteVoiceGone("guest")
        recorder.noteVoiceGone("guest")
        for index: Int64 in 15..<30 { recorder.appendVideo(frame(index)) }
        recorder.noteVoiceBack("guest")
        recorder.noteVoiceBack("guest")
        for index: Int64 in 30..<45 { recorder.appendVideo(frame(index)) }
        recorder.noteVoiceGone("host")
        let gone = { (sidecar: Sidecar, voice: String) in
            sidecar.audio?.tracks?.first { $0.title == voice }?.gone
        }
        let interim = recorder.makeSidecar(complete: false)
        XCTAssertEqual(gone(interim, "guest"), [Sidecar.VoiceGone(start: 0.5, duration: 0.5)], "once each way")
        XCTAssertEqual(gone(interim, "host"), [Sidecar.VoiceGone(start: 1.5, duration: nil)], "still gone")
        XCTAssertNil(gone(interim, "mix"))
        for index: Int64 in 45..<60 { recorder.appendVideo(frame(index)) }
        succeed(recorder.handle(.stop, at: .seconds(2)))
        let clip = try recorder.finish(stoppedAt: "later")
        XCTAssertEqual(gone(clip.sidecar, "host"), [Sidecar.VoiceGone(start: 1.5, duration: 0.5)],
                       "ends with the clip")
        XCTAssertEqual(try Sidecar.decode(interim.encoded()), interim, "an open span reads back as open")
    }

    func testTheSwitchFollowMadeIsAutomaticWithItsVoicesAndAManualOneIsNot() throws {
        let recorder = makeRecorder(sink: RecordingSink(path: "/clip.mov"))
        succeed(recorder.handle(.record(name: nil), at: .zero))
        for index: Int64 in 0..<10 { recorder.appendVideo(frame(index)) }
        recorder.noteFollowCut(lens: "wide", voices: ["host", "guest"])
        recorder.noteSwitch(to: "wide", requested: try d.multiplied(by: 10))
        for index: Int64 in 10..<20 { recorder.appendVideo(frame(index, lens: "wide")) }
        recorder.noteSwitch(to: "main", requested: try d.multiplied(by: 20))
        for index: Int64 in 20..<30 { recorder.appendVideo(frame(index)) }
        // Told just after its switch was noted: still marks it.
        recorder.noteSwitch(to: "tele", requested: try d.multiplied(by: 30))
        recorder.noteFollowCut(lens: "tele", voices: [])
        for index: Int64 in 30..<40 { recorder.appendVideo(frame(index, lens: "tele")) }
        // A follow cut to a lens whose switch never came marks nothing later.
        recorder.noteFollowCut(lens: "wide", voices: ["host"])
        recorder.noteSwitch(to: "main", requested: try d.multiplied(by: 40))
        for index: Int64 in 40..<50 { recorder.appendVideo(frame(index)) }
        succeed(recorder.handle(.stop, at: try d.multiplied(by: 50)))
        let clip = try recorder.finish(stoppedAt: "later")
        XCTAssertEqual(clip.sidecar.switches.map(\.lens), ["wide", "main", "tele", "main"])
        XCTAssertEqual(clip.sidecar.switches.map(\.auto), [true, nil, true, nil])
        XCTAssertEqual(clip.sidecar.switches.map(\.voices), [["host", "guest"], nil, [], nil])
        let json = String(decoding: try clip.sidecar.encoded(), as: UTF8.self)
        XCTAssertTrue(json.contains("\"auto\" : true"), json)
    }
}
