import Foundation
import XCTest

/// The binary's sound card watcher on real libudev (umockdev "soundplug"): a rig whose microphone is missing at the
/// start sees the card its `match:` rule names plugged in and tries to open it — the only card it tries (the other
/// one plugged in is not its microphone). umockdev answers no ALSA ioctl, so the open fails and says so; the clip
/// goes on without sound. Sound resuming from a re-opened microphone is `MicrophoneReplugTests` (Core).
final class MicrophonePlugEndToEndTests: XCTestCase {
    func testAPluggedInCardThatTheRigNamesIsOpened() throws {
        try UmockdevScenario.run("soundplug", test: "EndToEndTests.MicrophonePlugInsideTestbedTests/testPluggedCardIsTried")
    }
}

/// Runs inside the umockdev "soundplug" testbed; skipped anywhere else.
final class MicrophonePlugInsideTestbedTests: XCTestCase {
    func testPluggedCardIsTried() throws {
        guard ProcessInfo.processInfo.environment["PAUSECAM_UMOCKDEV_SCENARIO"] == "soundplug" else {
            throw XCTSkip("runs inside the umockdev testbed (MicrophonePlugEndToEndTests starts it)")
        }
        let directory = try ProcessRunner.temporaryDirectory("microphone-plug")
        let rig = directory.appendingPathComponent("plug.yaml")
        try """
            name: Plug rig
            output:
              name: "{rig}"
              container: mov
              size: 160x90
              fps: 30
              video: {codec: h264, preset: ultrafast, crf: 30, keyframe_interval: 2s}
            audio:
              match: {usb: "b58e:9e84"}
            lenses:
              main:
                zoom: 1
                virtual: {color: "#20c040"}
            scripts:
              take:
                - record: One
                - wait: 6s
                - stop

            """.write(to: rig, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["run", rig.path, "--script", "take",
                                                                          "--output", output.path])
        let text = result.stdoutText + result.stderr
        XCTAssertEqual(result.status, 0, text)
        XCTAssertTrue(text.contains("no microphone matches usb \"b58e:9e84\""), "missing at the start: \(text)")
        XCTAssertTrue(text.contains("the microphone on sound card 2 (Yeti) was plugged in but cannot be opened"), text)
        XCTAssertFalse(text.contains("sound card 1"), "the C920's card is not the rig's microphone: \(text)")
    }
}
