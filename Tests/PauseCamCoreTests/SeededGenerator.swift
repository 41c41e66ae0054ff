import PauseCamCore

/// The retimer's and the output clock's property tests draw from Core's `SplitMix64`, so a failing seed replays
/// exactly.
typealias SeededGenerator = SplitMix64
