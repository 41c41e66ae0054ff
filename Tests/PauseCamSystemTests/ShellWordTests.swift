import Foundation
import PauseCamCore
import XCTest

/// `ShellWord` is checked against real shells: each quoted word, given to `printf %s`, must come back unchanged
/// (nothing expanded, nothing run, one word). It lives with the system tests because it runs programs.
final class ShellWordTests: XCTestCase {
    static let hostileWords = [
        "", "plain", "two words", "it's", "'", "''", "$(touch pwned)", "`touch pwned`", "${HOME}", "$HOME",
        "a\\b", "\\", "\\'", "'\\''", "*", "?", "[a]", "~", "~root", "!event", "-n", "a\"b", "tab\there",
        "semi;colon", "amp&", "pipe|", "<in", ">out", "#comment", "é ● ‖", "it's $(touch pwned) {rig}.mov.partial",
    ]

    func testQuotedWordsTable() {
        XCTAssertEqual(ShellWord.quoted("plain"), "'plain'")
        XCTAssertEqual(ShellWord.quoted(""), "''")
        XCTAssertEqual(ShellWord.quoted("it's"), "'it'\\''s'")
        XCTAssertEqual(ShellWord.quoted("$(touch pwned)"), "'$(touch pwned)'")
        XCTAssertEqual(ShellWord.quoted("a\\b"), "'a'\\\\'b'")
    }

    func testPathsNeverLookLikeOptions() {
        XCTAssertEqual(ShellWord.path("/videos/-x.mov"), "'/videos/-x.mov'")
        XCTAssertEqual(ShellWord.path("-x.mov"), "'./-x.mov'")
        XCTAssertEqual(ShellWord.path("a:b.mov"), "'./a:b.mov'")
        XCTAssertEqual(ShellWord.path("./clip.mov"), "'./clip.mov'")
    }

    func testEveryShellHereReadsEachQuotedWordBackUnchanged() throws {
        let shells = ["/bin/sh", "/bin/bash", "/bin/dash", "/usr/bin/zsh", "/usr/bin/fish"]
            .filter { FileManager.default.isExecutableFile(atPath: $0) }
        guard !shells.isEmpty else { throw XCTSkip("no shell found") }
        let folder = NSTemporaryDirectory() + "pausecam-shellword-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for shell in shells {
            for word in Self.hostileWords {
                // Two words and a separator: proves each quoted word stays exactly one argument.
                let script = "cd \(ShellWord.quoted(folder)); printf '%s|' \(ShellWord.quoted(word)) \(ShellWord.quoted(word))"
                let (status, output) = try Self.run(shell, ["-c", script])
                XCTAssertEqual(status, 0, "\(shell): \(script)")
                XCTAssertEqual(output, word + "|" + word + "|", "\(shell) read \(ShellWord.quoted(word)) differently")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/pwned"), "\(shell) ran a command")
        }
    }

    private static func run(_ shell: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = arguments
        process.environment = ["HOME": "/nonexistent-home", "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
