import Foundation

/// Parses human durations exactly, without floating point: `5s`, `2.5s`, `400ms`, `1m30s`, `1h`, `90` (seconds),
/// `1/30` (seconds, a fraction: exposure times), `00:01:30.5` (clock form).
public enum DurationParser {
    /// The duration, or `nil` when `text` is not one. Negative durations are not durations.
    public static func parse(_ text: String) -> MediaTime? {
        let s = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if s.isEmpty { return nil }
        if s.contains(":") { return parseClock(s) }
        if let slash = s.firstIndex(of: "/") {
            let numerator = s[..<slash], denominator = s[s.index(after: slash)...]
            guard isDigits(numerator), isDigits(denominator),
                  let n = Int64(numerator), let d = Int32(denominator), d > 0 else {
                return nil
            }
            return MediaTime(value: n, timescale: d)
        }
        var total = MediaTime.zero
        var rest = Substring(s)
        var sawPart = false
        while !rest.isEmpty {
            let numberEnd = rest.firstIndex { !(isDigit($0) || $0 == ".") } ?? rest.endIndex
            let number = rest[..<numberEnd]
            rest = rest[numberEnd...]
            let unitEnd = rest.firstIndex { isDigit($0) || $0 == "." } ?? rest.endIndex
            let unit = rest[..<unitEnd]
            rest = rest[unitEnd...]
            guard !number.isEmpty, let value = decimal(number) else { return nil }
            let scaled: MediaTime
            switch unit {
            case "", "s", "sec", "secs", "second", "seconds":
                if unit.isEmpty && (sawPart || !rest.isEmpty) { return nil }
                scaled = value
            case "ms":
                let scale = Int64(value.timescale) * 1000
                guard scale <= Int64(Int32.max) else { return nil }
                scaled = MediaTime(value: value.value, timescale: Int32(scale))
            case "m", "min", "mins", "minute", "minutes":
                guard let v = try? value.multiplied(by: 60) else { return nil }
                scaled = v
            case "h", "hr", "hour", "hours":
                guard let v = try? value.multiplied(by: 3600) else { return nil }
                scaled = v
            default: return nil
            }
            guard let sum = try? total.adding(scaled) else { return nil }
            total = sum
            sawPart = true
        }
        return sawPart ? total : nil
    }

    /// `12.345` as exactly 12345/1000; at most 6 decimals.
    static func decimal(_ text: Substring) -> MediaTime? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        // Digits only: `Int64("-0")` and `Int64("+5")` parse, and a sign is not part of a duration.
        guard parts.count <= 2, parts[0].isEmpty || isDigits(parts[0]),
              let whole = Int64(parts[0].isEmpty ? "0" : parts[0]) else { return nil }
        if parts.count == 1 { return MediaTime(value: whole, timescale: 1) }
        let fraction = parts[1]
        guard !fraction.isEmpty, fraction.count <= 6, isDigits(fraction), let f = Int64(fraction) else {
            return nil
        }
        var scale: Int64 = 1
        for _ in 0..<fraction.count { scale *= 10 }
        let (w, o1) = whole.multipliedReportingOverflow(by: scale)
        let (v, o2) = w.addingReportingOverflow(f)
        if o1 || o2 { return nil }
        return MediaTime(value: v, timescale: Int32(scale))
    }

    static func parseClock(_ s: String) -> MediaTime? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        var total = MediaTime.zero
        for (i, part) in parts.enumerated() {
            let isLast = i == parts.count - 1
            let whole = isDigits(part) ? Int64(part).map { MediaTime(value: $0, timescale: 1) } : nil
            guard let value = isLast ? decimal(part) : whole else { return nil }
            // Minutes and seconds after the first field are below 60 (`1:75` is a typo, not 2:15).
            if i > 0 && value >= .seconds(60) { return nil }
            guard let shifted = try? total.multiplied(by: 60), let sum = try? shifted.adding(value) else { return nil }
            total = sum
        }
        return total
    }

    /// ASCII digits only (`Character.isNumber` also accepts "½" and "٣").
    static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }

    /// A non-empty run of ASCII digits.
    static func isDigits(_ text: Substring) -> Bool { !text.isEmpty && text.allSatisfy(isDigit) }

    /// Formats a duration as `HH:MM:SS.t` (tenths), the live timer's form.
    public static func clockString(_ time: MediaTime, decimals: Int = 1) -> String {
        let tenthsScale: Int32 = decimals == 3 ? 1000 : (decimals == 2 ? 100 : 10)
        let t = (try? time.rescaled(to: tenthsScale, rounding: .down).value) ?? 0
        let negative = t < 0
        let v = Swift.abs(t)
        let fraction = v % Int64(tenthsScale)
        let totalSeconds = v / Int64(tenthsScale)
        let h = totalSeconds / 3600, m = (totalSeconds / 60) % 60, s = totalSeconds % 60
        let frac = String(fraction)
        let padded = String(repeating: "0", count: max(0, decimals - frac.count)) + frac
        return (negative ? "-" : "") + String(format: "%02lld:%02lld:%02lld.", h, m, s) + padded
    }
}

import Foundation
