import Foundation

/// The JSON of `pausecam ctl status --json` and of `pausecam ctl watch`, for status bars and Stream Deck plug-ins:
/// one object per line, keys sorted, so a script can read it with `jq` and a test with `JSONSerialization`.
///
/// Times are exact `MediaTime`s until here; printing them is where they become decimal seconds (and the clock text
/// the shell shows, so a status bar need not format them).
public enum ControlStatusJSON {
    /// The live state: `state`, `scene`, `timer` (seconds) and `timer_text`, `lens`, `zoom` (the effective zoom:
    /// the lens's zoom × the digital zoom) and `digital_zoom` (the centre crop alone), both to two decimals, `file`
    /// (null while idle) and `dropped_frames`, plus the rig's name and `web`, the browser monitor's address (null
    /// when it is off; never with its token). `lenses`, when given, are the rig's lens names in rig order, so a
    /// shell's completion of `pausecam ctl lens` offers what the running rig has.
    public static func line(_ status: RigController.Status, rig: String, web: String? = nil,
                            lenses: [String]? = nil) -> String {
        var object: [String: Any] = [
            "rig": rig,
            "state": status.state.rawValue,
            "scene": status.scene,
            "timer": status.timer.seconds,
            "timer_text": DurationParser.clockString(status.timer, decimals: 3),
            "lens": status.lens,
            "zoom": twoDecimals(status.effectiveZoom),
            "digital_zoom": twoDecimals(status.digitalZoom),
            "file": status.moviePath.map { $0 as Any } ?? NSNull(),
            "dropped_frames": status.droppedFrames,
            "web": web.map { $0 as Any } ?? NSNull(),
        ]
        if let lenses { object["lenses"] = lenses }
        return encode(object)
    }

    /// One event as `watch` prints it: its `type`, `source`, `message` and values (`EngineEvent.jsonFields`).
    public static func event(_ event: EngineEvent) -> String {
        encode(event.jsonFields)
    }

    /// `factor` rounded to hundredths as a decimal number, so JSON shows `1.11`, never a binary double's
    /// `1.1100000000000001` (mid-ramp factors have many digits no status bar wants).
    static func twoDecimals(_ factor: Double) -> Any {
        guard factor.isFinite, abs(factor) < 1e12 else { return NSNull() }
        return Decimal(Int64((factor * 100).rounded())) / 100
    }

    private static func encode(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
              let text = String(data: data, encoding: .utf8) else {
            preconditionFailure("a dictionary of strings and numbers is always JSON")
        }
        return text
    }
}
