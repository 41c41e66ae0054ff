import XCTest
@testable import PauseCamCore

/// `Recorder`: what it makes of the commands, frames and sound handed to it on the serial context.
final class RecorderTests: XCTestCase {}

/// A frame captured up to half a frame before its slot decides that slot as soon as it arrives, before the slot's
/// time has come; a pause, resume or stop given in between must still take effect at its own time. A table of
/// such cases through a real `Recorder` (found by `OutputClockPropertyTests`, seeds 17, 100 and 111).
extension RecorderTests {
    private enum Step {
        case command(Session.Command, MediaTime)
        case frame(MediaTime)
    }

    private struct Case {
        var name: String
        var steps: [Step]
        /// The slots (capture times) the movie keeps, in order; their file times must be 0, d, 2d…
        var kept: [MediaTime]
    }

    /// Slot k of the grid anchored at 1 s, 30 fps.
    private static func slot(_ k: Int64) -> MediaTime { .seconds(1) + MediaTime(value: k, timescale: 30) }
    private static func ms(_ value: Int64) -> MediaTime { .milliseconds(value) }

    func testCommandsBetweenAFrameAndItsEarlySlotTakeEffectAtTheirTime() throws {
        let slot = RecorderTests.slot, ms = RecorderTests.ms
        // Frame 2 is captured 4.67 ms before slot 2 (1066.67 ms) and decides it on arrival; the command at 1064 ms
        // comes after the frame but before the slot.
        let lead: [Step] = [.command(.record(name: nil), .seconds(1)), .frame(slot(0)), .frame(slot(1)), .frame(ms(1062))]
        let cases = [
            Case(name: "pause", steps: lead + [
                .command(.pause, ms(1064)), .frame(slot(3)), .frame(slot(4)), .command(.stop, ms(1200)), .frame(ms(1210)),
            ], kept: [slot(0), slot(1)]),
            Case(name: "stop", steps: lead + [
                .command(.stop, ms(1064)), .frame(slot(3)),
            ], kept: [slot(0), slot(1)]),
            Case(name: "zero-length pause: the new grid starts at the next frame, one frame after the last", steps: lead + [
                .command(.pause, ms(1064)), .command(.resume(name: nil), ms(1064)), .frame(ms(1070)),
                .frame(ms(1070) + MediaTime(value: 1, timescale: 30)), .command(.stop, ms(1120)), .frame(ms(1140)),
            ], kept: [slot(0), slot(1), ms(1070), ms(1070) + MediaTime(value: 1, timescale: 30)]),
            Case(name: "no command: the early slot is kept once its time has passed", steps: lead + [
                .frame(slot(3)), .command(.stop, ms(1110)), .frame(slot(4)),
            ], kept: [slot(0), slot(1), slot(2), slot(3)]),
        ]
        let d = MediaTime(value: 1, timescale: 30)
        for row in cases {
            let sink = RecordingSink(path: "/clip.mov")
            let recorder = Recorder(description: Recorder.Description(
                rigName: "table", settings: MovieSettings(width: 2, height: 2, rate: FrameRate(30), audio: nil),
                devices: [], sidecarPath: "/clip.json", started: "now"), sink: sink, store: MemorySidecarStore())
            for step in row.steps {
                switch step {
                case .command(let command, let time):
                    if case .failure(let rejection) = recorder.handle(command, at: time) {
                        XCTFail("\(row.name): \(rejection)")
                    }
                case .frame(let pts):
                    recorder.appendVideo(VideoFrame(pts: pts, width: 2, height: 2, format: .yuv420p,
                                                    planes: [Plane(bytes: [0, 0, 0, 0], stride: 2),
                                                             Plane(bytes: [0], stride: 1), Plane(bytes: [0], stride: 1)],
                                                    lens: "main"))
                }
            }
            _ = try recorder.finish(stoppedAt: "later")
            XCTAssertEqual(sink.video.map(\.time), (0..<row.kept.count).map { try! d.multiplied(by: Int64($0)) },
                           "\(row.name): file times")
            XCTAssertEqual(recorder.session.timer, try d.multiplied(by: Int64(row.kept.count)), "\(row.name): timer")
            let starts = recorder.session.scenes.compactMap(\.start)
            let expectedStarts = row.kept.indices.filter { $0 == 0 || row.kept[$0] - row.kept[$0 - 1] != d }
                .map { try! d.multiplied(by: Int64($0)) }
            XCTAssertEqual(starts, expectedStarts, "\(row.name): scene starts")
        }
    }
}

/// Video stalls (every camera gone) while audio goes on, and the hold timer that repeats the held picture runs
/// late (a busy serial context): audio running more than `Retimer.maximumAudioLead` ahead is decided without
/// video, so the recorder must decide the held slots up to there first, or they are dropped as late and the movie
/// loses their places (a hole: variable rate).
extension RecorderTests {
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
