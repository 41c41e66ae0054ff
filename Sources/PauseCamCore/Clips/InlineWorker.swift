/// A `BackgroundWorker` that runs each job at once on the caller's thread: the device worker on the simulated clock
/// (so a transcript's order is the same on every machine), and the finisher where a test or a bench wants a
/// finished clip the moment `stop` is carried out.
public final class InlineWorker: BackgroundWorker {
    public init() {}

    public func submit(_ work: @escaping @Sendable () -> Void) { work() }
}
