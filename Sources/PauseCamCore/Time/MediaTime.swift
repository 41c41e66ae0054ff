import Foundation

/// An exact point or span of media time: an integer count of ticks over a timescale (ticks per second), like
/// CMTime or AVRational-scaled timestamps. Arithmetic is exact; nothing becomes a `Double` until it is printed.
///
/// Overflow is an error, never a wrap: the throwing operations (`adding`, `subtracting`, `rescaled`) report
/// `MediaTimeError.overflow`, and the operators `+`/`-` trap on it, like Swift's integer operators do.
public struct MediaTime: Sendable, Hashable, CustomStringConvertible {
    /// Ticks of `1 / timescale` seconds.
    public var value: Int64
    /// Ticks per second; always positive.
    public var timescale: Int32

    /// Makes a time of `value` ticks of `1/timescale` s. A timescale that is not positive is a programming error.
    public init(value: Int64, timescale: Int32) {
        precondition(timescale > 0, "MediaTime timescale must be positive, got \(timescale)")
        self.value = value
        self.timescale = timescale
    }

    /// Zero seconds (timescale 1).
    public static let zero = MediaTime(value: 0, timescale: 1)

    /// Whole seconds.
    public static func seconds(_ seconds: Int64) -> MediaTime { MediaTime(value: seconds, timescale: 1) }
    /// Milliseconds, exactly.
    public static func milliseconds(_ ms: Int64) -> MediaTime { MediaTime(value: ms, timescale: 1000) }
    /// Nanoseconds, exactly: the resolution of `CLOCK_MONOTONIC` (a `timespec`'s seconds × 10⁹ + nanoseconds).
    public static func nanoseconds(_ ns: Int64) -> MediaTime { MediaTime(value: ns, timescale: 1_000_000_000) }

    /// A `timespec` (`tv_sec`, `tv_nsec`) as an exact nanosecond time; `nil` when it does not fit an `Int64`.
    public static func timespec(seconds: Int64, nanoseconds: Int64) -> MediaTime? {
        let (s, o1) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (t, o2) = s.addingReportingOverflow(nanoseconds)
        return (o1 || o2) ? nil : .nanoseconds(t)
    }

    // MARK: Comparison across timescales

    /// Compares `a.value / a.timescale` with `b.value / b.timescale` exactly, by cross-multiplying in 128 bits.
    static func compare(_ a: MediaTime, _ b: MediaTime) -> Int {
        if a.timescale == b.timescale { return a.value < b.value ? -1 : (a.value == b.value ? 0 : 1) }
        let l = a.value.multipliedFullWidth(by: Int64(b.timescale))
        let r = b.value.multipliedFullWidth(by: Int64(a.timescale))
        if l.high != r.high { return l.high < r.high ? -1 : 1 }
        if l.low != r.low { return l.low < r.low ? -1 : 1 }
        return 0
    }

    /// Equal when the two denote the same instant, whatever their timescales (1/2 == 500/1000).
    public static func == (a: MediaTime, b: MediaTime) -> Bool { compare(a, b) == 0 }

    /// Hashes the reduced fraction, so that equal instants in different timescales hash alike.
    public func hash(into hasher: inout Hasher) {
        // `magnitude`, not `abs`: `abs(Int64.min)` traps. The gcd divides `timescale`, so it fits an Int64.
        var (x, y) = (value.magnitude, UInt64(timescale))
        while y != 0 { (x, y) = (y, x % y) }
        let d = Int64(x)
        hasher.combine(value / d)
        hasher.combine(Int64(timescale) / d)
    }

    // MARK: Arithmetic

    /// The sum, in a timescale that represents both exactly (their least common multiple) when it fits an `Int32`,
    /// otherwise in the larger of the two timescales, rounding to nearest.
    public func adding(_ other: MediaTime) throws(MediaTimeError) -> MediaTime {
        let scale = MediaTime.commonTimescale(timescale, other.timescale)
        let a = try rescaled(to: scale, rounding: .nearest)
        let b = try other.rescaled(to: scale, rounding: .nearest)
        let (sum, overflow) = a.value.addingReportingOverflow(b.value)
        if overflow { throw .overflow }
        return MediaTime(value: sum, timescale: scale)
    }

    /// The difference, in the same timescale `adding` would choose.
    public func subtracting(_ other: MediaTime) throws(MediaTimeError) -> MediaTime {
        let scale = MediaTime.commonTimescale(timescale, other.timescale)
        let a = try rescaled(to: scale, rounding: .nearest)
        let b = try other.rescaled(to: scale, rounding: .nearest)
        let (difference, overflow) = a.value.subtractingReportingOverflow(b.value)
        if overflow { throw .overflow }
        return MediaTime(value: difference, timescale: scale)
    }

    /// The sum as `adding` makes it, or, when that overflows, the time furthest from zero its timescale holds on
    /// the sum's side (`Int64.max` or `Int64.min` ticks): for times computed from outside numbers, where an answer
    /// far off in the future or past is harmless and a trap is not.
    public func saturatingAdding(_ other: MediaTime) -> MediaTime {
        if let sum = try? adding(other) { return sum }
        // The exact sum's sign: a/s + b/t has the sign of a·t + b·s (under 2^95 in magnitude).
        let crossed = Int128(value) * Int128(other.timescale) + Int128(other.value) * Int128(timescale)
        return MediaTime(value: crossed < 0 ? .min : .max, timescale: MediaTime.commonTimescale(timescale, other.timescale))
    }

