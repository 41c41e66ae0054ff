import Foundation
import PauseCamCore
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A clip is never lost to the terminal: standard output going to a pipe whose reader has gone (`| head -1`), or
/// closed altogether (`>&-`), must not end the recording. Before the fix the first write raised SIGPIPE (exit 141,
/// only the `.partial` left) or trapped in Foundation's `FileHandle.write`.
///
/// `| head -1` alone proves little: a fast run can write everything into the pipe's buffer before `head` exits,
/// and then no write ever fails. These tests close the pipe's read end *before* starting PauseCam, so every write
/// to its standard output meets EPIPE, deterministically.
final class BrokenPipeEndToEndTests: XCTestCase {
    func testARunWhoseOutputPipeHasNoReaderStillFinishesTheClip() throws {
        let directory = try ProcessRunner.temporaryDirectory("epipe-run")
        let result = try Self.runWithStandardOutputClosedPipe([
            "run", ProcessRunner.rig("e2e.yaml"), "--script", "pauses", "--clock", "simulated",
            "--output", directory.path,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("saved "), result.stderr)
        try assertFinishedClip(in: directory, scenes: 6)
    }

    func testAShellFedFromAPipeAndWritingIntoAPipeWithNoReaderStillFinishesTheClip() throws {
        let directory = try ProcessRunner.temporaryDirectory("epipe-shell")
        let result = try Self.runWithStandardOutputClosedPipe([
            "shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated", "--output", directory.path,
        ], input: "record\nwait 3s\npause\nresume\nwait 2s\n")
        // The piped shell prints everything (echoed commands, replies, events) on standard output: all of it met
        // EPIPE, yet end of input still stopped and saved the clip.
        XCTAssertEqual(result.status, 0, result.stderr)
        try assertFinishedClip(in: directory, scenes: 2)
    }

    func testARunWithStandardOutputClosedStillFinishesTheClipAndWritesNothingIntoIt() throws {
        let directory = try ProcessRunner.temporaryDirectory("closed-stdout")
        // `exec … >&-`: the program starts with descriptor 1 closed, so its next `open` would get descriptor 1.
        let result = try ProcessRunner.run("/bin/sh", [
            "-c", "exec \"$0\" \"$@\" >&-", BinaryLocator.pausecam.path,
            "run", ProcessRunner.rig("e2e.yaml"), "--script", "pauses", "--clock", "simulated",
            "--output", directory.path,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("saved "), result.stderr)
        try assertFinishedClip(in: directory, scenes: 6)
    }

    func testAShellWithStandardOutputAndErrorClosedStillFinishesTheClip() throws {
        let directory = try ProcessRunner.temporaryDirectory("closed-both")
        let commands = directory.appendingPathComponent("commands")
        try Data("record\nwait 3s\npause\nresume\nwait 2s\n".utf8).write(to: commands)
        let clips = directory.appendingPathComponent("clips")
        let result = try ProcessRunner.run("/bin/sh", [
            "-c", "exec \"$0\" \"$@\" <\"$COMMANDS\" >&- 2>&-", BinaryLocator.pausecam.path,
            "shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated", "--output", clips.path,
        ], environment: ["COMMANDS": commands.path])
        XCTAssertEqual(result.status, 0)
        try assertFinishedClip(in: clips, scenes: 2)
    }

    func testTheIssuesPipeIntoHeadLeavesAFinishedMovieWithChapters() throws {
        let directory = try ProcessRunner.temporaryDirectory("head")
        // The command of the report, at the rig's own size: its 13 s script takes long enough that `head` is gone
        // before most lines are written. `pipefail` makes PauseCam's own status the pipeline's.
        let result = try ProcessRunner.run("/bin/bash", [
            "-c", "set -o pipefail; \"$0\" run \"$1\" --script pauses --clock simulated --output \"$2\" | head -1",
            BinaryLocator.pausecam.path, ProcessRunner.rigsFolder.appendingPathComponent("virtual.yaml").path,
            directory.path,
        ])
        XCTAssertEqual(result.status, 0, "141 is SIGPIPE: \(result.stderr)")
        XCTAssertTrue(result.stdoutText.hasPrefix("running script \"pauses\""), result.stdoutText)
        try assertFinishedClip(in: directory, scenes: 6)
    }

    // MARK: Helpers

    /// A finished `NAME.mov` with `scenes` chapters, a complete sidecar with as many scenes, and no `.partial`.
    private func assertFinishedClip(in directory: URL, scenes: Int, file: StaticString = #filePath,
                                    line: UInt = #line) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        XCTAssertFalse(names.contains { $0.hasSuffix(".partial") || $0.contains(".tmp") }, "\(names)",
                       file: file, line: line)
        let movie = try XCTUnwrap(names.first { $0.hasSuffix(".mov") }, "no movie: \(names)", file: file, line: line)
        let probe = MediaProbe(path: directory.appendingPathComponent(movie).path)
        XCTAssertEqual(try probe.chapters().count, scenes, file: file, line: line)
        XCTAssertEqual(try probe.decodeErrors(), "", file: file, line: line)
        let sidecarURL = directory.appendingPathComponent(String(movie.dropLast(4)) + ".json")
        let sidecar = try Sidecar.decode(Data(contentsOf: sidecarURL))
        XCTAssertTrue(sidecar.complete, file: file, line: line)
        XCTAssertEqual(sidecar.scenes.count, scenes, file: file, line: line)
        XCTAssertEqual(try probe.duration(), sidecar.duration, accuracy: 0.05, file: file, line: line)
    }

    /// Runs the built `pausecam` with standard output on a pipe whose read end was closed before the start, and
    /// standard input from a file holding `input` (or /dev/null). Returns the status and standard error.
    private static func runWithStandardOutputClosedPipe(_ arguments: [String], input: String? = nil) throws
        -> (status: Int32, stderr: String) {
        var ends: [Int32] = [-1, -1]
        guard ends.withUnsafeMutableBufferPointer({ pipe($0.baseAddress) }) == 0 else {
            throw XCTSkip("pipe() failed: \(String(cString: strerror(errno)))")
        }
        close(ends[0])
        let writeEnd = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let process = Process()
        process.executableURL = BinaryLocator.pausecam
        process.arguments = arguments
        process.standardOutput = writeEnd
        if let input {
            let inputURL = try ProcessRunner.temporaryDirectory("input").appendingPathComponent("commands")
            try Data(input.utf8).write(to: inputURL)
            process.standardInput = try FileHandle(forReadingFrom: inputURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        try writeEnd.close()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
            return (128 + process.terminationStatus, errorText)
        }
        return (process.terminationStatus, errorText)
    }
}
