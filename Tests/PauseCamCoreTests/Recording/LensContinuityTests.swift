import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// Switches, unplugs and cold starts through the controller on virtual lenses: the movie never shows a hole or a
/// frozen picture where a lens could have shown a live one.
final class LensContinuityTests: XCTestCase {
    let frame = FrameRate(30).frameDuration

    func makeRig(standby: Rig.Standby = .hot, onAttach: Rig.AttachPolicy = .switch) -> Rig {
        var rig = EngineFixture.makeRig()
        rig.standby = standby
        rig.onAttach = onAttach
        return rig
    }

    func assertConstantRate(_ sink: RecordingSink, file: StaticString = #filePath, line: UInt = #line) {
        let times = sink.video.map(\.time)
        XCTAssertEqual(times.first, .zero, file: file, line: line)
        for (a, b) in zip(times, times.dropFirst()) { XCTAssertEqual(b - a, frame, "gap after \(a)", file: file, line: line) }
    }

    /// Indices of slots that show the same picture as the slot before, among those in `range` of lens `lens`.
    func frozenSlots(_ sink: RecordingSink, lens: String, in range: Range<Int>) -> [Int] {
        range.filter { $0 > 0 && sink.video[$0].lens == lens && sink.pictures[$0] == sink.pictures[$0 - 1] }
    }

    func testAColdSwitchKeepsTheOldLensLiveUntilTheNewLensesFirstFrame() throws {
        // tele's camera takes 400 ms to stream after it is opened: its first frame is captured at 1.4 s.
        let fixture = EngineFixture.makeFixture(rig: makeRig(standby: .cold), startupDelays: ["tele": .milliseconds(400)])
        for step: Command in [.record(name: nil), .wait(.seconds(1)), .lens(.named("tele")), .wait(.seconds(1))] {
            XCTAssertTrue(fixture.runner.perform(step).ok, "\(step)")
        }
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        assertConstantRate(sink)
        let firstTele = try XCTUnwrap(sink.video.firstIndex { $0.lens == "tele" })
        XCTAssertEqual(sink.video[firstTele].time, MediaTime(value: 7, timescale: 5), "tele's first frame is at 1.4 s")
        XCTAssertTrue(sink.video[..<firstTele].allSatisfy { $0.lens == "main" })
        XCTAssertTrue(sink.video[firstTele...].allSatisfy { $0.lens == "tele" })
        // Between the command (1 s) and tele's first frame, main's picture moves on: no slot repeats the one before.
        XCTAssertEqual(frozenSlots(sink, lens: "main", in: 0..<firstTele), [])
        XCTAssertTrue(sink.video[firstTele].keyframe)
        XCTAssertEqual(clip.sidecar.switches.count, 1)
        let change = try XCTUnwrap(clip.sidecar.switches.first)
        XCTAssertEqual(change.lens, "tele")
        XCTAssertEqual(change.requested, 1, accuracy: 1.0 / 30 + 1e-9)
        XCTAssertEqual(change.effective, 1.4, accuracy: 1e-9)
        XCTAssertEqual(clip.sidecar.scenes[0].lenses.map(\.lens), ["main", "tele"])
        XCTAssertEqual(clip.sidecar.scenes[0].lenses.map(\.repeatedFrames), [0, 0])
    }

    func testPlugToSwitchKeepsTheOldLensLiveUntilThePluggedCamerasFirstFrame() throws {
        let fixture = EngineFixture.makeFixture(rig: makeRig(onAttach: .switch))
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        let plugged = VirtualLens(lens: "tele", color: RGBColor(hex: "#3050e0")!, width: 64, height: 36,
                                  rate: FrameRate(30), serialContext: fixture.serialContext, startupDelay: .milliseconds(300))
        fixture.serialContext.perform { fixture.controller.attach(plugged, lens: "tele") }
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        assertConstantRate(sink)
        let firstTele = try XCTUnwrap(sink.video.firstIndex { $0.lens == "tele" })
        XCTAssertEqual(sink.video[firstTele].time, MediaTime(value: 13, timescale: 10))
        XCTAssertEqual(frozenSlots(sink, lens: "main", in: 0..<firstTele), [])
        XCTAssertEqual(clip.sidecar.switches.map(\.effective), [1.3])
    }

