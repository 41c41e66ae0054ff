/// The one clock every capture timestamp and every command is measured on. For real devices it is
/// `CLOCK_MONOTONIC` (V4L2 buffers and ALSA htstamps use it too); for the virtual rig it may be a `SimulatedClock`.
/// Nothing in the core reads a clock it was not handed.
public protocol Clock: AnyObject, Sendable {
    /// The current time on this clock.
    func now() -> MediaTime
}

/// Runs all of the engine's bookkeeping on one serial context, and lets time pass.
///
/// Everything that touches a `Recorder` happens inside `schedule`/`perform` work items, so the engine is
/// single-threaded by construction. Two implementations: a real-time one (a serial dispatch queue and timers on the
/// monotonic clock, in `PauseCamSystem`) and `SimulatedSerialContext`, a discrete-event loop whose clock jumps from one
/// event to the next, so an hour of recording runs as fast as the encoder allows and always the same way.
public protocol SerialContext: AnyObject, Sendable {
    /// The clock this context's times are on.
    var clock: any Clock { get }
    /// Runs `work` on the serial context at `time` (at once if `time` has passed). Callable from any thread. Work
    /// for the same time runs in the order it was scheduled, and work for an earlier time before work for a later one.
    func schedule(at time: MediaTime, _ work: @escaping @Sendable () -> Void)
    /// Runs `work` on the serial context as soon as possible and waits for it. Call it from outside the context.
    func perform<T>(_ work: () throws -> T) rethrows -> T
    /// Lets time pass until `time`: the simulated context runs every event up to it; the real one sleeps the
    /// calling thread (never the serial context) while devices and timers go on. Returns early, `false`, when
    /// `interrupt()` is called; `true` when the time was reached.
    @discardableResult
    func advance(until time: MediaTime) -> Bool
    /// Makes a running or the next `advance(until:)` return early (Ctrl-C during `wait`). Callable from any thread.
    func interrupt()
    /// True when the caller runs on the serial context (inside `perform` or a scheduled work item). The engine's
    /// classes have no locks: this predicate is what their entry points check.
    var isOnSerialContext: Bool { get }
    /// True when time passes only as fast as the engine works (the simulated loop): a stage that falls behind must
    /// then hold the loop back instead of dropping work, since no frame is ever really late. False in real time.
    var timeWaitsForWork: Bool { get }
    /// Reports a caller that is not on the serial context. The default traps (`preconditionFailure`): touching the
    /// engine from another thread is a data race, never a user's mistake. A test context records instead, so a
    /// test can trip the check without dying.
    func serialContextViolated(in function: StaticString, file: StaticString, line: UInt)
}

extension SerialContext {
    /// Traps unless the caller is on the serial context: the check at the entry points of `RigController` and
    /// `Recorder` (swift-nio's `EventLoop.preconditionInEventLoop`).
    public func assertOnSerialContext(_ function: StaticString = #function, file: StaticString = #fileID,
                                      line: UInt = #line) {
        if !isOnSerialContext { serialContextViolated(in: function, file: file, line: line) }
    }

    public var timeWaitsForWork: Bool { false }

    public func serialContextViolated(in function: StaticString, file: StaticString, line: UInt) {
        preconditionFailure("\(function) was called off the engine's serial context (\(file):\(line)); "
                            + "hop onto it with SerialContext.perform or schedule")
    }
}
