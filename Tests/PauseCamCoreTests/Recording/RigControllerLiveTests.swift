import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// The program feed of `RigController+Live` on the virtual rig and the simulated clock: a fake `LiveSink` gets one
/// frame per output slot and the sound from the rig's start on, whatever the recording does.
final class RigControllerLiveTests: XCTestCase {
    /// Keeps what the engine gives it.
    final class FakeLiveSink: LiveSink {
        let name: String
        var video: [(lens: String, liveTime: MediaTime, crop: PixelRect?)] = []
        var audio: [AudioChunk] = []
        var closed = false
        init(name: String) { self.name = name }
        func appendVideo(_ frame: VideoFrame, at liveTime: MediaTime) {
            XCTAssertFalse(closed, "a frame after close")
            video.append((frame.lens, liveTime, frame.crop))
        }
        func appendAudio(_ chunk: AudioChunk) {
            XCTAssertFalse(closed, "sound after close")
            audio.append(chunk)
        }
        func close() { closed = true }
    }

    final class FakeFactory: LiveSinkFactory {
        var programs: [LiveProgram] = []
        let sinks: [FakeLiveSink]
        init(_ names: [String]) { sinks = names.map(FakeLiveSink.init) }
        var report: (@Sendable (EngineEvent) -> Void)?
        func makeLiveSinks(for program: LiveProgram, report: @escaping @Sendable (EngineEvent) -> Void) -> [any LiveSink] {
            programs.append(program)
            self.report = report
            return sinks
        }
    }

    /// The test rig with its wide lens at half the output rate, so the feed must repeat its pictures.
    private func rig() -> Rig {
        var rig = EngineFixture.makeRig()
        rig.lenses[0].rate = FrameRate(15)
        return rig
    }

    private func perform(_ fixture: EngineFixture.Fixture, _ steps: [Command]) {
        for step in steps {
            let reply = fixture.runner.perform(step)
            XCTAssertTrue(reply.ok, "\(step): \(reply.message)")
        }
    }

    func testTheProgramGoesLiveIdleRecordingAndPausedAtAConstantRate() throws {
        let factory = FakeFactory(["studio", "backup"])
        let fixture = EngineFixture.makeFixture(rig: rig(), liveSinks: factory)
        let program = try XCTUnwrap(factory.programs.first)
        XCTAssertEqual(factory.programs.count, 1)
        XCTAssertEqual([program.width, program.height], [64, 36])
        XCTAssertEqual(program.rate, FrameRate(30))
        XCTAssertNotNil(program.audioSampleRate)
        XCTAssertTrue(fixture.serialContext.perform { fixture.controller.devices.isTakingSamples })
        // 1 s idle on main, a clip with a switch to the slower wide lens, a 2 s pause, a zoom, a stop, 1 s idle.
        perform(fixture, [.wait(.seconds(1)), .record(name: nil), .wait(.seconds(1)), .lens(.named("wide")),
                          .wait(.seconds(1)), .pause, .wait(.seconds(2)), .lens(.named("main")),
                          .zoom(.preset("2x")), .resume(name: nil), .wait(.seconds(1))])
        XCTAssertNotNil(fixture.runner.finishClip())
        XCTAssertTrue(fixture.serialContext.perform { fixture.controller.devices.isTakingSamples },
                      "the intake closed after the clip although the rig is live")
        perform(fixture, [.wait(.seconds(1))])
        fixture.serialContext.perform { fixture.controller.closeLive() }

        let frame = MediaTime(value: 1, timescale: 30)
        for sink in factory.sinks {
            XCTAssertTrue(sink.closed)
            let times = sink.video.map(\.liveTime)
            // Every slot of the session, exactly one frame apart: idle, recording, paused and after the stop.
            for (a, b) in zip(times, times.dropFirst()) { XCTAssertEqual(b - a, frame, "not one frame apart at \(a)") }
            let session = try XCTUnwrap(times.last).seconds - (times.first?.seconds ?? 0)
            XCTAssertGreaterThan(session, 6.0, "the feed stopped: \(session) s of \(times.count) frames")
            XCTAssertLessThan(times.first?.seconds ?? 1, 0.1)
            // The lenses as switched, the wide lens's pictures each shown twice (15 fps on a 30 fps grid).
            var runs: [String] = []
            for entry in sink.video where runs.last != entry.lens { runs.append(entry.lens) }
            XCTAssertEqual(runs, ["main", "wide", "main"])
            let wide = sink.video.filter { $0.lens == "wide" }
            XCTAssertGreaterThan(wide.count, 80, "the wide lens was live through the pause: \(wide.count) frames")
            let switchBack = try XCTUnwrap(sink.video.first { $0.lens == "main" && $0.liveTime > .seconds(3) })
            XCTAssertEqual(switchBack.liveTime.seconds, 5, accuracy: 0.07, "the switch made in the pause went live at once")
            // The zoom asked for while paused reaches the live picture.
            XCTAssertEqual(sink.video.last?.crop, PixelRect(x: 16, y: 8, width: 32, height: 18))
            // Sound from the start to the end, contiguous, in live time.
            let first = try XCTUnwrap(sink.audio.first)
            XCTAssertLessThan(first.pts.seconds, 0.1)
            var expected = first.pts
            for chunk in sink.audio {
                XCTAssertLessThanOrEqual(abs((chunk.pts - expected).seconds), 1.0 / 48_000, "sound gap at \(chunk.pts)")
                expected = chunk.end
            }
            XCTAssertGreaterThan(expected.seconds, 6.0)
        }
    }

