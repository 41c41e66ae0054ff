import Foundation

/// What a member's clock error (`adjtimex` esterror, in its retained status) means for the group, in the words
/// `ctl --group status` prints: the figure alone ("clock error ±16000.000 ms") tells a person nothing.
///
/// The kernel caps the estimate at 16 s and reports exactly that when no time service disciplines the clock; a
/// member whose error passes a quarter frame may land its boundaries a frame away from the others' (`ClockHealth`).
public enum ClockErrorText {
    /// The kernel's cap on `esterror`, nanoseconds: what an unsynchronised clock reports.
    public static let unsynchronisedNanoseconds: Int64 = 16_000_000_000

    /// "clock error ±0.012 ms (within a quarter frame)", "clock error ±40.000 ms, more than a quarter frame at 30
    /// fps (8.333 ms): boundaries may land a frame apart; a nearer NTP or PTP server helps" or "clock not
    /// synchronised (…): start chrony or ptp4l with phc2sys on it". `rate` nil: the figure without a verdict.
    public static func describe(errorNanoseconds error: Int64, rate: FrameRate?) -> String {
        let figure = "clock error ±" + String(format: "%.3f", Double(error) / 1e6) + " ms"
        if error >= unsynchronisedNanoseconds {
            return "clock not synchronised (the kernel's largest error estimate, \(figure)): its boundaries may land "
                + "frames apart from the group's, and with require_sync: true it refuses to record; start chrony or "
                + "ptp4l with phc2sys on it"
        }
        guard let rate, rate.numerator > 0, rate.denominator > 0 else { return figure }
        // error ns > den / (4 × num) s  ⟺  error × 4 × num > den × 10⁹, exactly.
        let quarter = Int128(rate.denominator) * 1_000_000_000
        guard Int128(error) * 4 * Int128(rate.numerator) > quarter else { return figure + " (within a quarter frame)" }
        let quarterMilliseconds = Double(rate.denominator) * 1000 / (4 * Double(rate.numerator))
        return figure + ", more than a quarter frame at \(rate) fps (" + String(format: "%.3f", quarterMilliseconds)
            + " ms): its boundaries may land a frame apart from the group's; a nearer NTP or PTP server helps"
    }
}
