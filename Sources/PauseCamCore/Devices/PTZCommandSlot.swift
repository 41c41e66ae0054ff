
/// The newest PTZ position waiting for one lens's camera, handed from the serial context to the device worker.
///
/// A ramp offers a position per output frame; a camera whose motor control is slow (or a device worker busy with a
/// STREAMON) must not build a queue of stale steps, so the slot keeps only the newest value of each axis and one
/// job at a time takes it. Offering to an empty slot returns true: the caller then submits that job.
final class PTZCommandSlot: Sendable {
    private let pending = Guarded<PTZPosition?>(nil)

    /// Puts `position`'s axes over whatever waits; true when nothing waited (a job must be submitted).
    func offer(_ position: PTZPosition) -> Bool {
        pending.withLock { waiting in
            defer { waiting = (waiting ?? PTZPosition()).updated(with: position) }
            return waiting == nil
        }
    }

    /// What waits, emptying the slot; called by the job on the device worker.
    func take() -> PTZPosition? {
        pending.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }
    }
}
