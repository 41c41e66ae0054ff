import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// The engine end to end on the virtual rig and the simulated clock, with a sink that records what it gets.
final class RigControllerTests: XCTestCase {
    func run(_ fixture: EngineFixture.Fixture, _ steps: [Command]) -> Recorder.Clip? {
        for step in steps {
            let reply = fixture.runner.perform(step)
            XCTAssertTrue(reply.ok, "\(step): \(reply.message)")
        }
        return fixture.runner.finishClip()
    }

    func testPausesCutTheGapsAndScenesFollowResumes() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        let clip = try XCTUnwrap(run(fixture, [
            .record(name: "Intro"), .wait(.milliseconds(1000)), .pause, .wait(.seconds(5)),
            .resume(name: nil), .wait(.milliseconds(500)), .pause, .wait(.milliseconds(370)),
            .resume(name: "Last"), .wait(.seconds(1)), .stop,
        ]))
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        XCTAssertTrue(sink.finished)
        // 1 s + 0.5 s + 1 s of 30 fps video, with the gaps cut out.
        XCTAssertEqual(sink.video.count, 75)
        let times = sink.video.map(\.time)
        for (a, b) in zip(times, times.dropFirst()) { XCTAssertEqual(b - a, MediaTime(value: 1, timescale: 30)) }
        XCTAssertEqual(times.first, .zero)
        XCTAssertEqual(clip.sidecar.scenes.map(\.title), ["Intro", "Scene 2", "Last"])
        XCTAssertEqual(sink.chapters.map(\.start), [.zero, .seconds(1), MediaTime(value: 3, timescale: 2)])
        XCTAssertEqual(clip.sidecar.pauses.count, 2)
        XCTAssertEqual(clip.sidecar.pauses[0].wallDuration, 5)
        // Audio: contiguous from 0 to the end of the video, within one chunk.
        let audioSamples = sink.audio.reduce(0) { $0 + $1.frameCount }
        XCTAssertEqual(Double(audioSamples) / 48_000, 2.5, accuracy: 0.011)
        var expected = MediaTime.zero
        for piece in sink.audio {
            XCTAssertLessThanOrEqual(abs((piece.pts - expected).seconds), 1.0 / 48_000, "audio gap at \(piece.pts)")
            expected = piece.end
        }
        XCTAssertTrue(clip.sidecar.complete)
        XCTAssertEqual(clip.sidecar.duration, 2.5, accuracy: 1e-9)
    }

    func testLensSwitchesAreRecordedAsSegmentsWithKeyframes() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        let clip = try XCTUnwrap(run(fixture, [
            .record(name: nil), .wait(.seconds(1)), .lens(.named("wide")), .wait(.seconds(1)),
            .zoom(.preset("2x")), .wait(.seconds(1)), .lens(.named("tele")), .wait(.seconds(1)), .stop,
        ]))
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        XCTAssertEqual(clip.sidecar.scenes[0].lenses.map(\.lens), ["main", "wide", "main", "tele"])
        XCTAssertEqual(clip.sidecar.scenes[0].lenses.map(\.start), [0, 1, 2, 3])
        let switches = sink.video.indices.filter { $0 > 0 && sink.video[$0].lens != sink.video[$0 - 1].lens }
        XCTAssertEqual(switches.count, 3)
        for index in switches { XCTAssertTrue(sink.video[index].keyframe, "no keyframe at switch \(index)") }
        // The digital zoom ramps over 400 ms: crops shrink, then hold at half the frame.
        let zoomed = sink.video.filter { $0.lens == "main" && $0.time >= .seconds(2) }
        XCTAssertEqual(zoomed.last?.crop, PixelRect(x: 16, y: 8, width: 32, height: 18))
        XCTAssertGreaterThan(zoomed[3].crop?.width ?? 0, 32)
    }

    func testMisusedCommandsAreRejectedAndChangeNothing() {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        XCTAssertFalse(fixture.runner.perform(.pause).ok)
        XCTAssertFalse(fixture.runner.perform(.lens(.named("zoomy"))).ok)
        XCTAssertTrue(fixture.runner.perform(.lens(.named("zoomy"))).message.contains("lenses: wide, main, tele"))
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertFalse(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertFalse(fixture.runner.perform(.resume(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        XCTAssertEqual(fixture.controller.status.state, .recording)
        XCTAssertEqual(fixture.controller.status.timer, .seconds(1))
    }

    func testTwoRunsGiveTheSameTimestamps() throws {
        func once() throws -> [MediaTime] {
            let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig(fps: 25))
            _ = run(fixture, [.record(name: nil), .wait(.milliseconds(730)), .pause, .wait(.milliseconds(290)),
                              .resume(name: nil), .wait(.milliseconds(1130)), .stop])
            let sink = try XCTUnwrap(fixture.factory.sinks.first)
            return sink.video.map(\.time) + sink.audio.map(\.pts)
        }
        XCTAssertEqual(try once(), try once())
    }
}

/// Lens hot-plug, unplug fallback and cold standby, on virtual lenses.
final class RigControllerDeviceTests: XCTestCase {
    func makeRig(standby: Rig.Standby = .hot, onAttach: Rig.AttachPolicy = .switch) -> Rig {
        var rig = EngineFixture.makeRig()
        rig.standby = standby
        rig.onAttach = onAttach
        return rig
    }

    func testUnpluggingTheActiveLensFallsBackToTheNearestZoomAndTheClipGoesOn() throws {
        let fixture = EngineFixture.makeFixture(rig: makeRig())
        let main = try XCTUnwrap(fixture.controller.devices.cameras["main"] as? VirtualLens)
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        fixture.serialContext.perform { main.unplug() }
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        // main (zoom 1) is nearer to wide (0.5) than to tele (3).
        XCTAssertEqual(clip.sidecar.scenes[0].lenses.map(\.lens), ["main", "wide"])
        XCTAssertEqual(clip.sidecar.duration, 2, accuracy: 1.0 / 30 + 1e-9)
        XCTAssertTrue(clip.sidecar.warnings.contains { $0.contains("lens main lost its camera") }, "\(clip.sidecar.warnings)")
        XCTAssertTrue(fixture.events.contains(.lensSwitched(lens: "wide")), "\(fixture.events)")
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        let times = sink.video.map(\.time)
        for (a, b) in zip(times, times.dropFirst()) { XCTAssertEqual(b - a, MediaTime(value: 1, timescale: 30)) }
        XCTAssertNil(fixture.controller.devices.cameras["main"])
        XCTAssertFalse(fixture.runner.perform(.lens(.named("main"))).ok)
    }

    /// Every alarm has its all-clear: the only lens lost (the movie holds, then slates) and its camera back is told
    /// as `lens_back`, after `no_camera_left`.
    func testTheLostLensBackIsToldAsTheAlarmsAllClear() throws {
        var rig = EngineFixture.makeRig()
        rig.lenses = rig.lenses.filter { $0.name == "main" }
        rig.defaultLens = "main"
        let fixture = EngineFixture.makeFixture(rig: rig)
        let main = try XCTUnwrap(fixture.controller.devices.cameras["main"] as? VirtualLens)
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        fixture.serialContext.perform { main.unplug() }
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        XCTAssertTrue(fixture.events.contains(.noCameraLeft), "\(fixture.events)")
        XCTAssertFalse(fixture.events.contains(.lensBack(lens: "main")), "\(fixture.events)")
        let replacement = VirtualLens(lens: "main", color: RGBColor(hex: "#20c040")!, width: 64, height: 36,
                                      rate: FrameRate(30), serialContext: fixture.serialContext)
        fixture.serialContext.perform { fixture.controller.attach(replacement, lens: "main") }
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        let told = fixture.events
        let lost = try XCTUnwrap(told.firstIndex(of: .noCameraLeft))
        let back = try XCTUnwrap(told.firstIndex(of: .lensBack(lens: "main")), "\(told)")
        XCTAssertLessThan(lost, back)
        XCTAssertEqual(EngineEvent.lensBack(lens: "main").text, "lens main sends frames again: the movie shows it again")
        _ = try XCTUnwrap(fixture.runner.finishClip())
    }

    func testPluggingALensCameraInMidClipSwitchesToItWithOnAttachSwitch() throws {
        let fixture = EngineFixture.makeFixture(rig: makeRig(onAttach: .switch))
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        let replacement = VirtualLens(lens: "tele", color: RGBColor(hex: "#3050e0")!, width: 64, height: 36,
                                      rate: FrameRate(30), serialContext: fixture.serialContext)
        fixture.serialContext.perform { fixture.controller.attach(replacement, lens: "tele") }
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertEqual(clip.sidecar.scenes[0].lenses.map(\.lens), ["main", "tele"])
        XCTAssertEqual(replacement.startCount, 1)
        XCTAssertTrue(replacement.isRunning)
    }

    func testPluggingInWithOnAttachStayKeepsTheActiveLens() throws {
        let fixture = EngineFixture.makeFixture(rig: makeRig(onAttach: .stay))
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        let replacement = VirtualLens(lens: "tele", color: RGBColor(hex: "#3050e0")!, width: 64, height: 36,
                                      rate: FrameRate(30), serialContext: fixture.serialContext)
        fixture.serialContext.perform { fixture.controller.attach(replacement, lens: "tele") }
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertEqual(clip.sidecar.scenes[0].lenses.map(\.lens), ["main"])
        XCTAssertTrue(replacement.isRunning, "hot standby streams an attached lens")
    }

    func testColdStandbyOpensOnlyTheActiveLensAndClosesTheOldOneAfterASwitch() throws {
        let fixture = EngineFixture.makeFixture(rig: makeRig(standby: .cold))
        let lenses = try ["wide", "main", "tele"].map { try XCTUnwrap(fixture.controller.devices.cameras[$0] as? VirtualLens) }
        XCTAssertEqual(lenses.map(\.isRunning), [false, true, false])
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        XCTAssertTrue(fixture.runner.perform(.lens(.named("tele"))).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        XCTAssertEqual(lenses.map(\.isRunning), [false, false, true])
        XCTAssertTrue(fixture.runner.perform(.lens(.next)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        XCTAssertEqual(lenses.map(\.isRunning), [true, false, false])
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertEqual(clip.sidecar.scenes[0].lenses.map(\.lens), ["main", "tele", "wide"])
        XCTAssertEqual(clip.sidecar.duration, 3, accuracy: 1.0 / 30 + 1e-9)
    }

    func testColdStandbySwitchBetweenFramesKeepsTheNewLensAndIdleSwitchesCloseTheOldCamera() throws {
        let fixture = EngineFixture.makeFixture(rig: makeRig(standby: .cold))
        let lenses = try ["wide", "main", "tele"].map { try XCTUnwrap(fixture.controller.devices.cameras[$0] as? VirtualLens) }
        // Idle switches: the old camera closes at once.
        XCTAssertTrue(fixture.runner.perform(.lens(.named("tele"))).ok)
        XCTAssertTrue(fixture.runner.perform(.lens(.named("wide"))).ok)
        XCTAssertEqual(lenses.map(\.isRunning), [true, false, false])
        XCTAssertTrue(fixture.runner.perform(.lens(.named("main"))).ok)
        // Mid-clip, a switch 0.5 ms after a frame's capture: that frame of the old lens arrives after the switch
        // (frames are delivered 1 ms after capture) and must not stop the new lens.
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(MediaTime(value: 2001, timescale: 2000))).ok)
        XCTAssertTrue(fixture.runner.perform(.lens(.named("tele"))).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        XCTAssertEqual(lenses.map(\.isRunning), [false, false, true])
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertEqual(clip.sidecar.scenes[0].lenses.map(\.lens), ["main", "tele"])
        XCTAssertEqual(clip.sidecar.duration, 2, accuracy: 2.0 / 30)
    }

    func testAudioAfterEveryCameraWasUnpluggedStaysInSyncWithTheNextScene() throws {
        let fixture = EngineFixture.makeFixture(rig: makeRig())
        let cameras = try ["wide", "main", "tele"].map { try XCTUnwrap(fixture.controller.devices.cameras[$0] as? VirtualLens) }
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        fixture.serialContext.perform { cameras.forEach { $0.unplug() } }
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(3))).ok)
        XCTAssertTrue(fixture.runner.perform(.pause).ok)
        let replacement = VirtualLens(lens: "main", color: RGBColor(hex: "#20c040")!, width: 64, height: 36,
                                      rate: FrameRate(30), serialContext: fixture.serialContext)
        fixture.serialContext.perform { fixture.controller.attach(replacement, lens: "main") }
        XCTAssertTrue(fixture.runner.perform(.resume(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(2))).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        XCTAssertEqual(clip.sidecar.audio?.lateSamplesDropped, 0)
        // Scene 2's video starts where the audio of the camera-less stretch ended, not under it.
        let scene2 = clip.sidecar.scenes[1]
        let audioBefore = sink.audio.filter { $0.pts.seconds < scene2.start - 1e-9 }.last
        XCTAssertEqual(audioBefore.map { $0.end.seconds } ?? 0, scene2.start, accuracy: 1.0 / 30)
        let audioTotal = Double(sink.audio.reduce(0) { $0 + $1.frameCount }) / 48_000
        XCTAssertEqual(audioTotal, clip.sidecar.duration, accuracy: 0.05)
    }
}

/// The output clock through the controller: a camera that goes away never leaves a hole in the movie.
final class VideoHoldTests: XCTestCase {
    func testEveryCameraUnpluggedHoldsTheLastPictureAndTheMovieEndsWithTheAudio() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        let cameras = try ["wide", "main", "tele"].map { try XCTUnwrap(fixture.controller.devices.cameras[$0] as? VirtualLens) }
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        fixture.serialContext.perform { cameras.forEach { $0.unplug() } }
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(3))).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        // Constant rate with no gap: every frame one frame after the one before, for the whole clip.
        let times = sink.video.map(\.time)
        let d = FrameRate(30).frameDuration
        XCTAssertEqual(times.first, .zero)
        for (a, b) in zip(times, times.dropFirst()) { XCTAssertEqual(b - a, d, "gap after \(a)") }
        // The picture is held to the stop (4 s), not cut at the unplug (1 s): video and audio end together.
        XCTAssertEqual(clip.sidecar.duration, 4, accuracy: 2.0 / 30)
        let audioSeconds = Double(sink.audio.reduce(0) { $0 + $1.frameCount }) / 48_000
        XCTAssertEqual(audioSeconds, clip.sidecar.duration, accuracy: 0.011)
        XCTAssertEqual(sink.video.filter { $0.time >= .seconds(1) + d }.map(\.lens).count,
                       sink.video.count - 31, "after the unplug every slot holds the last picture")
    }
}

