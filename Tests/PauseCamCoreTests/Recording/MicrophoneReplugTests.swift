import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// A microphone that ends mid-clip and a new one handed to the controller (what the composition root does when
/// udev sees the card come back): sound resumes from the new one, a mismatched format is refused, a udev remove
/// stops a still-running microphone, and a second card while the first still records is ignored.
final class MicrophoneReplugTests: XCTestCase {
    /// A microphone of another format that never delivers: only its format matters.
    final class SilentMicrophone: Microphone, @unchecked Sendable {
        let displayName = "ALSA plughw:3,0"
        let sampleRate: Int32
        let channels: Int
        var started = false
        init(sampleRate: Int32, channels: Int) { self.sampleRate = sampleRate; self.channels = channels }
        func start(deliver: @escaping @Sendable (AudioChunk) -> Void, onEnd: @escaping @Sendable (String) -> Void) {
            started = true
        }
        func stop() {}
    }

    /// A microphone whose end the test reports when it likes: ALSA's `onEnd` arriving after udev's remove, or
    /// after the microphone was replaced.
    final class EndableMicrophone: Microphone, @unchecked Sendable {
        let displayName = "ALSA plughw:1,0"
        let sampleRate: Int32 = 48_000
        let channels = 1
        var onEnd: (@Sendable (String) -> Void)?
        func start(deliver: @escaping @Sendable (AudioChunk) -> Void, onEnd: @escaping @Sendable (String) -> Void) {
            self.onEnd = onEnd
        }
        func stop() {}
    }

    /// A value a scheduled step saw.
    final class Flag: @unchecked Sendable { var value = true }

    /// What a scheduled step returned, read after the run (the simulated context runs it on the test's thread).
    final class Outcome: @unchecked Sendable { var result: Result<Void, RigController.MicrophoneRefusal>? }

    private func audio(_ sink: RecordingSinkFactory, from: Int64, to: Int64) -> [AudioChunk] {
        sink.sinks.first!.audio.filter { $0.pts > .milliseconds(from) && $0.pts < .milliseconds(to) }
    }

