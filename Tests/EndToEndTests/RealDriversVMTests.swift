import Foundation
import XCTest

/// PauseCam against real kernel drivers — two `vivid` cameras, the `snd-aloop` sound card and udevd — in a
/// throw-away QEMU guest (TCG) booted from Debian's kernel: a recording with a lens switch, a rule that fits both
/// cameras, the cameras unbound and bound again mid-recording, a frozen camera, and two voices on two capture PCMs
/// of the loopback card, each on its own titled track. `scripts/vm/run-vm-test` does the work and checks the movies
/// with ffprobe/ffmpeg on the host (the voices' beeps with `scripts/vm/voice-beeps.py`); this test runs it as part
/// of the suite (`make vm-test` runs it alone).
final class RealDriversVMTests: XCTestCase {
    func testRecordingOnVividCamerasAndAnAloopMicrophoneInAThrowAwayGuest() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/qemu-system-x86_64") else {
            throw XCTSkip("qemu-system-x86_64 is not installed (scripts/install-deps installs qemu-system-x86)")
        }
        let result = try ProcessRunner.run(root.appendingPathComponent("scripts/vm/run-vm-test").path, [],
                                           environment: ["PAUSECAM": BinaryLocator.pausecam.path])
        let output = result.stdoutText + result.stderr
        XCTAssertEqual(result.status, 0, output)
        XCTAssertTrue(result.stdoutText.contains("vm-test: PASS"), output)
        XCTAssertFalse(output.contains("vm-test: FAIL"), output)
    }
}