/// A camera whose driver stamps frames badly: duplicates, steps back, and jumps an hour ahead.
final class BadTimestampCamera: Camera, @unchecked Sendable {
    let inner: VirtualLens
    var displayName: String { "Faulty " + inner.displayName }
    var format: CameraFormat { inner.format }
    init(_ inner: VirtualLens) { self.inner = inner }

    func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) throws {
        final class Count: @unchecked Sendable { var n = 0 }
        let count = Count()
        try inner.start(deliver: { frame in
            count.n += 1
            var bad = frame
            switch count.n % 10 {
            case 3:  // a duplicate: the same frame twice
                deliver(frame)
                deliver(frame)
                return
            case 6:  // a step back of five frames
                bad.pts = frame.pts - MediaTime(value: 5, timescale: 30)
            case 9:  // a jump an hour ahead
                bad.pts = frame.pts + .seconds(3600)
            default:
                break
            }
            deliver(bad)
        }, onEnd: onEnd)
    }

    func stop() { inner.stop() }
}

final class BadTimestampTests: XCTestCase {
    func testBrokenTimestampsAreDroppedAndCountedAndTheMovieStaysMonotonicAndTrue() throws {
        let rig = EngineFixture.makeRig()
        let serialContext = SimulatedSerialContext()
        var cameras: [String: any Camera] = [:]
        for lens in rig.lenses {
            guard case .virtual(let color) = lens.source else { continue }
            let virtual = VirtualLens(lens: lens.name, color: color, width: 64, height: 36, rate: FrameRate(30),
                                      serialContext: serialContext)
            cameras[lens.name] = lens.name == "main" ? BadTimestampCamera(virtual) : virtual
        }
        let factory = RecordingSinkFactory()
        let controller = EngineFixture.makeController(rig: rig, cameras: cameras, microphone: VirtualMicrophone(serialContext: serialContext),
                                       sinkFactory: factory, store: MemorySidecarStore(), serialContext: serialContext,
                                       wallClock: { Date(timeIntervalSince1970: 0) }, outputDirectory: "/v",
                                       finishing: InlineWorker(), devices: InlineWorker(), notify: { _ in })
        controller.startDevices()
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        XCTAssertTrue(runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(runner.perform(.wait(.seconds(2))).ok)
        let clip = try XCTUnwrap(runner.finishClip())
        let sink = try XCTUnwrap(factory.sinks.first)
        let times = sink.video.map(\.time)
        for (a, b) in zip(times, times.dropFirst()) { XCTAssertGreaterThan(b, a) }
        // The hour jumps never stretched the movie; duplicates and steps back were counted as late.
        XCTAssertEqual(clip.sidecar.duration, 2, accuracy: 1.0 / 30 + 1e-9)
        // 6 second copies and 6 steps back in the clip (frames of the stop's grace time may add their own).
        XCTAssertGreaterThanOrEqual(clip.sidecar.video.lateFramesDropped, 12, "\(clip.sidecar.video)")
        XCTAssertTrue(clip.sidecar.warnings.contains { $0.contains("ahead of the clock") }, "\(clip.sidecar.warnings)")
        // The movie keeps its own constant rate: 60 frames in 2 s, exactly one frame apart. The slots of the 6
        // frames that jumped ahead and the 6 that stepped back show the picture before them again.
        XCTAssertEqual(sink.video.count, 60)
        for (a, b) in zip(times, times.dropFirst()) { XCTAssertEqual(b - a, FrameRate(30).frameDuration) }
        let audioSeconds = Double(sink.audio.reduce(0) { $0 + $1.frameCount }) / 48_000
        XCTAssertEqual(audioSeconds, clip.sidecar.duration, accuracy: 0.011)
    }
}
