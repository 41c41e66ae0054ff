import CALSA
import Foundation
import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// Collects chunks and end reasons from a microphone's capture thread.
final class ALSACaptureLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [AudioChunk] = []
    private var ends: [String] = []

    func append(_ chunk: AudioChunk) { condition.withLock { chunks.append(chunk); condition.broadcast() } }
    func end(_ reason: String) { condition.withLock { ends.append(reason); condition.broadcast() } }

    /// Waits (up to `timeout`) until `done` holds; returns the chunks and end reasons so far.
    func wait(timeout: TimeInterval, until done: ([AudioChunk], [String]) -> Bool) -> ([AudioChunk], [String]) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while !done(chunks, ends) && condition.wait(until: deadline) {}
            return (chunks, ends)
        }
    }
}

/// The microphone's capture loop against a scripted device, and the real ALSA calls on the `null` PCM.
final class ALSARecoveryTests: XCTestCase {
    func ms(_ value: Int64) -> MediaTime { .nanoseconds(value * 1_000_000) }

    /// Overruns and suspends go through `snd_pcm_recover` (which resumes a suspended PCM; the old loop only
    /// prepared and started, which loses a resume), and capture goes on.
    func testOverrunsAndSuspendsAreRecoveredAndCaptureGoesOn() throws {
        let device = ALSAScriptedDevice(script: [.frames(960, at: ms(1000)), .failure(-EPIPE),
                                                 .frames(960, at: ms(1020)), .failure(-ESTRPIPE),
                                                 .frames(960, at: ms(1040))])
        let microphone = ALSAMicrophone(device: device, warn: { _ in })
        let log = ALSACaptureLog()
        try microphone.start(deliver: { log.append($0) }, onEnd: { log.end($0) })
        let (chunks, ends) = log.wait(timeout: 30) { chunks, _ in chunks.count >= 3 }
        microphone.stop()
        XCTAssertEqual(chunks.count, 3)
        XCTAssertEqual(ends, [])
        XCTAssertEqual(device.calls, ["prepare", "start", "recover(\(-EPIPE))", "recover(\(-ESTRPIPE))"])
        XCTAssertEqual(microphone.statistics.overruns, 2)
    }

    /// An unplugged microphone (`-ENODEV`) is closed before `onEnd` is called, once; starting it again is a
    /// clear error, not a call on a dead PCM. The old loop left the PCM open until the microphone was freed.
    func testAnUnpluggedMicrophoneIsClosedAndEndsOnce() throws {
        let device = ALSAScriptedDevice(script: [.frames(960, at: ms(1000)), .failure(-ENODEV)])
        let microphone = ALSAMicrophone(device: device, warn: { _ in })
        let log = ALSACaptureLog()
        let closedAtEnd = ClosedFlag()
        try microphone.start(deliver: { log.append($0) }, onEnd: { reason in
            closedAtEnd.set(device.closed)
            log.end(reason)
        })
        let (_, ends) = log.wait(timeout: 30) { _, ends in !ends.isEmpty }
        XCTAssertEqual(ends.count, 1)
        XCTAssertTrue(ends.first?.contains("snd_pcm_readi") ?? false, "\(ends)")
        XCTAssertTrue(closedAtEnd.value, "closed before onEnd")
        XCTAssertEqual(device.calls.filter { $0 == "close" }.count, 1)
        XCTAssertThrowsError(try microphone.start(deliver: { _ in }, onEnd: { _ in })) { error in
            XCTAssertTrue("\(error)".contains("the microphone ended"), "\(error)")
        }
        microphone.stop()
    }

    /// Stopped because udev saw the card removed before any read failed (`detachMicrophone`): the PCM is closed
    /// all the same — a handle left open keeps the kernel's card number taken — with no `onEnd` (the stop was
    /// asked for), and it cannot start again. A stop of a card still there leaves it open.
    func testAMicrophoneStoppedAfterItsCardWasUnpluggedIsClosed() throws {
        let device = ALSAScriptedDevice(script: [.frames(960, at: ms(1000))])
        let microphone = ALSAMicrophone(device: device, warn: { _ in })
        let log = ALSACaptureLog()
        try microphone.start(deliver: { log.append($0) }, onEnd: { log.end($0) })
        _ = log.wait(timeout: 30) { chunks, _ in !chunks.isEmpty }
        device.unplug()
        microphone.stop()
        XCTAssertTrue(device.closed, "closed: \(device.calls)")
        XCTAssertTrue(log.wait(timeout: 0.2) { _, ends in !ends.isEmpty }.1.isEmpty, "no onEnd for a stop")
        XCTAssertThrowsError(try microphone.start(deliver: { _ in }, onEnd: { _ in })) { error in
            XCTAssertTrue("\(error)".contains("was unplugged"), "\(error)")
        }

        let present = ALSAScriptedDevice(script: [.frames(960, at: ms(1000))])
        let kept = ALSAMicrophone(device: present, warn: { _ in })
        try kept.start(deliver: { _ in }, onEnd: { _ in })
        kept.stop()
        XCTAssertFalse(present.closed, "a card still there stays open until the microphone goes")
    }

