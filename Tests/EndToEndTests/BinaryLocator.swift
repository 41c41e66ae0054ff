import Foundation
import XCTest

/// Finds the built `pausecam` binary beside the test bundle (SwiftPM puts both in the same build folder).
enum BinaryLocator {
    static var pausecam: URL {
        _ = isolation
        var dir = Bundle(for: Marker.self).bundleURL
        while dir.pathComponents.count > 1 {
            let candidate = dir.appendingPathComponent("pausecam")
            if FileManager.default.isExecutableFile(atPath: candidate.path) && !candidate.hasDirectoryPath {
                return candidate
            }
            dir.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/pausecam")
    }
    final class Marker {}

    /// Every `pausecam` the tests start (directly, through a shell, or in tmux) inherits a private cache and runtime
    /// folder, set once for this test process before the first binary path is handed out: a cached encoder
    /// measurement from the user's own runs would add preset warnings to the tests' output, and a PauseCam the user
    /// has running would hold a rig's default control socket. A test that sets either variable itself wins.
    private static let isolation: Void = {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-e2e-\(getpid())")
        for (variable, folder) in [("XDG_CACHE_HOME", "cache"), ("XDG_RUNTIME_DIR", "runtime")] {
            let path = base.appendingPathComponent(folder).path
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
            setenv(variable, path, 1)
        }
    }()
}
