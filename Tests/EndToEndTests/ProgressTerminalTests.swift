import Foundation
import XCTest

/// The progress line of a long simulated script: drawn in place on a terminal (tmux), never into a pipe.
final class ProgressTerminalTests: XCTestCase {
    /// Two minutes of simulated time at a tiny size: long enough to see the line, quick to run.
    static let rig = """
        name: Progress rig
        output:
          name: "{rig}"
          size: 160x90
          fps: 30
          video: {codec: h264, preset: ultrafast, crf: 30, keyframe_interval: 2s}
        audio:
          device: virtual
        lenses:
          main:
            zoom: 1
            virtual: {color: "#20c040"}
            size: 160x90
            fps: 30
        scripts:
          long:
            - record
            - wait: 2m
            - stop

        """

    private func writeRig() throws -> String {
        let path = try ProcessRunner.temporaryDirectory("progress-rig").appendingPathComponent("progress.yaml").path
        try Self.rig.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testATerminalShowsOneProgressLineThatIsClearedAtTheEnd() throws {
        guard let tmuxPath = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else {
            throw XCTSkip("tmux is not installed: the real-terminal test needs it (apt-get install tmux)")
        }
        let tmux = ShellTerminalTests.Tmux(binary: tmuxPath)
        let output = try ProcessRunner.temporaryDirectory("progress-tmux")
        let command = "\(BinaryLocator.pausecam.path) run \(try writeRig()) --clock simulated --output \(output.path)"
            + "; echo PAUSECAM-EXIT $?; sleep 120"
        try tmux.start(command)
        defer { _ = try? tmux.run(["kill-server"]) }

        let during = tmux.waitForScreen(seconds: 60) { $0.contains("script left") && $0.contains("x") }
        let screen = try XCTUnwrap(during, tmux.screen())
        let progress = screen.components(separatedBy: "\n").filter { $0.contains("script left") }
        XCTAssertEqual(progress.count, 1, "one line, rewritten in place:\n\(screen)")
        let line = try XCTUnwrap(progress.first)
        XCTAssertTrue(line.hasPrefix("movie 00:0"), line)
        XCTAssertNotNil(line.range(of: #"speed (…|\d+\.\dx)"#, options: .regularExpression), line)

        let end = tmux.waitForScreen(seconds: 120) { $0.contains("PAUSECAM-EXIT") }
        let finalScreen = try XCTUnwrap(end, tmux.screen())
        XCTAssertTrue(finalScreen.contains("PAUSECAM-EXIT 0"), finalScreen)
        XCTAssertFalse(finalScreen.contains("script left"), "the line was not cleared:\n\(finalScreen)")
        XCTAssertTrue(finalScreen.contains("movie:   \(output.path)/progress-rig.mov"), finalScreen)
    }

    func testAPipedShellsLongWaitShowsTheLineOnATerminal() throws {
        guard let tmuxPath = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else {
            throw XCTSkip("tmux is not installed: the real-terminal test needs it (apt-get install tmux)")
        }
        let tmux = ShellTerminalTests.Tmux(binary: tmuxPath)
        let output = try ProcessRunner.temporaryDirectory("progress-shell")
        let command = "printf 'record\\nwait 2m\\nstop\\n' | \(BinaryLocator.pausecam.path) shell \(try writeRig()) "
            + "--clock simulated --output \(output.path); echo PAUSECAM-EXIT $?; sleep 120"
        try tmux.start(command)
        defer { _ = try? tmux.run(["kill-server"]) }
        let during = tmux.waitForScreen(seconds: 60) { $0.contains("script left") }
        XCTAssertNotNil(during, tmux.screen())
        let end = try XCTUnwrap(tmux.waitForScreen(seconds: 120) { $0.contains("PAUSECAM-EXIT") }, tmux.screen())
        XCTAssertFalse(end.contains("script left"), "the line was not cleared:\n\(end)")
    }

    func testAPipeGetsNoProgressLine() throws {
        let output = try ProcessRunner.temporaryDirectory("progress-pipe")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["run", try writeRig(), "--clock", "simulated", "--output", output.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("script left"), result.stderr)
        XCTAssertFalse(result.stderr.contains("\r"), result.stderr)
        XCTAssertFalse(result.stdoutText.contains("script left"), result.stdoutText)
    }
}
