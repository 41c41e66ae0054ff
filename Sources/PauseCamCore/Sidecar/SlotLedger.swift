/// The sidecar's accounting of the output grid: which frames each lens segment repeated or skipped, where the
/// picture was held or slated because no lens delivered, and when each switch took effect — all counted on the
/// slots the retimer keeps, in file time, and written into the `SceneLog`.
///
/// A value type used by the `Recorder` on the serial context: it is told of every frame offered to the output
/// clock, of every slot the clock decides (kept or not), and of the lens policy's events (signal lost, switch
/// asked for).
public struct SlotLedger: Sendable {
    /// Frames offered to the output clock that no slot has shown yet (capture time, lens), oldest first: those a
    /// newer picture supersedes were skipped.
    private var unshownFrames: [(pts: MediaTime, lens: String)] = []
    /// No lens delivers: the lost lens, the capture time of its last picture, and the movie time then.
    private var signalLost: (lens: String, since: MediaTime, fileTime: MediaTime)?
    /// A switch asked for and not yet shown: the lens, the capture time of the request, and the voices speaking
    /// when `follow` made it (`nil`: someone asked for it).
    private var pendingSwitch: (lens: String, requested: MediaTime, followedVoices: [String]?)?
    /// Where the current segment (since the last start or resume) began: slot time and file time.
    private var segmentStart: (capture: MediaTime, fileTime: MediaTime)?

    public init() {}

    /// The movie time when the picture was lost, while it is.
    public var lostAt: MediaTime? { signalLost?.fileTime }

    /// A lens's frame the output clock took (not one it refused as late).
    public mutating func offered(_ frame: VideoFrame) {
        unshownFrames.append((frame.pts, frame.lens))
    }

    /// No lens delivers since `lens`'s frame captured at `since` (movie time `fileTime`): the slots after it that
    /// repeat its picture are held, until a newer picture shows.
    public mutating func lost(lens: String, since: MediaTime, fileTime: MediaTime) {
        signalLost = (lens, since, fileTime)
    }

    /// A switch to `lens` was asked for at capture time `requested`: its first kept slot logs the switch, as
    /// `follow`'s cut to `followedVoices` when given.
    public mutating func switchAsked(to lens: String, requested: MediaTime, followedVoices: [String]? = nil) {
        pendingSwitch = (lens, requested, followedVoices)
    }

    /// `follow` made the switch to `lens` asked for already and not yet shown: it is logged as `follow`'s cut to
    /// `voices`. False when no such switch waits.
    public mutating func markPendingSwitchFollowed(lens: String, voices: [String]) -> Bool {
        guard let pending = pendingSwitch, pending.lens == lens else { return false }
        pendingSwitch = (pending.lens, pending.requested, voices)
        return true
    }

    /// A slot the output clock decided. `fileTime` is where the retimer placed it, `nil` when it was not kept (a
    /// pause); `scene` is its scene (1-based).
    public mutating func decided(_ slot: OutputClock.Slot, fileTime: MediaTime?, startsSegment: Bool, scene: Int,
                                 log: inout SceneLog) {
        // Frames the slot's picture superseded were never shown: skipped when the slot is kept, forgotten otherwise.
        let superseded = unshownFrames.prefix { $0.pts <= slot.capturedAt }
        unshownFrames.removeFirst(superseded.count)
        guard let fileTime else { return }
        if startsSegment { segmentStart = (slot.frame.pts, fileTime) }
        let lens = slot.frame.lens
        if lens == NoSignalSlate.lensName {
            log.noSignalAppended(.slate, lens: signalLost?.lens ?? lens, scene: scene, fileTime: fileTime)
            return
        }
        log.videoAppended(lens: lens, scene: scene, fileTime: fileTime, repeated: slot.repeated)
        for skipped in superseded where skipped.pts < slot.capturedAt {
            log.framesSkipped(lens: skipped.lens, scene: scene, count: 1)
        }
        if let lost = signalLost {
            if slot.capturedAt > lost.since {
                signalLost = nil
            } else if slot.repeated {
                log.noSignalAppended(.hold, lens: lost.lens, scene: scene, fileTime: fileTime)
            }
        }
        if let pending = pendingSwitch, pending.lens == lens, slot.lensChanged || !slot.repeated {
            log.switched(to: lens, requested: requestedFileTime(pending.requested, slot: slot, fileTime: fileTime),
                         effective: fileTime, followedVoices: pending.followedVoices)
            pendingSwitch = nil
        }
    }

    /// The clip stopped at capture time `stop`, while recording when `recording`: the lens's frames captured before
    /// it that no slot showed (a faster lens's last ones) were skipped too, though no later slot superseded them.
    public mutating func clipStopped(at stop: MediaTime, recording: Bool, scene: Int, log: inout SceneLog) {
        let before = unshownFrames.prefix { $0.pts < stop }
        unshownFrames.removeFirst(before.count)
        guard recording else { return }
        for frame in before where frame.lens != NoSignalSlate.lensName {
            log.framesSkipped(lens: frame.lens, scene: scene, count: 1)
        }
    }

    /// File time runs with capture time inside a segment; a request from before it (while paused) is placed at the
    /// segment's start, the pause point.
    private func requestedFileTime(_ requested: MediaTime, slot: OutputClock.Slot, fileTime: MediaTime) -> MediaTime {
        if let start = segmentStart, requested < start.capture { return start.fileTime }
        guard let waited = try? slot.frame.pts.subtracting(requested), let placed = try? fileTime.subtracting(waited)
        else { return fileTime }
        return placed
    }
}
