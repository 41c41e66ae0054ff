import XCTest
@testable import PauseCamCore

/// Video stalls (every camera gone) while audio goes on, and the hold timer that repeats the held picture runs
/// late (a busy serial context): audio running more than `Retimer.maximumAudioLead` ahead is decided without
/// video, so the recorder must decide the held slots up to there first, or they are dropped as late and the movie
/// loses their places (a hole: variable rate).
final class RecorderAudioLeadTests: XCTestCase {
    func testAStalledVideoWhoseHoldRunsLateKeepsEverySlot() throws {
        let d = MediaTime(value: 1, timescale: 30)
        let sink = RecordingSink(path: "/clip.mov")
        let recorder = Recorder(description: Recorder.Description(
            rigName: "lead", settings: MovieSettings(width: 2, height: 2, rate: FrameRate(30),
                                                     audio: .init(sampleRate: 48_000, channels: 1, declick: false)),
            devices: [], sidecarPath: "/clip.json", started: "now"), sink: sink, store: MemorySidecarStore())
        func frame(_ index: Int64) -> VideoFrame {
            VideoFrame(pts: try! d.multiplied(by: index), width: 2, height: 2, format: .yuv420p,
                       planes: [Plane(bytes: [0, 0, 0, 0], stride: 2), Plane(bytes: [0], stride: 1),
                                Plane(bytes: [0], stride: 1)], lens: "main")
        }
        func audio(milliseconds: Int64) -> AudioChunk {
            AudioChunk(pts: .milliseconds(milliseconds), sampleRate: 48_000, channels: 1,
                       samples: Array(repeating: 0, count: 960))
        }
        if case .failure(let rejection) = recorder.handle(.record(name: nil), at: .zero) { XCTFail("\(rejection)") }
        // Half a second of video and audio, then only audio for 3.5 s more: no frame, and no hold timer.
        for index: Int64 in 0..<15 { recorder.appendVideo(frame(index)) }
        for chunk in 0..<200 { recorder.appendAudio(audio(milliseconds: Int64(chunk) * 20)) }
        // The late hold timer, then the camera back at 4 s, and the stop.
        recorder.holdVideo(before: .milliseconds(3500))
        for index: Int64 in 120..<135 { recorder.appendVideo(frame(index)) }
        if case .failure(let rejection) = recorder.handle(.stop, at: try d.multiplied(by: 135)) {
            XCTFail("\(rejection)")
        }
        recorder.holdVideo(before: .seconds(5))
        _ = try recorder.finish(stoppedAt: "later")
        let times = sink.video.map(\.time)
        XCTAssertEqual(times, (0..<Int64(times.count)).map { try! d.multiplied(by: $0) }, "every slot kept its place")
        XCTAssertEqual(times.count, 135, "4.5 s at 30 fps")
        XCTAssertEqual(recorder.retimer.counters.lateVideoFrames, 0, "no slot was dropped as late")
    }
}
