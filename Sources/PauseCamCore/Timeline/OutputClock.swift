// The movie's own clock, in five lines:
// 1. A segment (from a start or resume to the next pause or stop) is a grid of slots at the output rate, anchored at
//    the capture time of its first frame: slot n is at anchor + n × frame duration, exactly (`MediaTime`).
// 2. Slot s shows the first frame captured in its window [s − ½, s + ½) — rounding to the nearest slot, as FFmpeg's
//    `fps` filter does, so capture jitter at equal rates never turns into repeat-then-skip pairs — and is decided
//    the moment that frame arrives; a slot whose window passes with no frame shows the picture before it again.
// 3. A slower lens is repeated, a faster one skipped. The caller decides the slots no frame can reach any more
//    (the clip stops, or the camera went away and the picture is held) with `flush`.
// 4. Frames leave stamped with their slot's time, so the `Retimer` downstream sees a constant rate and keeps the
//    seed's model on slot times: the seam at a resume is exactly one frame, and audio shares the same offset.
// 5. With a phase anchor (a group's shared grid, `GroupMember.phaseAnchor`) a segment's grid is not anchored at
//    its first frame but at the anchor: its first slot is the first anchor + k × frame at or after the start or
//    resume, so every member of a group starts the segment on the same slot index.

/// Turns the active lens's frames, at whatever rate and jitter the camera delivers, into a constant-rate stream
/// of slots at the output rate (docs/ARCHITECTURE.md, "OutputClock").
///
/// A value type with no I/O and no clock, used from the serial context only: the `Recorder` offers every routed
/// frame and passes each slot it gets back on to the `Retimer`.
public struct OutputClock: Sendable {
    /// One slot of the output grid: the frame to show, stamped with the slot's capture-clock time.
    public struct Slot: Sendable {
        /// The picture, its `pts` replaced by the slot's time.
        public var frame: VideoFrame
        /// The capture time the picture really had.
        public var capturedAt: MediaTime
        /// The same picture as the slot before (the lens is slower than the output, or stalled).
        public var repeated: Bool
        /// The lens differs from the previous slot's: the encoder starts a keyframe here.
        public var lensChanged: Bool
    }

    /// The output's frame duration (1/30 s, 1001/30000 s…).
    public let frameDuration: MediaTime
    private let halfFrame: MediaTime
    /// Frames offered that were no newer than the newest frame before them (a duplicate, a driver's step back, a
    /// late frame of the lens switched away from): they change nothing and are counted here for the sidecar.
    public private(set) var lateFrames = 0

    /// The current grid: its anchor and the index of the next slot to decide; `nil` before the first anchor.
    private var grid: (anchor: MediaTime, next: Int64)?
    /// Starts and resumes no frame has reached yet, in time order: the first frame captured at or after one anchors
    /// a new grid. More than one waits when frames lag behind commands (a resume, a pause and a resume again
    /// before the camera's frame of the first resume came): each span then gets its own grid, anchored at its own
    /// first frame, and a span no frame reached gets none.
    private var pendingAnchors: [MediaTime] = []
    /// The newest frame offered, not yet superseded: what the next slots show.
    private var candidate: VideoFrame?
    /// Whether `candidate` has been shown by a slot already (a later slot showing it is a repeat).
    private var candidateShown = false
    /// The lens of the last slot, to mark lens changes.
    private var lastSlotLens: String?

    /// When set, every grid started after it (the next start or resume; a running segment keeps its grid) has its
    /// slots at `phaseAnchor + k × frameDuration`, so slot times agree with other recorders anchored on the same
    /// shared instant. `nil` (the default): each segment's grid is anchored at its first frame.
    public var phaseAnchor: MediaTime?

    /// A clock for output frames of `frameDuration`, its grids anchored at `phaseAnchor` when one is given.
    public init(frameDuration: MediaTime, phaseAnchor: MediaTime? = nil) {
        precondition(frameDuration > .zero, "frame duration must be positive")
        self.frameDuration = frameDuration
        self.phaseAnchor = phaseAnchor
        let (doubled, overflow) = frameDuration.timescale.multipliedReportingOverflow(by: 2)
        halfFrame = overflow
            ? MediaTime(value: frameDuration.value / 2, timescale: frameDuration.timescale)
            : MediaTime(value: frameDuration.value, timescale: doubled)
    }

    /// A start or resume at `time`: the first frame captured at or after it anchors a new grid. Slots of the old
    /// grid before `time` are still decided by the frames that come before it.
    public mutating func restart(at time: MediaTime) {
        pendingAnchors.append(time)
    }