    func testARigWithoutLiveKeepsTheIntakeClosedWhileIdle() throws {
        let fixture = EngineFixture.makeFixture(rig: rig())
        XCTAssertFalse(fixture.serialContext.perform { fixture.controller.devices.isTakingSamples })
        perform(fixture, [.record(name: nil), .wait(.seconds(1))])
        XCTAssertTrue(fixture.serialContext.perform { fixture.controller.devices.isTakingSamples })
        XCTAssertNotNil(fixture.runner.finishClip())
        XCTAssertFalse(fixture.serialContext.perform { fixture.controller.devices.isTakingSamples })
    }

    func testAFactoryThatMakesNoSinkChangesNothing() {
        let fixture = EngineFixture.makeFixture(rig: rig(), liveSinks: FakeFactory([]))
        XCTAssertFalse(fixture.serialContext.perform { fixture.controller.devices.isTakingSamples })
        XCTAssertEqual(fixture.serialContext.perform { fixture.controller.liveSinkNames }, [])
    }

    func testLiveOffStopsOneDestinationAndLiveOnBringsItBack() throws {
        let factory = FakeFactory(["studio", "backup"])
        let fixture = EngineFixture.makeFixture(rig: rig(), liveSinks: factory)
        perform(fixture, [.wait(.seconds(1)), .live(on: false, destination: "studio"), .wait(.seconds(1))])
        XCTAssertTrue(fixture.controller.statusLine().contains("live studio off"), fixture.controller.statusLine())
        let studioWhileOff = factory.sinks[0].video.count
        let backupWhileOff = factory.sinks[1].video.count
        perform(fixture, [.wait(.seconds(1))])
        XCTAssertEqual(factory.sinks[0].video.count, studioWhileOff, "an off destination got frames")
        XCTAssertGreaterThan(factory.sinks[1].video.count, backupWhileOff + 25)
        perform(fixture, [.live(on: true, destination: nil), .wait(.seconds(1))])
        XCTAssertGreaterThan(factory.sinks[0].video.count, studioWhileOff + 25)
        XCTAssertFalse(fixture.runner.perform(.live(on: true, destination: "tv")).ok)
        XCTAssertTrue(fixture.runner.perform(.live(on: true, destination: "tv")).message.contains("studio, backup"))
        let plain = EngineFixture.makeFixture(rig: rig())
        XCTAssertFalse(plain.runner.perform(.live(on: true, destination: nil)).ok)
    }

