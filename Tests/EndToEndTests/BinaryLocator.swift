import Foundation
import XCTest

/// Finds the built `pausecam` binary beside the test bundle (SwiftPM puts both in the same build folder).
enum BinaryLocator {
    static var pausecam: URL {
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
}
