import Foundation

/// How long the rig can go on recording: the free space where clips are written, less what must stay free (the
/// space a session stops at, `StoragePolicy.stopBelow`, and what finishing the clip needs, `FinishingReserve`),
/// divided by the rate the clip fills it at (`DataRateMeter`; while idle, the last clip's rate).
///
/// Unknown (`seconds` nil) when the free space or the rate is: before a clip has been measured, x264's constant
/// quality (`crf`) makes the rate the picture's, not the settings', so no honest figure can come from the rig alone.
/// What `status`, `status --json` (`time_left_s`, `time_left_warning`), the prompt and the monitor page show.
public struct RecordingTimeLeft: Sendable, Equatable {
    /// At or below this many seconds the time left is a warning (and `RecordingTimeAlarm` says so once).
    public static let warningSeconds = 600

    /// Whole seconds left, rounded down; `nil` when unknown.
    public var seconds: Int?
    /// The free space it was computed from, bytes; `nil` when unknown.
    public var freeBytes: Int64?
    /// The rate it was computed with, bytes a second; `nil` when unknown.
    public var bytesPerSecond: Double?

    /// `freeBytes` on the disk, of which `keepFree` must stay free, at `bytesPerSecond`. A rate that is not a
    /// positive finite number is unknown (nothing written yet says nothing about what recording costs).
    public init(freeBytes: Int64?, keepFree: Int64, bytesPerSecond: Double?) {
        self.freeBytes = freeBytes
        self.bytesPerSecond = bytesPerSecond
        guard let freeBytes, let rate = bytesPerSecond, rate.isFinite, rate > 0 else {
            seconds = nil
            return
        }
        let usable = max(0, Double(freeBytes) - Double(max(0, keepFree)))
        // A slow trickle on a big disk would give centuries: at most ten years, and never a trap.
        seconds = Int(min((usable / rate).rounded(.down), 315_360_000))
    }

    /// True when the time left is known and at most `warningSeconds`.
    public var isWarning: Bool { seconds.map { $0 <= Self.warningSeconds } ?? false }

    /// "3 h 12 min", "42 min", "40 s": whole minutes from a minute up, whole seconds below.
    public static func text(seconds: Int) -> String {
        let seconds = max(0, seconds)
        if seconds >= 3600 {
            let minutes = (seconds % 3600) / 60
            return "\(seconds / 3600) h" + (minutes > 0 ? " \(minutes) min" : "")
        }
        if seconds >= 60 { return "\(seconds / 60) min" }
        return "\(seconds) s"
    }

    /// "3 h 12 min left", or "unknown" when it is.
    public var text: String { seconds.map { Self.text(seconds: $0) + " left" } ?? "unknown" }

    /// A rate for people: "1.2 MB/s", "350 kB/s" (powers of 1000, as disk makers count).
    public static func rateText(bytesPerSecond rate: Double) -> String {
        if rate >= 1_000_000 { return String(format: "%.1f MB/s", rate / 1_000_000) }
        return String(format: "%.0f kB/s", rate / 1000)
    }
}