    /// Offers a frame of the active lens (frames arrive in capture order per lens); returns the slots it decides,
    /// in time order. A frame no newer than the newest one offered (late, from another lens) changes nothing.
    /// Which slots the movie keeps (not those of a pause) is the `Retimer`'s decision, so repeats and skips are
    /// counted by the caller on the slots it keeps.
    public mutating func offer(_ frame: VideoFrame) -> [Slot] {
        if let candidate, frame.pts <= candidate.pts {
            lateFrames += 1
            return []
        }
        var slots: [Slot] = []
        if let anchor = pendingAnchors.first, frame.pts >= anchor {
            // Everything of the old grid before the restart is decided now: no older frame can come. Restarts this
            // frame also passed had no frame of their own: the latest one's grid starts here.
            slots += decide(before: anchor, windowClosedBy: nil)
            let start = pendingAnchors.last { $0 <= frame.pts } ?? anchor
            pendingAnchors.removeAll { $0 <= frame.pts }
            if let phaseAnchor {
                grid = (phaseAnchor, firstSlot(anchor: phaseAnchor, atOrAfter: start))
            } else {
                grid = (frame.pts, 0)
            }
        } else if grid != nil {
            // Slots whose window ended before this frame show the picture before it.
            slots += decide(before: pendingAnchors.first, windowClosedBy: frame.pts)
        }
        candidate = frame
        candidateShown = false
        // A frame inside the next slot's window is the nearest picture that slot can get (only a lens faster than
        // the output could send a nearer one, half a frame away at most): decide it now, so the movie — and the
        // timer, which is its duration — is never a frame behind the camera.
        if let next = nextSlotTime, next - halfFrame <= frame.pts, pendingAnchors.first.map({ next < $0 }) ?? true {
            slots += decide(before: next + halfFrame, windowClosedBy: nil)
        }
        return slots
    }

    /// Decides every slot before `time` with the newest frame offered: the caller knows no earlier frame can come
    /// any more (the clip stops at `time`, or the camera went away and the picture is held).
    public mutating func flush(before time: MediaTime) -> [Slot] {
        decide(before: time, windowClosedBy: nil)
    }

    /// The time of the next slot to decide, if a grid is running.
    public var nextSlotTime: MediaTime? {
        grid.map { slotTime(anchor: $0.anchor, index: $0.next) }
    }

    // MARK: Internals

    /// Decides slots in order with the current picture while `slot < limit` (when given) and while the slot's window
    /// `[slot − ½, slot + ½)` has ended by `closedBy` (when given).
    private mutating func decide(before limit: MediaTime?, windowClosedBy closedBy: MediaTime?) -> [Slot] {
        guard var current = grid, let picture = candidate else { return [] }
        var slots: [Slot] = []
        while true {
            let time = slotTime(anchor: current.anchor, index: current.next)
            if let limit, time >= limit { break }
            if let closedBy, time + halfFrame > closedBy { break }
            var stamped = picture
            stamped.pts = time
            let changed = lastSlotLens != nil && lastSlotLens != picture.lens
            slots.append(Slot(frame: stamped, capturedAt: picture.pts, repeated: candidateShown, lensChanged: changed))
            candidateShown = true
            lastSlotLens = picture.lens
            current.next += 1
        }
        grid = current
        return slots
    }

    /// anchor + index × frame duration, computed from the anchor each time so rounding never accumulates.
    private func slotTime(anchor: MediaTime, index: Int64) -> MediaTime {
        Self.slotTime(anchor: anchor, index: index, frameDuration: frameDuration)
    }

    /// Slot `index` of the grid of `frameDuration` anchored at `anchor`: the time this clock stamps it with, to
    /// the tick, so a caller that computes a command's time here meets the slot exactly. An index whose slot lies
    /// beyond what a `MediaTime` holds gives the furthest time on its side, never a trap (a group command's slot
    /// comes from another host).
    static func slotTime(anchor: MediaTime, index: Int64, frameDuration: MediaTime) -> MediaTime {
        guard let offset = try? frameDuration.multiplied(by: index) else {
            return MediaTime(value: (index < 0) == (frameDuration.value < 0) ? .max : .min, timescale: anchor.timescale)
        }
        return anchor.saturatingAdding(offset)
    }

    /// The smallest index whose slot on the grid anchored at `anchor` is at or after `time`.
    private func firstSlot(anchor: MediaTime, atOrAfter time: MediaTime) -> Int64 {
        // (time − anchor) / frame, rounded up, exactly; then checked against the stamped times, whose sum may
        // round by a tick when the two timescales have no common one that fits.
        let span = time - anchor
        let numerator = Int128(span.value) * Int128(frameDuration.timescale)
        let denominator = Int128(span.timescale) * Int128(frameDuration.value)
        let (q, r) = numerator.quotientAndRemainder(dividingBy: denominator)
        var index = Int64(clamping: r > 0 ? q + 1 : q)
        while slotTime(anchor: anchor, index: index) < time { index += 1 }
        while slotTime(anchor: anchor, index: index - 1) >= time { index -= 1 }
        return index
    }
}
