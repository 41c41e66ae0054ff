import Foundation
import PauseCamCore
import XCTest

/// One drift correction, smooth: ten minutes from a virtual microphone whose clock runs 1000 ppm fast (and slow)
/// stay within 5 ms of the video throughout (each second's flash against its beep), and a tone recorded the same
/// way has no discontinuity — libswresample's compensation stretches it; nothing is cut or filled.
final class DriftEndToEndTests: XCTestCase {
    static let tenMinutes = ["record: Drift", "wait: 600s", "stop"]

    func checkSync(ppm: Int) throws {
        let take = try SoundRig(audio: ["drift_ppm: \(ppm)"], steps: Self.tenMinutes).record("drift-sync\(ppm)")
        let flashes = try SoundRig.flashes(take.probe)
        let beeps = RecordingEndToEndTests.beepOnsets(try take.probe.audioSamples())
        XCTAssertGreaterThanOrEqual(flashes.count, 595, "a flash every second")
        XCTAssertGreaterThanOrEqual(beeps.count, 595, "a beep every second")
        var worst = 0.0
        for flash in flashes {
            guard let beep = beeps.min(by: { abs($0 - flash) < abs($1 - flash) }) else { continue }
            worst = max(worst, abs(beep - flash))
        }
        print("drift \(ppm) ppm: largest flash–beep offset \(String(format: "%.2f", worst * 1000)) ms over "
              + "\(flashes.count) flashes")
        XCTAssertLessThanOrEqual(worst, 0.005, "A/V offset beyond 5 ms at \(ppm) ppm")
        XCTAssertNil(take.sidecar.audio?.stalls, "drift is never a stall")
    }

    func checkTone(ppm: Int) throws {
        let take = try SoundRig(audio: ["tone: 440", "drift_ppm: \(ppm)", "declick: off"], steps: Self.tenMinutes)
            .record("drift-tone\(ppm)")
        let samples = try take.probe.audioSamples()
        XCTAssertEqual(Double(samples.count) / 48_000, 600, accuracy: 0.05, "ten minutes of sound, not more or less")
        // Away from the movie's start and end, no step beyond the tone's own (with AAC's noise): a cut or a
        // filled gap is a step of up to twice the amplitude.
        let inner = Array(samples[4800..<(samples.count - 4800)])
        let (_, largest) = SoundRig.steps(inner, seams: [], radius: 0)
        print("drift \(ppm) ppm, tone: largest step \(largest) (the tone's own \(Int(VirtualToneFigures.steepestStep)))")
        XCTAssertLessThanOrEqual(Double(largest), 1.5 * VirtualToneFigures.steepestStep, "a discontinuity in the tone")
    }

    func testTenMinutesThousandPPMFastStayInSync() throws { try checkSync(ppm: 1000) }
    func testTenMinutesThousandPPMSlowStayInSync() throws { try checkSync(ppm: -1000) }
    func testTenMinutesThousandPPMFastToneHasNoDiscontinuity() throws { try checkTone(ppm: 1000) }
    func testTenMinutesThousandPPMSlowToneHasNoDiscontinuity() throws { try checkTone(ppm: -1000) }
}
