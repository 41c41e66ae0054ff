import Foundation
import XCTest

/// Which sanitizer the suite runs under, as `scripts/test-sanitizers` says in `PAUSECAM_UNDER_SANITIZER`
/// (`thread` or `address`); nothing in an ordinary run.
///
/// Why: a sanitized build runs several times slower, and a few end-to-end tests assert real-clock bounds (a scene
/// of exactly 2 s, at most 93 frames in 3 s) that only hold at normal speed. Those tests skip under the named
/// sanitizers — and only there, so an ordinary run still holds them to their bounds — while every other test, the
/// binary's children included, runs sanitized.
enum SanitizerRun {
    /// The sanitizer in effect, if any.
    static var current: String? { ProcessInfo.processInfo.environment["PAUSECAM_UNDER_SANITIZER"] }

    /// Skips the calling test when the suite runs under one of `sanitizers`, saying which bound cannot hold.
    static func skipTimingBound(under sanitizers: Set<String>, _ bound: String) throws {
        guard let current, sanitizers.contains(current) else { return }
        throw XCTSkip("under the \(current) sanitizer's slowdown \(bound) cannot hold (a real-clock bound, not a race)")
    }
}
