import Foundation
import XCTest

/// A real-clock `pausecam shell` on the e2e rig whose standard input is a pipe the test keeps open, so the shell
/// is driven only from outside (`pausecam ctl`, raw socket clients, signals), and a private XDG_RUNTIME_DIR so its
/// socket is the test's alone.
final class ControlledShell: @unchecked Sendable {
    let running: RunningCommand
    let runtimeDirectory: URL
    let outputDirectory: URL
    var environment: [String: String] { ["XDG_RUNTIME_DIR": runtimeDirectory.path] }
    /// The default socket of the e2e rig ("E2E rig") in the test's runtime folder.
    var socketPath: String { runtimeDirectory.path + "/pausecam/e2e-rig.sock" }

    init(name: String, runtimeDirectory: URL? = nil, extraArguments: [String] = [], command: String = "shell",
         rig: String = ProcessRunner.rig("e2e.yaml")) throws {
        let runtime = try runtimeDirectory ?? ProcessRunner.temporaryDirectory("\(name)-run")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        self.runtimeDirectory = runtime
        outputDirectory = try ProcessRunner.temporaryDirectory("\(name)-out")
        running = try RunningCommand([command, rig, "--output", outputDirectory.path] + extraArguments,
                                     environment: ["XDG_RUNTIME_DIR": runtime.path], keepInputOpen: command == "shell")
    }

    /// Runs `pausecam ctl WORDS…` against this shell's runtime folder.
    func ctl(_ words: [String]) throws -> ProcessResult {
        try ProcessRunner.run(BinaryLocator.pausecam.path, ["ctl"] + words, environment: environment)
    }

    /// Polls `ctl status --json` until it answers and `condition` holds on the object (at most `seconds`).
    @discardableResult
    func waitForStatus(seconds: Double = 60, file: StaticString = #filePath, line: UInt = #line,
                       _ condition: ([String: Any]) -> Bool = { _ in true }) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            let result = try ctl(["status", "--json"])
            last = result.stdoutText + result.stderr
            if result.status == 0,
               let object = try? JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], condition(object) {
                return object
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTFail("status never met the condition within \(seconds) s; last: \(last)", file: file, line: line)
        return [:]
    }

    /// Ends standard input (the shell stops any clip and exits) and returns the exit status.
    func finish(seconds: Double = 90) -> Int32? {
        running.closeInput()
        return running.waitForExit(seconds: seconds)
    }
}
