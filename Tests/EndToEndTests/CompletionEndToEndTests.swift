import Foundation
import XCTest

/// The shell completions for real: bash with `share/completions/pausecam.bash` sourced, `COMP_WORDS`/`COMP_CWORD`
/// set and `_pausecam` called, asserting `COMPREPLY`; zsh with `_pausecam` sourced in a completion context whose
/// `compadd` prints what it is given. The first word is the built binary, which the completions ask: `check
/// --list-scripts` for `--script`, and the running PauseCam's `ctl status --json` for `ctl lens`.
final class CompletionEndToEndTests: XCTestCase {
    static let share = InstallEndToEndTests.repository + "/share/completions"
    let rig = ProcessRunner.rig("e2e.yaml")

    func tool(_ name: String) throws -> String {
        for folder in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
            return "\(folder)/\(name)"
        }
        throw XCTSkip("\(name) is not installed (scripts/install-deps installs it)")
    }

    func make(_ target: String, prefix: String) throws -> ProcessResult {
        try ProcessRunner.run(try tool("make"), ["-s", "-C", InstallEndToEndTests.repository, target,
                                                 "PREFIX=\(prefix)", "BINARY=\(BinaryLocator.pausecam.path)"])
    }

    /// What bash's `_pausecam` offers for `words` with the cursor on the last one.
    func bash(_ words: [String], environment: [String: String]? = nil) throws -> [String] {
        let result = try ProcessRunner.run("/bin/bash", ["-c", """
            source "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _pausecam; printf '%s\\n' "${COMPREPLY[@]}"
            """, "bash", Self.share + "/pausecam.bash", BinaryLocator.pausecam.path] + words, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        return result.stdoutText.split(separator: "\n").map(String.init)
    }

    /// What zsh's `_pausecam` hands to `compadd` for `words` with the cursor on the last one.
    func zsh(_ words: [String], environment: [String: String]? = nil) throws -> [String] {
        let zsh = try tool("zsh")
        let result = try ProcessRunner.run(zsh, ["-fc", """
            compadd() { print -rl -- "${@[${@[(i)--]}+1,-1]}" }
            _files() { print -r -- "(files)" }
            file=$1; shift
            words=("$@"); CURRENT=$#; source $file
            """, "zsh", Self.share + "/_pausecam", BinaryLocator.pausecam.path] + words, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        return result.stdoutText.split(separator: "\n").map(String.init)
    }

    func testScriptOffersTheScriptsOfTheRigOnTheLine() throws {
        XCTAssertEqual(try bash(["run", rig, "--script", ""]), ["pauses", "short", "long"])
        XCTAssertEqual(try bash(["run", "--clock", "simulated", rig, "--script", "l"]), ["long"])
        XCTAssertEqual(try zsh(["run", rig, "--script", ""]), ["pauses", "short", "long"])
        XCTAssertEqual(try zsh(["run", "--clock", "simulated", rig, "--script", ""]), ["pauses", "short", "long"])
        // No rig on the line yet, or one with errors: nothing to offer, and no message on the prompt.
        XCTAssertEqual(try bash(["run", "--script", ""]), [])
        XCTAssertEqual(try bash(["run", "/nonexistent.yaml", "--script", ""]), [])
    }

    func testCtlLensOffersTheRunningRigsLenses() throws {
        let shell = try ControlledShell(name: "completion-ctl")
        try shell.waitForStatus { $0["state"] as? String == "idle" }
        let environment = shell.environment
        XCTAssertEqual(try bash(["ctl", "lens", ""], environment: environment), ["wide", "main", "tele", "next"])
        XCTAssertEqual(try bash(["ctl", "--timeout", "3", "lens", "t"], environment: environment), ["tele"])
        XCTAssertEqual(try bash(["ctl", "le"], environment: environment), ["lens"])
        XCTAssertEqual(try bash(["ctl", "fol"], environment: environment), ["follow"])
        XCTAssertEqual(try bash(["ctl", "vo"], environment: environment), ["voice"])
        XCTAssertEqual(try zsh(["ctl", "lens", ""], environment: environment), ["wide", "main", "tele", "next"])
        XCTAssertEqual(try zsh(["ctl", "--socket", shell.socketPath, "lens", ""]), ["wide", "main", "tele", "next"])
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
        // With no PauseCam running, only `next`: the completion neither hangs nor prints an error.
        XCTAssertEqual(try bash(["ctl", "lens", ""], environment: environment), ["next"])
    }

    func testInstallSaysHowZshFindsTheCompletionOutsideItsFpath() throws {
        let zsh = try tool("zsh")
        let prefix = try ProcessRunner.temporaryDirectory("install-zsh").path
        let install = try make("install", prefix: prefix)
        XCTAssertEqual(install.status, 0, install.stderr + install.stdoutText)
        let functions = prefix + "/share/zsh/site-functions"
        XCTAssertTrue(install.stdoutText.contains("fpath=(\(functions) $fpath)"), install.stdoutText)
        // The line it gives works: with it, compinit registers the installed file.
        let dump = try ProcessRunner.temporaryDirectory("zcompdump-install").path + "/dump"
        let registered = try ProcessRunner.run(zsh, ["-fc", "fpath=(\"$1\" $fpath); autoload -Uz compinit; "
                                                     + "compinit -u -d \"$2\"; print -r -- ${_comps[pausecam]}",
                                                     "zsh", functions, dump])
        XCTAssertEqual(registered.stdoutText, "_pausecam\n", registered.stderr)
        XCTAssertEqual(try make("uninstall", prefix: prefix).status, 0)
    }
}
