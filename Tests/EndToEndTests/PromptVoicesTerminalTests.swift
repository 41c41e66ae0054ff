import Foundation
import XCTest

/// The prompt of a rig of voices on a real terminal (tmux, as `ShellTerminalTests`): while recording, a meter per
/// voice in place of the one microphone meter, a muted voice marked `×` once `voice NAME mute` is carried out, and
/// Tab completing a voice's name and then what to change.
final class PromptVoicesTerminalTests: XCTestCase {
    func testThePromptShowsAMeterPerVoiceAndTheMutedOne() throws {
        guard let tmuxPath = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else {
            throw XCTSkip("tmux is not installed: the real-terminal test needs it (apt-get install tmux)")
        }
        let directory = try ProcessRunner.temporaryDirectory("prompt-voices")
        let tmux = ShellTerminalTests.Tmux(binary: tmuxPath)
        defer { _ = try? tmux.run(["kill-server"]) }
        try tmux.start("env -u NO_COLOR \(BinaryLocator.pausecam.path) shell \(ProcessRunner.rig("e2e-voices.yaml")) "
                       + "--clock real --output \(directory.appendingPathComponent("out").path) "
                       + "--socket \(directory.appendingPathComponent("voices.sock").path); sleep 60")
        XCTAssertNotNil(tmux.waitForScreen { $0.contains("idle wide >") }, tmux.screen())

        try tmux.run(["send-keys", "-t", "shell", "record", "Enter"])
        let meters = try NSRegularExpression(pattern: "● REC scene 1 \\S+ host[▮▯]{4}!? guest[▮▯]{4}!? \\S+ >")
        let matches = { (pattern: NSRegularExpression) -> Bool in
            let line = tmux.promptLine()
            return pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
        }
        XCTAssertNotNil(tmux.waitForScreen { _ in matches(meters) }, "no meter per voice: \(tmux.screen())")
        XCTAssertFalse(tmux.promptLine().contains("█"), "the one microphone meter is not shown: \(tmux.promptLine())")

        // Tab completes the voice, then what to change in it.
        try tmux.run(["send-keys", "-t", "shell", "voice gu", "Tab"])
        XCTAssertNotNil(tmux.waitForScreen(seconds: 5) { _ in tmux.promptLine().hasSuffix("> voice guest") },
                        tmux.screen())
        try tmux.run(["send-keys", "-t", "shell", " m", "Tab"])
        XCTAssertNotNil(tmux.waitForScreen(seconds: 5) { _ in tmux.promptLine().hasSuffix("> voice guest mute") },
                        tmux.screen())
        try tmux.run(["send-keys", "-t", "shell", "Enter"])
        XCTAssertNotNil(tmux.waitForScreen { $0.contains("voice guest muted in the mix") }, tmux.screen())
        let muted = try NSRegularExpression(pattern: "● REC scene 1 \\S+ host[▮▯]{4}!? guest× \\S+ >")
        XCTAssertNotNil(tmux.waitForScreen { _ in matches(muted) }, "guest not shown muted: \(tmux.screen())")
    }
}
