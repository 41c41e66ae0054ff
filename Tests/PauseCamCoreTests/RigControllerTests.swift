import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// The engine end to end on the virtual rig and the simulated clock, with a sink that records what it gets.
final class RigControllerTests: XCTestCase {
    struct Fixture {
        let scheduler: SimulatedScheduler
        let controller: RigController
        let runner: ScriptRunner
        let factory: RecordingSinkFactory
        let store: MemorySidecarStore
        var messages: [String] { box.messages }
        let box: MessageBox
    }
    final class MessageBox { var messages: [String] = [] }

    func makeRig(fps: Int32 = 30) -> Rig {
        let colors = ["wide": "#d03030", "main": "#20c040", "tele": "#3050e0"]
        let lenses = [("wide", 0.5), ("main", 1.0), ("tele", 3.0)].map { name, zoom in
            Rig.Lens(name: name, zoom: zoom, source: .virtual(color: RGBColor(hex: colors[name]!)!), width: 64,
                     height: 36, rate: FrameRate(fps))
        }
        return Rig(name: "Test rig", output: Rig.OutputSettings(width: 64, height: 36, rate: FrameRate(fps)),
                   audio: Rig.AudioInput(device: .virtual), lenses: lenses, defaultLens: "main",
                   zoomPresets: [Rig.ZoomPreset(name: "2x", lens: "main", digital: 2, ramp: .milliseconds(400))])
    }

    func makeFixture(rig: Rig) -> Fixture {
        let scheduler = SimulatedScheduler()
        var cameras: [String: any Camera] = [:]
        for lens in rig.lenses {
            guard case .virtual(let color) = lens.source else { continue }
            cameras[lens.name] = VirtualLens(lens: lens.name, color: color, width: lens.width!, height: lens.height!,
                                             rate: lens.rate!, scheduler: scheduler)
        }
        let factory = RecordingSinkFactory()
        let store = MemorySidecarStore()
        let box = MessageBox()
        let controller = RigController(
            rig: rig, cameras: cameras, microphone: VirtualMicrophone(scheduler: scheduler), sinkFactory: factory,
            store: store, scheduler: scheduler, wallClock: { Date(timeIntervalSince1970: 1_800_000_000) },
            outputDirectory: "/videos", notify: { box.messages.append($0) })
        controller.startDevices()
        return Fixture(scheduler: scheduler, controller: controller,
                       runner: ScriptRunner(controller: controller, scheduler: scheduler), factory: factory,
                       store: store, box: box)
    }

    func run(_ fixture: Fixture, _ steps: [Command]) -> Recorder.Clip? {
        for step in steps {
            let reply = fixture.runner.perform(step)
            XCTAssertTrue(reply.ok, "\(step): \(reply.message)")
        }
        return fixture.runner.finishClip()
    }

    func testPausesCutTheGapsAndScenesFollowResumes() throws {
        let fixture = makeFixture(rig: makeRig())
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
        let fixture = makeFixture(rig: makeRig())
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
        let fixture = makeFixture(rig: makeRig())
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
            let fixture = makeFixture(rig: makeRig(fps: 25))
            _ = run(fixture, [.record(name: nil), .wait(.milliseconds(730)), .pause, .wait(.milliseconds(290)),
                              .resume(name: nil), .wait(.milliseconds(1130)), .stop])
            let sink = try XCTUnwrap(fixture.factory.sinks.first)
            return sink.video.map(\.time) + sink.audio.map(\.pts)
        }
        XCTAssertEqual(try once(), try once())
    }
}