    /// This time `count` times over (a frame duration × a frame count, say).
    public func multiplied(by count: Int64) throws(MediaTimeError) -> MediaTime {
        let (product, overflow) = value.multipliedReportingOverflow(by: count)
        if overflow { throw .overflow }
        return MediaTime(value: product, timescale: timescale)
    }

    /// How the last tick is chosen when a rescale is not exact.
    public enum Rounding: Sendable {
        /// Toward −∞.
        case down
        /// Toward +∞.
        case up
        /// To the nearest tick, halves away from zero (FFmpeg's `AV_ROUND_NEAR_INF`).
        case nearest
    }

    /// The same instant in another timescale, rounded as asked when it is not exact.
    public func rescaled(to newScale: Int32, rounding: Rounding) throws(MediaTimeError) -> MediaTime {
        precondition(newScale > 0, "MediaTime timescale must be positive, got \(newScale)")
        if newScale == timescale { return self }
        let product = value.multipliedFullWidth(by: Int64(newScale))
        let divisor = Int64(timescale)
        // 128-by-64 division: |value × newScale| < 2^95, so the quotient fits once checked against Int64.
        guard let (quotient, remainder) = MediaTime.divide(product, by: divisor) else { throw .overflow }
        var step: Int64 = 0
        if remainder != 0 {
            switch rounding {
            case .down: if remainder < 0 { step = -1 }
            case .up: if remainder > 0 { step = 1 }
            case .nearest:
                // |remainder| < divisor <= Int32.max, so doubling it cannot overflow.
                if Swift.abs(remainder) * 2 >= divisor { step = remainder > 0 ? 1 : -1 }
            }
        }
        // The rounding step itself can leave Int64 (Int64.max ticks rounded up): an error, not a trap.
        let (q, overflow) = quotient.addingReportingOverflow(step)
        if overflow { throw .overflow }
        return MediaTime(value: q, timescale: newScale)
    }

    /// Seconds as a `Double`: for printing and for reports only, never for arithmetic.
    public var seconds: Double { Double(value) / Double(timescale) }

    public var description: String { "\(value)/\(timescale)" }

    /// The smaller of two times.
    public static func min(_ a: MediaTime, _ b: MediaTime) -> MediaTime { a < b ? a : b }
    /// The larger of two times.
    public static func max(_ a: MediaTime, _ b: MediaTime) -> MediaTime { a < b ? b : a }

    // MARK: Internals

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }

    static func commonTimescale(_ a: Int32, _ b: Int32) -> Int32 {
        if a == b { return a }
        let lcm = Int64(a) / gcd(Int64(a), Int64(b)) * Int64(b)
        return lcm <= Int64(Int32.max) ? Int32(lcm) : Swift.max(a, b)
    }

    /// Signed 128-by-64 division with truncation toward zero; `nil` when the quotient does not fit an `Int64`.
    static func divide(_ dividend: (high: Int64, low: UInt64), by divisor: Int64) -> (Int64, Int64)? {
        let negative = dividend.high < 0
        // Magnitude of the 128-bit dividend.
        var high = UInt64(bitPattern: dividend.high)
        var low = dividend.low
        if negative {
            low = ~low &+ 1
            high = ~high &+ (low == 0 ? 1 : 0)
        }
        let d = UInt64(divisor)
        guard high < d else { return nil }
        let (q, r) = d.dividingFullWidth((high, low))
        if negative {
            guard q <= UInt64(Int64.max) + 1 else { return nil }
            let quotient = q == UInt64(Int64.max) + 1 ? Int64.min : -Int64(q)
            return (quotient, -Int64(r))
        }
        guard q <= UInt64(Int64.max) else { return nil }
        return (Int64(q), Int64(r))
    }
}

extension MediaTime: Comparable {
    public static func < (a: MediaTime, b: MediaTime) -> Bool { compare(a, b) < 0 }
}

extension MediaTime {
    /// The sum; traps on overflow like `Int64.+`. Use `adding(_:)` where the operands come from outside.
    public static func + (a: MediaTime, b: MediaTime) -> MediaTime {
        do { return try a.adding(b) } catch { preconditionFailure("MediaTime overflow: \(a) + \(b)") }
    }
    /// The difference; traps on overflow like `Int64.-`. Use `subtracting(_:)` where the operands come from outside.
    public static func - (a: MediaTime, b: MediaTime) -> MediaTime {
        do { return try a.subtracting(b) } catch { preconditionFailure("MediaTime overflow: \(a) - \(b)") }
    }
}

/// Why a `MediaTime` operation failed.
public enum MediaTimeError: Error, Sendable, Equatable {
    /// The exact result does not fit an `Int64` count of ticks.
    case overflow
}

/// A rate such as 30 fps or 30000/1001 fps, kept as an exact fraction.
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
    /// Frames per `denominator` seconds.
    public var numerator: Int32
    /// Seconds per `numerator` frames.
    public var denominator: Int32

    public init(_ numerator: Int32, _ denominator: Int32 = 1) {
        precondition(numerator > 0 && denominator > 0, "a frame rate is positive")
        self.numerator = numerator
        self.denominator = denominator
    }

    /// One frame's duration, exact: `denominator / numerator` seconds.
    public var frameDuration: MediaTime { MediaTime(value: Int64(denominator), timescale: numerator) }

    /// Frames per second, for printing.
    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }

    /// "30", or "29.97" for 30000/1001 (three significant digits printed 29.97 fps as "30").
    public var description: String {
        numerator % denominator == 0 ? "\(numerator / denominator)" : String(format: "%.2f", framesPerSecond)
    }
}
