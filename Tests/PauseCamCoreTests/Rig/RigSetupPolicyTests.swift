import XCTest
@testable import PauseCamCore

/// What a device problem at set-up means is decided in Core: cameras never stop the run, the microphone does only
/// when the rig requires sound, and the simulated clock refuses real devices.
final class RigSetupPolicyTests: XCTestCase {
    private func rig(required: Bool) -> Rig {
        Rig(name: "Desk", output: Rig.OutputSettings(width: 64, height: 36, rate: FrameRate(30)),
            audio: Rig.AudioInput(device: .alsa("hw:1,0"), required: required),
            lenses: [Rig.Lens(name: "main", source: .camera(.device("/dev/video4"))),
                     Rig.Lens(name: "wide", source: .virtual(color: RGBColor(hex: "#d03030")!))],
            defaultLens: "main")
    }

    func testTheMicrophoneStopsTheRunOnlyWhenTheRigRequiresSound() {
        let table: [(required: Bool, verdict: RigSetupPolicy.Verdict)] = [
            (false, .goOn(.microphoneNotOpened(microphone: "hw:1,0", reason: "No such device"))),
            (true, .refuseDevice("the microphone is required (audio.required: true), but No such device; nothing was "
                                 + "recorded")),
        ]
        for row in table {
            XCTAssertEqual(RigSetupPolicy(rig: rig(required: row.required))
                            .microphoneNotOpened("hw:1,0", reason: "No such device"), row.verdict, "required \(row.required)")
        }
        XCTAssertEqual(RigSetupPolicy(rig: rig(required: false)).microphoneOnSimulatedClock("hw:1,0"),
                       .goOn(.microphoneNeedsRealClock(microphone: "hw:1,0")))
        XCTAssertEqual(RigSetupPolicy(rig: rig(required: true)).microphoneOnSimulatedClock("hw:1,0"),
                       .refuseUsage("--clock simulated cannot drive the real microphone hw:1,0; recording video only"))
    }

    func testAMissingCameraNeverStopsTheRunButTheSimulatedClockRefusesRealOnes() throws {
        let policy = RigSetupPolicy(rig: rig(required: true))
        XCTAssertEqual(policy.cameraLenses.map(\.name), ["main"])
        let main = try XCTUnwrap(policy.rig.lens(named: "main"))
        guard case .goOn(let notice) = policy.noCameraMatches(main) else { return XCTFail("a missing camera refused") }
        XCTAssertTrue(notice.isWarning)
        XCTAssertEqual(notice, .noCameraMatches(lens: "main", rule: "\(Rig.MatchRule.device("/dev/video4"))"))
        XCTAssertEqual(policy.cameraNotOpened(main, device: "/dev/video4", reason: "busy"),
                       .goOn(.cameraNotOpened(lens: "main", device: "/dev/video4", reason: "busy")))
        XCTAssertEqual(policy.camerasNotListed(reason: "no udev"), .goOn(.camerasNotListed(reason: "no udev")))
        XCTAssertNil(policy.cameras(onSimulatedClock: false))
        // The default lens a real camera: refused. Another lens: allowed, said, and that lens has no camera.
        XCTAssertEqual(policy.cameras(onSimulatedClock: true),
                       .refuseUsage("--clock simulated drives virtual and file lenses only, and the default lens main "
                                    + "is a real camera; give default_lens a virtual or file lens, or leave out "
                                    + "--clock simulated"))
        var unused = rig(required: false)
        unused.defaultLens = "wide"
        XCTAssertEqual(RigSetupPolicy(rig: unused).cameras(onSimulatedClock: true),
                       .goOn(.camerasNeedRealClock(lenses: ["main"])))
        let virtualOnly = RigSetupPolicy(rig: Rig(name: "V", output: rig(required: false).output,
                                                  lenses: [rig(required: false).lenses[1]], defaultLens: "wide"))
        XCTAssertNil(virtualOnly.cameras(onSimulatedClock: true))
        XCTAssertEqual(policy.fileLensNotOpened(main, reason: "no such file"),
                       .refuseDevice("lens main: no such file; nothing was recorded"))
    }
}
