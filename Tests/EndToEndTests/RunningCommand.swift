import Foundation
import XCTest

/// A `pausecam` process whose standard output and error are collected as they come, for tests that act while it
/// runs (send a signal, pull its output folder away) and then wait for its exit.
final class RunningCommand: @unchecked Sendable {
    let process = Process()
    private let output = PipeCollector()
    private let errors = PipeCollector()
    let started = Date()

    private let input = Pipe()

    /// `environment` is added to the test's own; `keepInputOpen` gives the process a standard input pipe that stays
    /// open until `closeInput()` (a piped shell then waits for lines instead of ending at once).
    init(_ arguments: [String], environment: [String: String] = [:], keepInputOpen: Bool = false) throws {
        process.executableURL = BinaryLocator.pausecam
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = keepInputOpen ? input : FileHandle.nullDevice
        process.standardOutput = output.pipe
        process.standardError = errors.pipe
        try process.run()
    }

    /// Writes one line to the standard input pipe given by `keepInputOpen`.
    func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// Ends the standard input pipe given by `keepInputOpen`.
    func closeInput() { try? input.fileHandleForWriting.close() }

    var stdout: String { output.text }
    var stderr: String { errors.text }

    /// Waits (at most `seconds`) until standard output contains `needle`.
    func waitFor(_ needle: String, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if stdout.contains(needle) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// The exit status once the process ended, or nil after `seconds`; the output is complete then.
    func waitForExit(seconds: Double = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        // Everything it wrote, to the pipes' ends (a process that left a child holding them: at most 10 s more).
        _ = output.waitForEnd()
        _ = errors.waitForEnd()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
