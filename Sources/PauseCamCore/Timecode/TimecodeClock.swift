import Foundation

/// A clip's timecode policy: which label the frame captured at a capture-clock instant gets, at a given rate.
///
/// Made when the clip starts (`ClipController.open`) from the rig's `TimecodeStart` and the pair of clocks read
/// then: `realtimeOffsetNanoseconds` puts capture-clock instants on the wall clock (CLOCK_REALTIME), exactly as a
/// group's `SharedClockMapping` does (its anchored offset is the one used in a group, so members read the same
/// instant alike). Pure integer arithmetic, no clock read here.
///
/// Labels are frame counts of `Timecode` (drop-frame at 29.97 and 59.94, whose labels meet real time every ten
/// minutes and stay within about two frames of it between; non-drop labels count `nominalFramesPerSecond` a
/// second). Time of day takes the label in effect at the instant (rounds down); a group's instants are first snapped to their grid slot (`gridEpochNanoseconds`), so two members whose
/// first frames fell on the same slot compute from the same exact instant, not from their own nanosecond readings.
public struct TimecodeClock: Sendable, Equatable {
    /// Where the labels start.
    public var start: TimecodeStart
    /// CLOCK_REALTIME minus capture clock, nanoseconds.
    public var realtimeOffsetNanoseconds: Int64
    /// The group's grid epoch (CLOCK_REALTIME ns, `EpochGrid.epochNanoseconds`); `nil` for a rig on its own. With
    /// it, time of day is taken at the exact start of the slot that holds the instant.
    public var gridEpochNanoseconds: Int64?
    /// Seconds east of UTC of the time zone the time of day is read in (the machine's at the clip's start).
    public var utcOffsetSeconds: Int

    public init(start: TimecodeStart, realtimeOffsetNanoseconds: Int64, gridEpochNanoseconds: Int64? = nil,
                utcOffsetSeconds: Int = 0) {
        self.start = start
        self.realtimeOffsetNanoseconds = realtimeOffsetNanoseconds
        self.gridEpochNanoseconds = gridEpochNanoseconds
        // A zone is within ±18 h of UTC (Foundation's limit); anything else would only be a caller's mistake.
        self.utcOffsetSeconds = min(max(utcOffsetSeconds, -18 * 3600), 18 * 3600)
    }

    /// The clock of a clip started now: `wall` and `capture` read together, the time zone's offset at `wall`.
    public init(start: TimecodeStart, wall: Date, capture: MediaTime, timeZone: TimeZone,
                gridEpochNanoseconds: Int64? = nil) {
        let wallSeconds = wall.timeIntervalSince1970
        let wallNanoseconds = wallSeconds.isFinite && abs(wallSeconds) < 9e9 ? Int64(wallSeconds * 1e9) : 0
        self.init(start: start, realtimeOffsetNanoseconds: wallNanoseconds &- Self.nanoseconds(capture),
                  gridEpochNanoseconds: gridEpochNanoseconds, utcOffsetSeconds: timeZone.secondsFromGMT(for: wall))
    }

    /// The clock of a group member's clip: the offset is the member's anchored mapping (epoch − `phaseAnchor`, the
    /// capture time of the grid's slot 0), so each first frame on a slot maps to that slot's exact instant.
    public init(start: TimecodeStart, grid: EpochGrid, phaseAnchor: MediaTime, timeZone: TimeZone, at wall: Date) {
        self.init(start: start, realtimeOffsetNanoseconds: grid.epochNanoseconds &- Self.nanoseconds(phaseAnchor),
                  gridEpochNanoseconds: grid.epochNanoseconds, utcOffsetSeconds: timeZone.secondsFromGMT(for: wall))
    }

    /// The label (a `Timecode` frame count at `rate`, less than a day's) of the frame captured at `capture`.
    public func startFrame(forCapture capture: MediaTime, rate: FrameRate) -> Int64 {
        let timecode = Timecode(rate: rate)
        switch start {
        case .timeOfDay:
            return timeOfDayFrame(forCapture: capture, rate: rate)
        case .grid:
            let slot = nearestSlot(realtime(capture), rate: rate, epoch: gridEpochNanoseconds ?? 0)
            return Self.modulo(slot, timecode.framesPerDay)
        case .fixed(let label):
            return Self.frame(ofLabel: label, timecode: timecode)
        }
    }

