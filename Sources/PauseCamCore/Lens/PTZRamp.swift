/// A PTZ camera's move from one position to another over a ramp time (a zoom preset's `ramp:`), as the positions
/// to set: each axis moves linearly in the camera's units, rounded to whole units, and reaches its target exactly
/// at the ramp's end. The controller asks for the position at each output frame and sends it to the camera only
/// when it changed, so a slow ramp over a few units sets a few values, not one per frame.
public struct PTZRamp: Sendable, Equatable {
    /// Where the axes stood when the ramp began (only the axes the ramp moves).
    public var from: PTZPosition
    /// Where they end.
    public var to: PTZPosition
    /// The session-clock time the ramp began.
    public var start: MediaTime
    /// How long it takes; zero moves at once.
    public var duration: MediaTime

    public init(from: PTZPosition, to: PTZPosition, start: MediaTime, duration: MediaTime) {
        self.from = from
        self.to = to
        self.start = start
        self.duration = duration
    }

    /// The session-clock time the target is reached.
    public var end: MediaTime { start + duration }

    /// The position at `time`: the start position before the ramp begins, `to` from its end on, whole units in
    /// between. An axis the ramp has no start for goes to its target at once.
    public func position(at time: MediaTime) -> PTZPosition {
        guard duration > .zero, time < end else { return to }
        let elapsed = (try? time.subtracting(start).rescaled(to: 1_000_000, rounding: .down).value) ?? 0
        let total = (try? duration.rescaled(to: 1_000_000, rounding: .down).value) ?? 1
        let progress = Double(Swift.max(0, elapsed)) / Double(Swift.max(1, total))
        var position = PTZPosition()
        for axis in PTZAxis.allCases {
            guard let target = to[axis] else { continue }
            guard let origin = from[axis] else {
                position[axis] = target
                continue
            }
            position[axis] = origin + Int((Double(target - origin) * progress).rounded())
        }
        return position
    }
}
