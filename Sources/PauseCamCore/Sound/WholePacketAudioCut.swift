/// Where a finished movie's audio is cut for the takes `retake` threw away: at whole codec packets (AAC's 1024
/// samples), not at the spans' exact times, so the audio kept stays one unbroken run of packets — no overlap, no
/// gap for a player to stretch over — and the picture and the sound stay together.
///
/// The video is cut exactly at each span (the spans lie on the frame grid and start with keyframes). The audio loses
/// a whole number of packets per span, chosen so that the audio removed *so far* is the video removed so far
/// rounded to the nearest packet: after any number of retakes the sound is within half a packet (10.7 ms at 48 kHz)
/// of the picture, and the error never adds up. The packets dropped for a span are the first ones whose middle lies
/// at or after the span's start.
///
/// Times are integer ticks of the audio stream's time base (the `.partial`'s file time); packets come in order.
public struct WholePacketAudioCut: Sendable {
    /// Span starts, in ticks.
    private let starts: [Int64]
    /// How many packets each span drops.
    private let counts: [Int64]
    /// Packets dropped by the spans up to and including each one.
    private let totals: [Int64]
    private let packetTicks: Int64
    /// The next span whose packets are not all dropped yet, and how many of them are.
    private var next = 0
    private var droppedInSpan: Int64 = 0
    /// Packets left out so far.
    public private(set) var droppedPackets: Int64 = 0

    /// `spans` in ticks (in order, not overlapping); `packetTicks` the length of one packet in ticks (> 0).
    public init(spans: [Range<Int64>], packetTicks: Int64) {
        precondition(packetTicks > 0, "a packet has a length")
        self.packetTicks = packetTicks
        starts = spans.map(\.lowerBound)
        var removed: Int64 = 0
        var totals: [Int64] = []
        var counts: [Int64] = []
        for span in spans {
            removed += span.upperBound - span.lowerBound
            let total = (removed + packetTicks / 2) / packetTicks
            counts.append(total - (totals.last ?? 0))
            totals.append(total)
        }
        self.totals = totals
        self.counts = counts
    }

    /// How far the packet starting at `pts` moves back, in ticks; `nil` when it is left out.
    public mutating func shift(forPacketAt pts: Int64) -> Int64? {
        while next < starts.count && pts + packetTicks / 2 >= starts[next] {
            if droppedInSpan < counts[next] {
                droppedInSpan += 1
                droppedPackets += 1
                return nil
            }
            next += 1
            droppedInSpan = 0
        }
        return next == 0 ? 0 : totals[next - 1] * packetTicks
    }
}
