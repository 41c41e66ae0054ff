import Foundation
import XCTest

/// `make install` / `make uninstall` into a throw-away prefix, with the already-built binary (`BINARY=`), so no
/// release build runs inside the test. Each installed piece is checked by the tool that uses it.
final class InstallEndToEndTests: XCTestCase {
    static var repository: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    func tool(_ name: String) throws -> String {
        for folder in ["/usr/bin", "/usr/local/bin", "/bin"] {
            let path = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw XCTSkip("\(name) is not installed")
    }

    func make(_ target: String, prefix: String, extra: [String] = []) throws -> ProcessResult {
        try ProcessRunner.run(try tool("make"), ["-s", "-C", Self.repository, target, "PREFIX=\(prefix)",
                                                 "BINARY=\(BinaryLocator.pausecam.path)"] + extra)
    }

    /// Every path under `folder`, relative, sorted.
    func contents(_ folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
    }

    func testInstallPutsEveryPieceInPlaceAndUninstallLeavesThePrefixEmpty() throws {
        let prefix = try ProcessRunner.temporaryDirectory("install").path
        let rig = prefix + "-config/my rig.yaml"
        let install = try make("install", prefix: prefix, extra: ["RIG=\(rig)"])
        XCTAssertEqual(install.status, 0, install.stderr + install.stdoutText)
        XCTAssertEqual(contents(prefix), [
            "bin", "bin/pausecam", "share", "share/applications", "share/applications/pausecam.desktop",
            "share/bash-completion", "share/bash-completion/completions", "share/bash-completion/completions/pausecam",
            "share/fish", "share/fish/vendor_completions.d", "share/fish/vendor_completions.d/pausecam.fish",
            "share/man", "share/man/man1", "share/man/man1/pausecam.1", "share/pausecam",
            "share/pausecam/install-manifest", "share/zsh", "share/zsh/site-functions",
            "share/zsh/site-functions/_pausecam",
        ])

        // The installed binary runs.
        let version = try ProcessRunner.run(prefix + "/bin/pausecam", ["--version"])
        XCTAssertEqual(version.stdoutText, "pausecam 0.1.0\n")

        // The launcher validates, and its actions drive the installed binary.
        let desktop = prefix + "/share/applications/pausecam.desktop"
        let validate = try ProcessRunner.run(try tool("desktop-file-validate"), [desktop])
        XCTAssertEqual(validate.status, 0, validate.stdoutText + validate.stderr)
        XCTAssertEqual(validate.stdoutText + validate.stderr, "", "hints or warnings")
        let entry = try String(contentsOfFile: desktop, encoding: .utf8)
        for exec in ["Exec=\"\(prefix)/bin/pausecam\" shell \"\(rig)\"", "Exec=\"\(prefix)/bin/pausecam\" ctl toggle",
                     "Exec=\"\(prefix)/bin/pausecam\" ctl mark Marker"] {
            XCTAssertTrue(entry.contains(exec + "\n"), "no \(exec) in\n\(entry)")
        }

        // The bash completion loads and completes.
        let bash = try ProcessRunner.run(try tool("bash"), ["-c", """
            source "$1"; complete -p pausecam
            COMP_WORDS=(pausecam export clip.json --format f); COMP_CWORD=4; _pausecam; echo "${COMPREPLY[*]}"
            """, "bash", prefix + "/share/bash-completion/completions/pausecam"])
        XCTAssertEqual(bash.status, 0, bash.stderr)
        XCTAssertEqual(bash.stdoutText, "complete -F _pausecam pausecam\nfcpxml ffmetadata\n")

        // The man page renders without a warning and carries the help text.
        let man = try ProcessRunner.run(try tool("groff"), ["-k", "-man", "-Tutf8", "-ww",
                                                            prefix + "/share/man/man1/pausecam.1"])
        XCTAssertEqual(man.status, 0, man.stderr)
        XCTAssertEqual(man.stderr, "")
        let page = man.stdoutText.replacingOccurrences(of: "\u{8}.", with: "", options: .regularExpression)
        XCTAssertTrue(page.contains("PAUSECAM(1)"), page)
        XCTAssertTrue(page.contains("pausecam export CLIP.json --format FORMAT"), page)
        XCTAssertTrue(page.contains("EXIT STATUS"), page)
        // It stands alone: README.md is not installed, so the page carries the rig reference and the environment.
        XCTAssertFalse(page.contains("README"), "the man page points at a README that is not installed")
        for section in ["RIG FILE", "ENVIRONMENT"] { XCTAssertTrue(page.contains(section), "no \(section) section") }
        for key in ["max_digital_zoom", "keyframe_interval", "zoom_presets:", "PAUSECAM_DISK_WARN_BYTES"] {
            XCTAssertTrue(page.contains(key), "the man page lacks \(key)")
        }

        // Installing over an installation is refused, and changes nothing.
        let again = try make("install", prefix: prefix)
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.stderr.contains("already installed"), again.stderr)

        let uninstall = try make("uninstall", prefix: prefix)
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertEqual(contents(prefix), [])
    }

    func testUninstallRemovesOnlyWhatInstallMade() throws {
        let prefix = try ProcessRunner.temporaryDirectory("install-shared").path
        let manager = FileManager.default
        try manager.createDirectory(atPath: prefix + "/share/applications", withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: prefix + "/share/applications/other.desktop"))
        try manager.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        XCTAssertEqual(try make("install", prefix: prefix).status, 0)
        let uninstall = try make("uninstall", prefix: prefix)
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        XCTAssertEqual(contents(prefix), ["bin", "share", "share/applications", "share/applications/other.desktop"])
        // A second uninstall has nothing to remove and says so.
        let twice = try make("uninstall", prefix: prefix)
        XCTAssertNotEqual(twice.status, 0)
        XCTAssertTrue(twice.stderr.contains("nothing of pausecam is installed"), twice.stderr)
    }

    func testZshAndFishCompletionsLoad() throws {
        let zsh = try? tool("zsh"), fish = try? tool("fish")
        guard zsh != nil || fish != nil else {
            throw XCTSkip("neither zsh nor fish is installed (packages zsh, fish) to load their completion files")
        }
        let share = Self.repository + "/share/completions"
        if let zsh {
            let parsed = try ProcessRunner.run(zsh, ["-n", share + "/_pausecam"])
            XCTAssertEqual(parsed.status, 0, parsed.stderr)
            let dump = try ProcessRunner.temporaryDirectory("zcompdump").path + "/dump"
            let registered = try ProcessRunner.run(zsh, ["-fc", "fpath=(\"$1\" $fpath); autoload -Uz compinit; "
                                                          + "compinit -u -d \"$2\"; print -r -- ${_comps[pausecam]}",
                                                         "zsh", share, dump])
            XCTAssertEqual(registered.stdoutText, "_pausecam\n", registered.stderr)
        }
        if let fish {
            let completed = try ProcessRunner.run(fish, ["-c", "source $argv[1]; "
                                                         + "complete -C 'pausecam export x.json --format f'",
                                                         share + "/pausecam.fish"])
            XCTAssertEqual(completed.stdoutText, "fcpxml\nffmetadata\n", completed.stderr)
        }
    }
}
