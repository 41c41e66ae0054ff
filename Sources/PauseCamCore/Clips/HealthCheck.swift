import Foundation

/// The periodic check while a clip records (every `StoragePolicy.interval`): frames the encoder dropped since the
/// last round, a disk running low, a disk too full to finish the clip, the movie's `.partial` deleted (by hand, or
/// with its folder). A value-type state machine:
/// it remembers what it already said and returns what to do; the controller reads the numbers and performs.
public struct HealthCheck: Sendable, Equatable {
    /// What one round asks for, in order.
    public enum Action: Sendable, Equatable {
        /// Tell the user (not the clip).
        case notify(EngineEvent)
        /// Tell the user and put it in the clip's sidecar.
        case warnClip(EngineEvent)
        /// Stop and save the clip now; `reason` is the clip's interruption.
        case stop(reason: String)
    }

    public let policy: StoragePolicy
    private var warnedDisk = false
    private var droppedFramesSeen = 0
    /// Suspensions already taken into account (the count the video hold keeps).
    private var suspensionsSeen = 0
    /// Rounds left whose drops are put down to a suspension rather than to the encoder: the one that sees it and
    /// the next (the held picture over the gap is encoded in a burst after it).
    private var excusedRoundsLeft = 0
    private var roundClock = SuspensionDetector()
    /// Frames dropped while catching up after a suspension: not said to be the encoder's fault.
    public private(set) var excusedDrops = 0

    /// Frames dropped after the last round that are still put down to a suspension when the clip ends now:
    /// `droppedFrames` is the encoder's count at the end, `suspensions` the count of suspensions seen.
    public func excusedDrops(atEnd droppedFrames: Int, suspensions: Int) -> Int {
        let open = excusedRoundsLeft > 0 || suspensions > suspensionsSeen
        return excusedDrops + (open ? max(0, droppedFrames - droppedFramesSeen) : 0)
    }

    public init(policy: StoragePolicy) { self.policy = policy }

    /// One round: `droppedFrames` is the encoder's count so far, `freeBytes` the space left where the clip is
    /// written (`nil` when unknown), `finishingBytes` the free space finishing the clip's movies needs
    /// (`FinishingReserve`: an index for a movie finished in place, the `.partial`'s size again for a copy);
    /// `partialDeleted` says the `.partial` (`partialPath`) no longer has a name. Nothing of such a clip can be
    /// saved any more, so it is stopped at once, with the reason.
    /// `suspensions` counts the suspensions noticed so far, and `now` is this round's time: a round much later than
    /// due is a suspension too. Drops in the round that notices a suspension and in the next are not reported.
    public mutating func check(droppedFrames: Int, freeBytes: Int64?, finishingBytes: Int64, partialDeleted: Bool = false,
                               partialPath: String = "", suspensions: Int = 0, now: MediaTime? = nil) -> [Action] {
        if partialDeleted {
            return [.warnClip(.movieFileDeleted(partialPath: partialPath)),
                    .stop(reason: "the movie's file was deleted while recording")]
        }
        var actions: [Action] = []
        let lateRound = now.flatMap { roundClock.tick(at: $0, interval: policy.interval) } != nil
        if suspensions > suspensionsSeen || lateRound {
            suspensionsSeen = max(suspensionsSeen, suspensions)
            excusedRoundsLeft = 2
        }
        if droppedFrames > droppedFramesSeen {
            if excusedRoundsLeft > 0 {
                excusedDrops += droppedFrames - droppedFramesSeen
            } else {
                actions.append(.notify(.framesDropped(count: droppedFrames - droppedFramesSeen,
                                                      interval: policy.interval)))
            }
            droppedFramesSeen = droppedFrames
        }
        if excusedRoundsLeft > 0 { excusedRoundsLeft -= 1 }
        guard let free = freeBytes else { return actions }
        let spare = free - finishingBytes
        if spare < policy.stopBelow {
            actions.append(.warnClip(.diskFull(freeBytes: free)))
            actions.append(.stop(reason: "the disk is nearly full"))
        } else if !warnedDisk && spare < policy.warnBelow {
            actions.append(.warnClip(.diskLow(freeBytes: free)))
            warnedDisk = true
        }
        return actions
    }

    /// Whole megabytes from 10 MB up, one decimal below.
    static func megabytes(_ bytes: Int64) -> String {
        bytes >= 10 << 20 ? "\(bytes >> 20) MB" : String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
