/// SplitMix64: a small, fast, seeded random number generator that gives the same numbers on every platform and
/// every run. Why one here: property tests replay a failing seed exactly, and the benchmark's camera-like frames
/// (grain on a test pattern) must be the same bytes for PauseCam and the `ffmpeg` command line it is compared with.
/// Not for anything secret.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The same, named after the generator's one word of state (a seed written as the state it starts from).
    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
