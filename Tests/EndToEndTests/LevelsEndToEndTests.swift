import Foundation
import PauseCamCore
import XCTest

/// Levels: a silent input is warned about after 5 s of recording (said, and in the sidecar), each scene's peak and
/// RMS are in the sidecar, and the shell's prompt shows a live meter on a real terminal.
final class LevelsEndToEndTests: XCTestCase {
    func testASilentMicrophoneIsWarnedAboutAndEveryScenesLevelsAreInTheSidecar() throws {
        let steps = ["record: Quiet", "wait: 3s", "pause", "wait: 1s", "resume: Still", "wait: 4s", "stop"]
        let silent = try SoundRig(audio: ["level: 0"], steps: steps).record("levels-silent")
        let said = silent.stdout + silent.stderr
        XCTAssertTrue(said.contains("the microphone has been silent (below −60 dBFS) for 5 s"), said)
        XCTAssertTrue(silent.sidecar.warnings.contains { $0.contains("silent (below −60 dBFS) for 5 s") },
                      "\(silent.sidecar.warnings)")
        XCTAssertEqual(silent.sidecar.scenes.map(\.audioPeak), [SoundLevel.floor, SoundLevel.floor])

        let tone = try SoundRig(audio: ["tone: 440"], steps: steps).record("levels-tone")
        XCTAssertFalse((tone.stdout + tone.stderr).contains("silent"), "a tone is not silence")
        XCTAssertTrue(tone.sidecar.warnings.allSatisfy { !$0.contains("silent") })
        for scene in tone.sidecar.scenes {
            XCTAssertEqual(scene.audioPeak ?? 0, -12, accuracy: 0.1, "the −12 dBFS tone")
            XCTAssertEqual(scene.audioRms ?? 0, -15, accuracy: 0.2, "a sine's RMS is 3 dB under its peak")
        }
    }

    func testTheShellPromptShowsALiveLevelMeter() throws {
        guard let tmuxPath = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else {
            throw XCTSkip("tmux is not installed: the real-terminal test needs it (apt-get install tmux)")
        }
        let directory = try ProcessRunner.temporaryDirectory("meter")
        let rigPath = directory.appendingPathComponent("sound.yaml")
        try SoundRig(audio: ["tone: 440"], steps: ["record", "stop"]).yaml.write(to: rigPath, atomically: true,
                                                                                encoding: .utf8)
        for (environment, meter) in [("-u NO_COLOR", "███▂"), ("NO_COLOR=1", "[###-]")] {
            let tmux = ShellTerminalTests.Tmux(binary: tmuxPath)
            defer { _ = try? tmux.run(["kill-server"]) }
            try tmux.start("env \(environment) \(BinaryLocator.pausecam.path) shell \(rigPath.path) --clock real "
                           + "--output \(directory.appendingPathComponent("out").path); sleep 60")
            XCTAssertNotNil(tmux.waitForScreen { $0.contains("idle main >") }, tmux.screen())
            try tmux.run(["send-keys", "-t", "shell", "record", "Enter"])
            XCTAssertNotNil(tmux.waitForScreen { _ in tmux.promptLine().contains(" \(meter) main >") },
                            "no meter \(meter): \(tmux.screen())")
        }
    }
}