    /// The time of day of the frame captured at `capture` as a label count at `rate` (the sidecar's
    /// `time_of_day`, whatever `start` is).
    public func timeOfDayFrame(forCapture capture: MediaTime, rate: FrameRate) -> Int64 {
        let timecode = Timecode(rate: rate)
        // The instant in local nanoseconds is `local / per` exactly: a slot's start is rarely a whole nanosecond.
        let zone = Int128(utcOffsetSeconds) * 1_000_000_000
        let local: Int128, per: Int128
        if let epoch = gridEpochNanoseconds {
            let slot = nearestSlot(realtime(capture), rate: rate, epoch: epoch)
            per = Int128(rate.numerator)
            local = (Int128(epoch) + zone) * per + Int128(slot) * Int128(rate.denominator) * 1_000_000_000
        } else {
            per = 1
            local = Int128(realtime(capture)) + zone
        }
        let day = 86_400 * 1_000_000_000 * per
        let ofDay = ((local % day) + day) % day
        // Labels per second: the true rate for drop-frame (its labels follow real time), the nominal one otherwise.
        let labels: (numerator: Int128, denominator: Int128) = timecode.isDropFrame
            ? (Int128(rate.numerator), Int128(rate.denominator)) : (Int128(timecode.nominalFramesPerSecond), 1)
        let scale = per * 1_000_000_000 * labels.denominator
        // The label in effect at the instant (rounded down): then a movie's label at 60 fps halved, rounded down, is
        // its label at 30 fps, so an ISO at its lens's rate and the program agree in an EDL of either rate.
        let count = ofDay * labels.numerator / scale
        return Self.modulo(Int64(clamping: count), timecode.framesPerDay)
    }

    /// `capture` on CLOCK_REALTIME, nanoseconds (saturating far beyond any clock's range).
    func realtime(_ capture: MediaTime) -> Int64 {
        let sum = Self.nanoseconds(capture).addingReportingOverflow(realtimeOffsetNanoseconds)
        return sum.overflow ? (realtimeOffsetNanoseconds < 0 ? .min : .max) : sum.partialValue
    }

    /// The slot of the grid at `rate` from `epoch` whose start is nearest to `t`.
    private func nearestSlot(_ t: Int64, rate: FrameRate, epoch: Int64) -> Int64 {
        let perSlot = Int128(rate.denominator) * 1_000_000_000
        let ticks = (Int128(t) - Int128(epoch)) * Int128(rate.numerator) * 2 + perSlot
        let twice = perSlot * 2
        let (quotient, remainder) = ticks.quotientAndRemainder(dividingBy: twice)
        return Int64(clamping: remainder < 0 ? quotient - 1 : quotient)
    }

    /// The frame count of a fixed label at a rate. A label that rate's drop-frame timecode skips (`00:01:00;00` at
    /// 29.97, written for another rate) becomes the first label of its minute that exists.
    static func frame(ofLabel label: String, timecode: Timecode) -> Int64 {
        if let frame = try? timecode.frame(parsing: label) { return frame }
        let fields = label.split(whereSeparator: { ":;.".contains($0) })
        guard fields.count == 4 else { return 0 }
        let bumped = fields[0...2].joined(separator: ":") + ";" + (timecode.droppedPerMinute < 10 ? "0" : "")
            + String(timecode.droppedPerMinute)
        return (try? timecode.frame(parsing: bumped)) ?? 0
    }

    /// A capture time in whole nanoseconds (rounded to the nearest; clamped far beyond any clock's range).
    static func nanoseconds(_ time: MediaTime) -> Int64 { SharedClockMapping.nanoseconds(time) }

    private static func modulo(_ value: Int64, _ divisor: Int64) -> Int64 {
        guard divisor > 0 else { return 0 }
        let remainder = value % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
