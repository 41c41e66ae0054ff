import Foundation
import PauseCamCore
#if canImport(Glibc)
import Glibc
#endif

/// One member of the group benchmark: `pausecam shell RIG --output FOLDER` of the release binary, its standard input
/// a pipe the bench writes lines into, its standard output collected as it comes so the bench can wait for what
/// the member says ("joined group", "recording scene 2") instead of guessing how long things take.
final class GroupBenchMember: Sendable {
    let host: String
    /// Where the member writes its movie and sidecar.
    let output: URL
    private let process = Process()
    private let input = Pipe()
    private let outputPipe = Pipe()
    /// What the member has said: the pipe's handler appends, the bench reads.
    private let text = Guarded("")
    private let changed = DispatchSemaphore(value: 0)

    /// Starts the member; `environment` is added to this process's own.
    init(pausecam: URL, host: String, rig: URL, output: URL, environment: [String: String]) throws {
        self.host = host
        self.output = output
        process.executableURL = pausecam
        process.arguments = ["shell", rig.path, "--output", output.path]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = outputPipe
        process.standardError = outputPipe
        outputPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            guard let self else { return }
            if chunk.isEmpty {
                handle.readabilityHandler = nil
            } else {
                self.text.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
            self.changed.signal()
        }
        try process.run()
    }

    /// Everything the member has written so far (standard output and error).
    var said: String { text.withLock { $0 } }

    /// Writes one line to the member's shell.
    func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// Waits until the member has written `needle` at least `count` times, or `deadline` passes, or it exits; true
    /// when it has.
    func wait(for needle: String, count: Int = 1, until deadline: Date) -> Bool {
        while true {
            if said.components(separatedBy: needle).count - 1 >= count { return true }
            let left = deadline.timeIntervalSinceNow
            guard left > 0, process.isRunning else { return said.components(separatedBy: needle).count - 1 >= count }
            _ = changed.wait(timeout: .now() + min(left, 0.5))
        }
    }

    /// Ends the shell (`quit`, then the end of its input) and waits at most `seconds` for it; its exit status, or
    /// nil when it had to be killed.
    @discardableResult
    func quit(seconds: Double = 60) -> Int32? {
        if process.isRunning {
            send("quit")
            try? input.fileHandleForWriting.close()
        }
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { _ = changed.wait(timeout: .now() + 0.2) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The last lines the member wrote, for a message about what went wrong.
    var tail: String { said.split(separator: "\n").suffix(6).joined(separator: " | ") }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