    func testLiveCommandsParseAndPrintBack() {
        let parser = CommandParser(lenses: ["main"], zoomPresets: [], exposurePresets: [], scripts: nil)
        for (line, command) in [("live on", Command.live(on: true, destination: nil)),
                                ("live off youtube", .live(on: false, destination: "youtube"))] {
            XCTAssertEqual(try? parser.parse(line).get(), command, line)
            XCTAssertEqual(CommandParser.line(for: command), line)
        }
        XCTAssertNil(try? parser.parse("live maybe").get())
        XCTAssertNil(try? parser.parse("live on a b").get())
    }

    func testWhilePausedSlateShowsTheSlateLiveOnlyWhilePaused() throws {
        var rig = rig()
        rig.live = Rig.Live(streams: [], whilePaused: .slate)
        let factory = FakeFactory(["studio"])
        let fixture = EngineFixture.makeFixture(rig: rig, liveSinks: factory)
        perform(fixture, [.record(name: nil), .wait(.seconds(1)), .pause, .wait(.seconds(1)), .resume(name: nil),
                          .wait(.seconds(1))])
        XCTAssertNotNil(fixture.runner.finishClip())
        var runs: [String] = []
        for entry in factory.sinks[0].video where runs.last != entry.lens { runs.append(entry.lens) }
        XCTAssertEqual(runs, ["main", LivePausedSlate.lensName, "main"])
        let slate = factory.sinks[0].video.filter { $0.lens == LivePausedSlate.lensName }
        XCTAssertEqual(Double(slate.count), 30, accuracy: 2, "about a second of slate")
    }

    func testADestinationsOutagesAreToldAndListedInTheClipsSidecar() throws {
        let factory = FakeFactory(["studio"])
        let fixture = EngineFixture.makeFixture(rig: rig(), liveSinks: factory)
        let report = try XCTUnwrap(factory.report)
        perform(fixture, [.record(name: nil), .wait(.seconds(1))])
        report(.liveLost(destination: "studio", reason: "connection refused", retryIn: .seconds(1)))
        perform(fixture, [.wait(.seconds(1))])
        report(.liveBack(destination: "studio", outage: .seconds(1)))
        perform(fixture, [.wait(.seconds(1))])
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        let outages = clip.sidecar.warnings.filter { $0.contains("studio") }
        XCTAssertEqual(outages.count, 2, "\(clip.sidecar.warnings)")
        XCTAssertTrue(outages[0].contains("lost") && outages[0].contains("at 00:00:01"), outages[0])
        XCTAssertTrue(outages[1].contains("back") && outages[1].contains("at 00:00:02"), outages[1])
        XCTAssertEqual(fixture.events.filter { if case .liveLost = $0 { return true } else { return false } }.count, 1)
    }

    func testTheRecordingIsTheSameWithAndWithoutLive() throws {
        func record(live: Bool) throws -> (video: [String], audio: Int, scenes: [String], chapters: [MediaTime]) {
            let fixture = EngineFixture.makeFixture(rig: rig(), liveSinks: live ? FakeFactory(["studio"]) : nil)
            perform(fixture, [.wait(.milliseconds(700)), .record(name: "A"), .wait(.seconds(1)), .lens(.named("wide")),
                              .wait(.milliseconds(600)), .pause, .wait(.seconds(2)), .resume(name: "B"),
                              .wait(.milliseconds(500)), .chapter(name: "C"), .wait(.seconds(1)), .zoom(.preset("2x")),
                              .wait(.seconds(1))])
            let clip = try XCTUnwrap(fixture.runner.finishClip())
            let sink = try XCTUnwrap(fixture.factory.sinks.first)
            return (sink.video.map { "\($0.time) \($0.lens) \($0.keyframe) \(String(describing: $0.crop))" },
                    sink.audio.reduce(0) { $0 + $1.frameCount }, clip.sidecar.scenes.map(\.title),
                    sink.chapters.map(\.start))
        }
        let plain = try record(live: false), live = try record(live: true)
        XCTAssertEqual(live.video, plain.video)
        XCTAssertEqual(live.audio, plain.audio)
        XCTAssertEqual(live.scenes, plain.scenes)
        XCTAssertEqual(live.chapters, plain.chapters)
        XCTAssertGreaterThan(plain.video.count, 90)
    }
}
