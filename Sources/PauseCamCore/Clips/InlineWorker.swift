/// A `BackgroundWorker` that runs each job at once on the caller's thread: for tests that want a finished clip the
/// moment `stop` is carried out, and deterministic order with the simulated clock.
public final class InlineWorker: BackgroundWorker {
    public init() {}

    public func submit(_ work: @escaping @Sendable () -> Void) { work() }
}