    func testAnEndedMicrophoneIsReplacedAndSoundResumesFromTheNewOne() throws {
        let serialContext = SimulatedSerialContext()
        let first = VirtualMicrophone(serialContext: serialContext, tone: 440)
        let second = VirtualMicrophone(serialContext: serialContext, tone: 440)
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig(), serialContext: serialContext, microphone: first)
        let start = serialContext.clock.now()
        let attached = Outcome(), controller = SerialContextBound.confining(fixture.controller, to: serialContext)
        serialContext.schedule(at: start + .milliseconds(1500)) { first.unplug(reason: "USB device gone") }
        serialContext.schedule(at: start + .milliseconds(3200)) { attached.result = controller.value.attachMicrophone(second) }
        for step: Command in [.record(name: "Take"), .wait(.seconds(5)), .stop] {
            XCTAssertTrue(fixture.runner.perform(step).ok)
        }
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertNoThrow(try XCTUnwrap(attached.result).get())
        XCTAssertTrue(fixture.controller.devices.microphone === second, "the new microphone serves the rig")
        XCTAssertTrue(fixture.events.contains {
            if case .microphoneAttached(let name, nextClip: false) = $0 { name.hasPrefix("Virtual microphone") } else { false }
        }, "\(fixture.events)")
        XCTAssertTrue(clip.sidecar.warnings.contains { $0.contains("microphone stopped: USB device gone") },
                      "\(clip.sidecar.warnings)")
        XCTAssertTrue(clip.sidecar.warnings.contains { $0.hasPrefix("microphone back: sound resumes at 00:00:03") },
                      "\(clip.sidecar.warnings)")
        XCTAssertTrue(audio(fixture.factory, from: 1520, to: 3190).isEmpty, "no sound in the hole")
        XCTAssertFalse(audio(fixture.factory, from: 3190, to: 3300).isEmpty, "sound from the new microphone")
        XCTAssertGreaterThan(fixture.factory.sinks[0].audio.last?.end ?? .zero, .milliseconds(4900))
        let device = try XCTUnwrap(clip.sidecar.devices.first { $0.role == "microphone" })
        XCTAssertEqual(device.dropped ?? 0, 0, "a fresh mailbox: nothing dropped")
        XCTAssertEqual(fixture.events.filter { if case .microphoneBack = $0 { true } else { false } }.count, 1, "\(fixture.events)")
    }

    /// Both edges of the hole a dropout leaves fade (the declicker): the last and the first millisecond of sound
    /// around it stay near silence, where a cut 440 Hz tone at −12 dBFS would reach nearly its peak (~8200).
    func testTheSoundFadesOutWhereTheMicrophoneEndsAndInWhereTheNewOneStarts() throws {
        let serialContext = SimulatedSerialContext()
        let first = VirtualMicrophone(serialContext: serialContext, tone: 440)
        let second = VirtualMicrophone(serialContext: serialContext, tone: 440)
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig(), serialContext: serialContext, microphone: first)
        let start = serialContext.clock.now(), controller = SerialContextBound.confining(fixture.controller, to: serialContext)
        serialContext.schedule(at: start + .milliseconds(1507)) { first.unplug(reason: "USB device gone") }
        serialContext.schedule(at: start + .milliseconds(3213)) { _ = controller.value.attachMicrophone(second) }
        for step: Command in [.record(name: "Take"), .wait(.seconds(5)), .stop] {
            XCTAssertTrue(fixture.runner.perform(step).ok)
        }
        _ = try XCTUnwrap(fixture.runner.finishClip())
        let audio = fixture.factory.sinks[0].audio
        let hole = try XCTUnwrap(audio.indices.dropLast().first { audio[$0 + 1].pts > audio[$0].end + .milliseconds(100) },
                                 "a hole in the sound")
        let before = audio[...hole].flatMap(\.samples).suffix(48).map { abs(Int($0)) }
        let after = audio[(hole + 1)...].flatMap(\.samples).prefix(48).map { abs(Int($0)) }
        let peak = audio.flatMap(\.samples).map { abs(Int($0)) }.max() ?? 0
        XCTAssertGreaterThan(peak, 7000, "the tone is there")
        XCTAssertLessThan(before.max() ?? .max, peak / 5, "faded out before the hole: \(before)")
        XCTAssertLessThan(after.max() ?? .max, peak / 5, "faded in after the hole: \(after)")
    }

    func testALateEndIsToldOnceAndNeverEndsTheMicrophoneThatReplacedIt() throws {
        let serialContext = SimulatedSerialContext()
        let first = EndableMicrophone()
        let second = VirtualMicrophone(serialContext: serialContext, tone: 440)
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig(), serialContext: serialContext, microphone: first)
        let controller = SerialContextBound.confining(fixture.controller, to: serialContext)
        let start = serialContext.clock.now()
        serialContext.schedule(at: start + .milliseconds(1000)) { controller.value.detachMicrophone(reason: "card 1 was unplugged") }
        serialContext.schedule(at: start + .milliseconds(1100)) { first.onEnd?("snd_pcm_readi: No such device") }
        serialContext.schedule(at: start + .milliseconds(2000)) { _ = controller.value.attachMicrophone(second) }
        serialContext.schedule(at: start + .milliseconds(3000)) { first.onEnd?("snd_pcm_readi: No such device") }
        let goneAfterLateEnd = Flag()
        serialContext.schedule(at: start + .milliseconds(3400)) { goneAfterLateEnd.value = controller.value.devices.microphoneGone }
        // The new one ends too; the old one's end after that is still not the new one's.
        serialContext.schedule(at: start + .milliseconds(3500)) { second.unplug(reason: "USB device gone") }
        serialContext.schedule(at: start + .milliseconds(3600)) { first.onEnd?("snd_pcm_readi: No such device") }
        for step: Command in [.record(name: "Take"), .wait(.seconds(4)), .stop] {
            XCTAssertTrue(fixture.runner.perform(step).ok)
        }
        _ = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertEqual(fixture.events.filter { if case .microphoneStopped = $0 { true } else { false } },
                       [.microphoneStopped(reason: "card 1 was unplugged"), .microphoneStopped(reason: "USB device gone")])
        XCTAssertFalse(goneAfterLateEnd.value, "the new microphone still recorded after the old one's late end")
        XCTAssertTrue(fixture.controller.devices.microphone === second)
    }

    /// A rig that started without its microphone (not plugged in) records video only; the microphone plugged in
    /// mid-clip cannot add a sound track to that clip, so nothing "resumes" — the next clip has sound.
    func testAMicrophoneArrivingInAClipWithoutSoundServesTheNextClip() throws {
        let serialContext = SimulatedSerialContext()
        let late = VirtualMicrophone(serialContext: serialContext, tone: 440)
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig(), serialContext: serialContext, withoutMicrophone: true)
        let start = serialContext.clock.now(), controller = SerialContextBound.confining(fixture.controller, to: serialContext)
        serialContext.schedule(at: start + .milliseconds(1000)) { _ = controller.value.attachMicrophone(late) }
        for step: Command in [.record(name: "Silent"), .wait(.seconds(2)), .stop] {
            XCTAssertTrue(fixture.runner.perform(step).ok)
        }
        _ = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertTrue(fixture.events.contains { if case .microphoneAttached(_, nextClip: true) = $0 { true } else { false } },
                      "\(fixture.events)")
        XCTAssertFalse(fixture.events.contains { if case .microphoneBack = $0 { true } else { false } }, "\(fixture.events)")
        XCTAssertTrue(fixture.factory.sinks[0].audio.isEmpty)
        for step: Command in [.record(name: "Sound"), .wait(.seconds(1)), .stop] {
            XCTAssertTrue(fixture.runner.perform(step).ok)
        }
        _ = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertGreaterThan(fixture.factory.sinks[1].audio.count, 50, "the next clip has sound")
    }

    func testAMicrophoneOfAnotherFormatIsRefusedMidClip() throws {
        let serialContext = SimulatedSerialContext()
        let first = VirtualMicrophone(serialContext: serialContext, tone: 440)
        let other = SilentMicrophone(sampleRate: 44_100, channels: 2)
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig(), serialContext: serialContext, microphone: first)
        let start = serialContext.clock.now()
        let attached = Outcome(), controller = SerialContextBound.confining(fixture.controller, to: serialContext)
        serialContext.schedule(at: start + .milliseconds(1500)) { first.unplug(reason: "USB device gone") }
        serialContext.schedule(at: start + .milliseconds(3200)) { attached.result = controller.value.attachMicrophone(other) }
        for step: Command in [.record(name: "Take"), .wait(.seconds(5)), .stop] {
            XCTAssertTrue(fixture.runner.perform(step).ok)
        }
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        guard case .failure(.formatChanged(_, 44_100, 2, 48_000, 1)) = try XCTUnwrap(attached.result) else {
            return XCTFail("not refused for its format: \(String(describing: attached.result))")
        }
        XCTAssertFalse(other.started, "a refused microphone is not started")
        XCTAssertTrue(fixture.controller.devices.microphone === first)
        XCTAssertTrue(clip.sidecar.warnings.contains { $0.contains("records 44100 Hz 2 ch, and this clip's sound is 48000 Hz 1 ch") },
                      "\(clip.sidecar.warnings)")
        XCTAssertTrue(audio(fixture.factory, from: 1520, to: 5000).isEmpty, "silence to the end")
        // Between clips any format is taken: the next clip opens its sound track with it.
        XCTAssertNoThrow(try fixture.controller.attachMicrophone(other).get())
        XCTAssertTrue(other.started)
    }

    func testAUdevRemoveStopsARunningMicrophoneAndASecondCardIsIgnored() throws {
        let serialContext = SimulatedSerialContext()
        let first = VirtualMicrophone(serialContext: serialContext, tone: 440)
        let second = VirtualMicrophone(serialContext: serialContext, tone: 440)
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig(), serialContext: serialContext, microphone: first)
        let start = serialContext.clock.now()
        let whileRunning = Outcome(), controller = SerialContextBound.confining(fixture.controller, to: serialContext)
        serialContext.schedule(at: start + .milliseconds(1000)) { whileRunning.result = controller.value.attachMicrophone(second) }
        serialContext.schedule(at: start + .milliseconds(1500)) {
            controller.value.detachMicrophone(reason: "card 1 was unplugged")
            controller.value.detachMicrophone(reason: "card 1 was unplugged")
        }
        serialContext.schedule(at: start + .milliseconds(3200)) { _ = controller.value.attachMicrophone(second) }
        for step: Command in [.record(name: "Take"), .wait(.seconds(5)), .stop] {
            XCTAssertTrue(fixture.runner.perform(step).ok)
        }
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        guard case .failure(.stillRunning) = try XCTUnwrap(whileRunning.result) else {
            return XCTFail("a second card was taken while the first recorded: \(String(describing: whileRunning.result))")
        }
        XCTAssertEqual(fixture.events.filter { $0 == .microphoneStopped(reason: "card 1 was unplugged") }.count, 1,
                       "one stop, however many removes: \(fixture.events)")
        XCTAssertTrue(audio(fixture.factory, from: 1520, to: 3190).isEmpty, "the removed microphone was stopped")
        XCTAssertFalse(audio(fixture.factory, from: 3190, to: 3300).isEmpty)
        XCTAssertTrue(clip.sidecar.warnings.contains { $0.hasPrefix("microphone back: sound resumes at 00:00:03") },
                      "\(clip.sidecar.warnings)")
    }
}
