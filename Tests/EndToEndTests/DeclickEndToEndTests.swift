import Foundation
import PauseCamCore
import XCTest

/// Seams without clicks: a continuous tone recorded through 30 pauses at odd times has no step at any seam larger
/// than the tone's own (declick on), where declick off leaves a click at the seams; duration and A/V sync are the
/// same either way.
final class DeclickEndToEndTests: XCTestCase {
    /// 30 pauses: recorded and paused spans in milliseconds from a fixed seed, none a whole frame.
    static let steps: [String] = {
        var state: UInt64 = 14
        func next(_ range: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(range))
        }
        var steps = ["record: S1"]
        for scene in 2...31 {
            steps += ["wait: \(211 + next(600))ms", "pause", "wait: \(37 + next(400))ms", "resume: S\(scene)"]
        }
        return steps + ["wait: 457ms", "stop"]
    }()

    func testThirtySeamsInAToneHaveNoClickWithDeclickAndOneWithout() throws {
        let on = try SoundRig(audio: ["tone: 440"], steps: Self.steps).record("declick-on")
        let off = try SoundRig(audio: ["tone: 440", "declick: off"], steps: Self.steps).record("declick-off")
        XCTAssertEqual(on.sidecar.scenes.count, 31)
        for take in [on, off] {
            let samples = try take.probe.audioSamples()
            // Seams: the movie's start, every scene start (a resume), and the end.
            let seams = take.sidecar.scenes.map { Int(($0.start * 48_000).rounded()) } + [samples.count - 1]
            let (near, elsewhere) = SoundRig.steps(samples, seams: seams, radius: 480)
            let tone = VirtualToneFigures.steepestStep
            // The tone's own steepest step, plus AAC's coding noise (measured: 600 for 474).
            XCTAssertTrue((tone...(1.5 * tone)).contains(Double(elsewhere)), "steepest step elsewhere \(elsewhere)")
            print("\(take.movie == on.movie ? "declick on" : "declick off"): largest step near a seam \(near), "
                  + "elsewhere \(elsewhere)")
            if take.movie == on.movie {
                XCTAssertLessThanOrEqual(Double(near), 1.2 * Double(elsewhere), "a click at a seam (declick on)")
            } else {
                XCTAssertGreaterThan(Double(near), 3 * Double(elsewhere), "declick off keeps the cut's step")
            }
        }
        XCTAssertEqual(try on.probe.duration(), try off.probe.duration(), accuracy: 1e-9, "same duration")
        XCTAssertEqual(try on.probe.audioDuration(), try off.probe.audioDuration(), accuracy: 1e-9)
        XCTAssertEqual(on.sidecar.scenes.map(\.start), off.sidecar.scenes.map(\.start))
        XCTAssertEqual(on.sidecar.audio?.samplesWritten, off.sidecar.audio?.samplesWritten, "no sample added or lost")
    }

    func testDeclickKeepsFlashBeepSync() throws {
        let on = try SoundRig(audio: [], steps: Self.steps).record("declick-sync-on")
        let off = try SoundRig(audio: ["declick: off"], steps: Self.steps).record("declick-sync-off")
        let beepsOn = RecordingEndToEndTests.beepOnsets(try on.probe.audioSamples())
        let beepsOff = RecordingEndToEndTests.beepOnsets(try off.probe.audioSamples())
        XCTAssertEqual(try SoundRig.flashes(on.probe), try SoundRig.flashes(off.probe))
        XCTAssertGreaterThanOrEqual(beepsOn.count, 10)
        XCTAssertEqual(beepsOn.count, beepsOff.count, "\(beepsOn) vs \(beepsOff)")
        // A beep that starts right at a seam is faded in, so its onset may move by up to the 5 ms fade; every
        // other beep is exactly where it was.
        let moved = zip(beepsOn, beepsOff).filter { abs($0 - $1) > 1.0 / 48_000 }
        XCTAssertTrue(moved.allSatisfy { abs($0 - $1) <= 0.005 }, "\(moved)")
        for flash in try SoundRig.flashes(on.probe) {
            XCTAssertTrue(beepsOn.contains { abs($0 - flash) <= 1.0 / 30 }, "flash at \(flash) has no beep")
        }
        XCTAssertEqual(try on.probe.duration(), try off.probe.duration(), accuracy: 1e-9)
    }
}

/// Figures of the virtual microphone's tone the sound tests compare with.
enum VirtualToneFigures {
    /// The largest step between two samples of the −12 dBFS 440 Hz tone at 48 kHz.
    static let steepestStep = 8_231.0 * 2 * Double.pi * 440 / 48_000
}
