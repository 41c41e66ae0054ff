import PauseCamCore

/// The virtual microphone's sample clock against the session clock: sample k is captured at
/// k / (48000 × (1 + ppm/10⁶)) s, so a clock `ppm` fast delivers that many more samples per million than the
/// nominal rate says, as a real USB microphone's crystal does. Exact integer arithmetic, so a ten-minute test sees
/// the same drift as the formula.
public struct VirtualSoundClock: Sendable, Equatable {
    /// The nominal rate the microphone claims.
    public let nominalRate: Int64
    /// Parts per million fast (positive) or slow (negative).
    public let ppm: Int64

    public init(nominalRate: Int32, ppm: Int) {
        precondition(nominalRate > 0 && ppm > -1_000_000, "a sample clock runs forward")
        self.nominalRate = Int64(nominalRate)
        self.ppm = Int64(ppm)
    }

    /// Sample k's capture time as a fraction `numerator / denominator` seconds (denominator = rate × (10⁶ + ppm)).
    public var denominator: Int64 { nominalRate * (1_000_000 + ppm) }

    /// The numerator of sample k's capture time over `denominator` (k × 10⁶).
    public func numerator(ofSample k: Int64) -> Int64 { k * 1_000_000 }

    /// Sample k's capture time: exact on the nominal 1/rate grid without drift, else to the nanosecond (down).
    public func time(ofSample k: Int64) -> MediaTime {
        if ppm == 0 { return MediaTime(value: k, timescale: Int32(nominalRate)) }
        let product = numerator(ofSample: k).multipliedFullWidth(by: 1_000_000_000)
        let (quotient, _) = denominator.dividingFullWidth((high: product.high, low: product.low))
        let nanoseconds = k >= 0 ? quotient : quotient - 1
        return MediaTime(value: nanoseconds, timescale: 1_000_000_000)
    }

    /// The first sample captured at or after `time`.
    public func firstSample(atOrAfter time: MediaTime) -> Int64 {
        let seconds = Double(time.value) / Double(time.timescale)
        var k = Int64((seconds * Double(denominator) / 1_000_000).rounded(.down)) - 2
        while self.time(ofSample: k) < time { k += 1 }
        return k
    }

    /// The phase (0 ..< 1 cycles) of a sine of `frequency` Hz at sample k, counted from time zero. Exact before
    /// the final division, so a tone never jumps however long it plays.
    public func phase(ofSample k: Int64, frequency: Int64) -> Double {
        let cycles = (frequency * numerator(ofSample: k)) % denominator
        return Double(cycles) / Double(denominator)
    }

    /// Where sample k falls in its second: the second, and the offset into it as a fraction over `denominator`.
    public func secondAndOffset(ofSample k: Int64) -> (second: Int64, offset: Int64) {
        let n = numerator(ofSample: k)
        return (n / denominator, n % denominator)
    }
}