    /// A capture thread that did not run for ten minutes (the process was stopped with Ctrl-Z) hands the gap on
    /// as a gap in capture time — never as ten minutes of samples — and the encoder fills it once, in runs of at
    /// most a second (`AudioDriftCorrectionTests`).
    func testALongStallIsAGapInCaptureTimeNotSilence() throws {
        let device = ALSAScriptedDevice(rate: 44_100, script: [.frames(882, at: ms(1000)),
                                                               .frames(882, at: ms(1020) + .seconds(600))])
        let microphone = ALSAMicrophone(device: device, warn: { _ in })
        XCTAssertEqual(microphone.sampleRate, 44_100, "the negotiated rate")
        let log = ALSACaptureLog()
        try microphone.start(deliver: { log.append($0) }, onEnd: { log.end($0) })
        let (chunks, _) = log.wait(timeout: 60) { chunks, _ in chunks.count >= 2 }
        microphone.stop()
        XCTAssertEqual(chunks.count, 2)
        XCTAssertTrue(chunks.allSatisfy { $0.sampleRate == 44_100 && $0.frameCount == 882 })
        XCTAssertEqual(chunks.last?.pts, ms(1020) + .seconds(600))
        XCTAssertEqual(chunks.last?.samples.first, 1000)
        XCTAssertEqual(microphone.statistics.reorderedReads, 0)
    }

    func openNull() throws -> ALSAPCM {
        do { return try ALSAPCM(name: "null") } catch { throw XCTSkip("the ALSA null PCM does not open here: \(error)") }
    }

    /// The rate is negotiated, not demanded: asked for a rate the PCM cannot run at, the nearest one is taken
    /// and reported (the old `snd_pcm_hw_params_set_rate` failed instead — a 44.1 kHz USB microphone could not be
    /// used at all). The null PCM runs at 1…4294967295 Hz (measured with `snd_pcm_hw_params_get_rate_min/max`),
    /// so 0 Hz is the rate it cannot run at; 1 Hz is the nearest.
    func testTheNearestRateIsTakenAndReported() throws {
        let pcm = try openNull()
        try pcm.configureHardware(rate: 0, periodFrames: 1)
        XCTAssertEqual(pcm.rate, 1)
        let exact = try openNull()
        try exact.configureHardware(rate: 44_100, periodFrames: 882)
        XCTAssertEqual(exact.rate, 44_100)
        XCTAssertEqual(exact.periodFrames, 882)
    }

    /// `snd_pcm_recover` on a real PCM: after an overrun the PCM runs again; after a (pretended) suspend too.
    /// A closed PCM fails with a clear error instead of reaching a freed handle.
    func testRecoveryOnTheNullPCMLeavesItRunningAndAClosedPCMFailsClearly() throws {
        let pcm = try openNull()
        try pcm.configureHardware(rate: 48_000, periodFrames: 960)
        try pcm.configureSoftware()
        try pcm.prepare()
        try pcm.start()
        try pcm.recover(from: -EPIPE)
        XCTAssertEqual(pcm.state, SND_PCM_STATE_RUNNING)
        try pcm.recover(from: -ESTRPIPE)
        XCTAssertEqual(pcm.state, SND_PCM_STATE_RUNNING)
        pcm.close()
        pcm.close()
        XCTAssertNil(pcm.state)
        XCTAssertThrowsError(try pcm.recover(from: -EPIPE)) { error in
            XCTAssertEqual((error as? ALSAError)?.code, -EBADFD)
        }
        XCTAssertEqual(pcm.wait(milliseconds: 0), -EBADFD)
    }
}

/// A Bool set on one thread and read on another.
final class ClosedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    func set(_ value: Bool) { lock.withLock { flag = value } }
    var value: Bool { lock.withLock { flag } }
}
