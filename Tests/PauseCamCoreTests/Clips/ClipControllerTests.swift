import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// A clip's life on its own, without devices or lenses: the one outcome from `record` to the end (an
/// interruption kept with what the finish brings, an empty clip discarded), and the one ledger of warnings that
/// wait for clips.
final class ClipControllerTests: XCTestCase {
    private let serialContext = SimulatedSerialContext()
    private let settings = MovieSettings(width: 64, height: 36, rate: FrameRate(30))

    private func makeClips(warnings: [String] = [], events: @escaping (EngineEvent) -> Void = { _ in })
        -> (ClipController, RecordingSinkFactory) {
        let factory = RecordingSinkFactory()
        let clips = ClipController(rig: EngineFixture.makeRig(), sinkFactory: factory, store: MemorySidecarStore(),
                                   serialContext: serialContext,
                                   wallClock: { Date(timeIntervalSince1970: 1_800_000_000) },
                                   outputDirectory: "/videos", warnings: warnings, finishing: InlineWorker(),
                                   notify: events)
        return (clips, factory)
    }

    func testAnInterruptedClipThatGotNoVideoIsNothingRecordedAndKeepsWhy() throws {
        var events: [EngineEvent] = []
        let (clips, factory) = makeClips(events: { events.append($0) })
        XCTAssertEqual(clips.outcome, .undecided)
        let recorder = try clips.open(settings: settings, devices: [])
        XCTAssertTrue(clips.recorder === recorder)
        clips.interrupt(reason: "recording failed: disk full")
        XCTAssertEqual(clips.outcome, .interrupted(reason: "recording failed: disk full"))

        clips.discardEmpty()
        XCTAssertNil(clips.recorder)
        XCTAssertEqual(clips.outcome, .nothingRecorded(interruption: "recording failed: disk full"))
        XCTAssertEqual(clips.outcome.nothingRecorded, EngineEvent.nothingRecorded.text)
        XCTAssertEqual(clips.outcome.interruption, "recording failed: disk full")
        XCTAssertNil(clips.outcome.savedClip)
        XCTAssertNil(clips.outcome.failure)
        XCTAssertTrue(factory.sinks[0].discarded, "an empty clip leaves no movie")
        XCTAssertEqual(events, [.nothingRecorded])

        _ = try clips.open(settings: settings, devices: [])
        XCTAssertEqual(clips.outcome, .undecided, "a new clip starts its outcome over")
    }

    func testWarningsWaitInOneLedgerAndTheNextClipTakesThem() throws {
        let (clips, _) = makeClips(warnings: ["lens tele: no camera matches"])
        XCTAssertEqual(clips.note("focus auto: no focus control"), .nextClip)
        XCTAssertEqual(clips.note("focus auto: no focus control"), .nextClip)
        XCTAssertEqual(clips.warnings.nextClip, ["focus auto: no focus control"], "each once")
        clips.warnClip("a device's news no clip takes")
        clips.warnEveryClip("microphone X could not start: busy")

        _ = try clips.open(settings: settings, devices: [])
        XCTAssertEqual(clips.warnings.nextClip, [], "handed to the clip")
        XCTAssertEqual(clips.warnings.everyClip, ["lens tele: no camera matches", "microphone X could not start: busy"])
        XCTAssertEqual(clips.note("exposure +1: no exposure control"), .nextClip, "a clip not yet recording")
    }

    func testTheLedgerHandsNextClipWarningsOverOnceAndEveryClipWarningsAlways() {
        var ledger = ClipWarnings(everyClip: ["a"])
        ledger.addForNextClip("b")
        ledger.addForNextClip("b")
        XCTAssertEqual(ledger.startClip(), ["a", "b"])
        XCTAssertEqual(ledger.startClip(), ["a"])
    }

    /// Through the whole engine: the sidecar of a recorded clip carries the ledger's warnings, and a clip PauseCam
    /// stopped is saved with the interruption still in its outcome.
    func testASavedClipCarriesTheLedgersWarningsAndTheInterruptionThatStoppedIt() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        let controller = fixture.controller
        fixture.serialContext.perform { _ = controller.clips.note("focus auto: no focus control") }
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        fixture.serialContext.perform { controller.clips.interrupt(reason: "the disk is full") }
        XCTAssertTrue(fixture.runner.perform(.stop).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertEqual(controller.clips.outcome, .saved(clip, interruption: "the disk is full"))
        XCTAssertEqual(controller.clips.outcome.savedClip, clip)
        XCTAssertEqual(controller.clips.outcome.interruption, "the disk is full")
        XCTAssertTrue(clip.sidecar.warnings.contains("focus auto: no focus control"), "\(clip.sidecar.warnings)")
    }
}

/// With ISOs and a rig of voices, each voice (every track after the mix) gets its own file in the clip's `.iso`
/// folder, its first sample at the clip's wall-clock start; without ISOs, none.
extension ClipControllerTests {
    func testEachVoiceGetsItsOwnFileBesideTheISOsAndNoneWithoutThem() throws {
        let waves = RecordingVoiceWaveFactory()
        let clips = ClipController(rig: EngineFixture.makeRig(), sinkFactory: RecordingSinkFactory(), voiceWaves: waves,
                                   store: MemorySidecarStore(), serialContext: serialContext,
                                   wallClock: { Date(timeIntervalSince1970: 1_800_000_000) },
                                   outputDirectory: "/videos", finishing: InlineWorker(), notify: { _ in })
        var settings = settings
        settings.audio?.channels = 4
        settings.audio?.tracks = [MovieSettings.AudioTrack(title: "mix", channels: [0, 1]),
                                  MovieSettings.AudioTrack(title: "host", channels: [2]),
                                  MovieSettings.AudioTrack(title: "guest", channels: [3])]
        let lens = IsoRecorder.Lens(role: "wide", width: 64, height: 36, rate: FrameRate(30))
        let recorder = try clips.open(settings: settings, devices: [], isos: [lens],
                                      voices: [Recorder.Voice(name: "host", device: "Scarlett")])
        XCTAssertEqual(waves.sinks.map(\.voice), ["host", "guest"])
        XCTAssertEqual(recorder.voiceWaves.map(\.channel), [2, 3])
        let movie = recorder.moviePath
        XCTAssertEqual(waves.sinks.map(\.path), ["host", "guest"].map { String(movie.dropLast(4)) + ".iso/\($0).wav" })
        XCTAssertEqual(waves.startedAt, Array(repeating: Date(timeIntervalSince1970: 1_800_000_000), count: 2))
        XCTAssertEqual(recorder.description.voices, [Recorder.Voice(name: "host", device: "Scarlett")])
        recorder.discard()

        let withoutIsos = try clips.open(settings: settings, devices: [])
        XCTAssertTrue(withoutIsos.voiceWaves.isEmpty, "voice files are ISO sound")
        XCTAssertEqual(waves.sinks.count, 2)
    }
}