    func testWithNoLensLeftThePictureIsHeldForHoldThenTheSlateShowsUntilTheStop() throws {
        var rig = makeRig()
        rig.lenses = rig.lenses.filter { $0.name == "main" }
        let fixture = EngineFixture.makeFixture(rig: rig)
        let main = try XCTUnwrap(fixture.controller.devices.cameras["main"] as? VirtualLens)
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        fixture.serialContext.perform { main.unplug() }
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(4))).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        assertConstantRate(sink)
        XCTAssertEqual(clip.sidecar.duration, 5, accuracy: 1e-9)
        // Main's last frame was captured at 29/30 s (the one at 1 s was not delivered before the unplug): it is
        // held for rig.hold (2 s), then the slate fills the slots to the stop.
        let lastLive = 29
        XCTAssertTrue(sink.video[..<(lastLive + 1)].allSatisfy { $0.lens == "main" })
        let slateStart = lastLive + 60
        for index in (lastLive + 1)..<slateStart {
            XCTAssertEqual(sink.video[index].lens, "main", "slot \(index) holds main's picture")
            XCTAssertEqual(sink.pictures[index], sink.pictures[lastLive], "slot \(index) holds main's last picture")
        }
        XCTAssertTrue(sink.video[slateStart...].allSatisfy { $0.lens == NoSignalSlate.lensName })
        XCTAssertTrue(sink.video[slateStart].keyframe, "the slate starts with a keyframe")
        // The slate is dark, with light text.
        let slate = sink.lumas[slateStart]
        let dark = slate.filter { $0 == NoSignalSlate.background }.count
        XCTAssertGreaterThan(dark, slate.count / 2)
        XCTAssertTrue(slate.contains(NoSignalSlate.text))
        // The sidecar says where: the held stretch and the slate, in file time.
        let spans = clip.sidecar.scenes[0].noSignal
        XCTAssertEqual(spans.map(\.kind), ["hold", "slate"])
        XCTAssertEqual(spans.map(\.lens), ["main", "main"])
        XCTAssertEqual(spans[0].start, 1, accuracy: 1e-9)
        XCTAssertEqual(spans[0].duration, 59.0 / 30, accuracy: 1e-9)
        XCTAssertEqual(spans[1].start, Double(slateStart) / 30, accuracy: 1e-9)
        XCTAssertEqual(spans[1].start + spans[1].duration, clip.sidecar.duration, accuracy: 1e-9)
        XCTAssertEqual(clip.sidecar.scenes[0].lenses.map(\.lens), ["main"])
        XCTAssertEqual(clip.sidecar.scenes[0].lenses[0].repeatedFrames, 59)
        // Audio never stops: it ends with the video.
        let audioSeconds = Double(sink.audio.reduce(0) { $0 + $1.frameCount }) / 48_000
        XCTAssertEqual(audioSeconds, clip.sidecar.duration, accuracy: 0.011)
    }

    func testAReplugAfterTheSlateShowsTheLensAgainInANewSegment() throws {
        var rig = makeRig()
        rig.lenses = rig.lenses.filter { $0.name == "main" }
        rig.hold = .milliseconds(500)
        let fixture = EngineFixture.makeFixture(rig: rig)
        let main = try XCTUnwrap(fixture.controller.devices.cameras["main"] as? VirtualLens)
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        fixture.serialContext.perform { main.unplug() }
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(2))).ok)
        let replug = VirtualLens(lens: "main", color: RGBColor(hex: "#20c040")!, width: 64, height: 36,
                                 rate: FrameRate(30), serialContext: fixture.serialContext)
        fixture.serialContext.perform { fixture.controller.attach(replug, lens: "main") }
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        assertConstantRate(sink)
        XCTAssertEqual(clip.sidecar.scenes[0].noSignal.map(\.kind), ["hold", "slate"])
        XCTAssertEqual(clip.sidecar.scenes[0].lenses.map(\.lens), ["main", "main"])
        let back = try XCTUnwrap(sink.video.lastIndex { $0.lens == NoSignalSlate.lensName }) + 1
        XCTAssertEqual(sink.video[back].time, .seconds(3), "the replugged camera's first frame ends the slate")
        XCTAssertEqual(clip.sidecar.switches.count, 0, "the same lens back is no switch")
        XCTAssertEqual(clip.sidecar.scenes[0].noSignal.last.map { $0.start + $0.duration } ?? 0, 3, accuracy: 1e-9)
    }

    func testLensSegmentsCountRepeatedAndSkippedFrames() throws {
        var rig = makeRig()
        rig.lenses = rig.lenses.map { lens in
            var lens = lens
            lens.rate = lens.name == "main" ? FrameRate(15) : FrameRate(60)
            return lens
        }
        let fixture = EngineFixture.makeFixture(rig: rig)
        for step: Command in [.record(name: nil), .wait(.seconds(1)), .lens(.named("tele")), .wait(.seconds(1))] {
            XCTAssertTrue(fixture.runner.perform(step).ok, "\(step)")
        }
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        assertConstantRate(try XCTUnwrap(fixture.factory.sinks.first))
        let segments = clip.sidecar.scenes[0].lenses
        XCTAssertEqual(segments.map(\.lens), ["main", "tele"])
        // 15 fps into 30: every other slot repeats; 60 fps into 30: every other frame is skipped.
        XCTAssertEqual(segments[0].repeatedFrames, 15)
        XCTAssertEqual(segments[0].skippedFrames, 0)
        XCTAssertEqual(segments[1].repeatedFrames, 0)
        XCTAssertEqual(Double(segments[1].skippedFrames), 30, accuracy: 1)
    }

    func testASwitchAskedWhilePausedIsRecordedAtThePausePoint() throws {
        let fixture = EngineFixture.makeFixture(rig: makeRig())
        for step: Command in [.record(name: nil), .wait(.seconds(1)), .pause, .wait(.milliseconds(500)),
                              .lens(.named("tele")), .wait(.milliseconds(500)), .resume(name: nil), .wait(.seconds(1))] {
            XCTAssertTrue(fixture.runner.perform(step).ok, "\(step)")
        }
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        assertConstantRate(try XCTUnwrap(fixture.factory.sinks.first))
        XCTAssertEqual(clip.sidecar.switches, [Sidecar.Switch(lens: "tele", requested: 1, effective: 1)])
    }

    func testAResumeWithNoLensLeftOpensTheSceneOnTheSlateAndAudioEndsWithIt() throws {
        var rig = makeRig()
        rig.lenses = rig.lenses.filter { $0.name == "main" }
        let fixture = EngineFixture.makeFixture(rig: rig)
        let main = try XCTUnwrap(fixture.controller.devices.cameras["main"] as? VirtualLens)
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        fixture.serialContext.perform { main.unplug() }
        for step: Command in [.wait(.seconds(3)), .pause, .wait(.seconds(1)), .resume(name: nil), .wait(.seconds(1))] {
            XCTAssertTrue(fixture.runner.perform(step).ok, "\(step)")
        }
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        assertConstantRate(sink)
        XCTAssertEqual(clip.sidecar.duration, 5, accuracy: 1.0 / 30 + 1e-9)
        XCTAssertEqual(clip.sidecar.scenes.count, 2)
        XCTAssertEqual(clip.sidecar.scenes[1].noSignal.map(\.kind), ["slate"])
        XCTAssertEqual(clip.sidecar.scenes[1].noSignal.first?.duration ?? 0, 1, accuracy: 1.0 / 30 + 1e-9)
        XCTAssertTrue(sink.video.filter { $0.time >= .seconds(4) }.allSatisfy { $0.lens == NoSignalSlate.lensName })
        let audioSeconds = Double(sink.audio.reduce(0) { $0 + $1.frameCount }) / 48_000
        XCTAssertEqual(audioSeconds, clip.sidecar.duration, accuracy: 0.05)
    }
}
