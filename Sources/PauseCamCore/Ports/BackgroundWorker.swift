/// Runs slow work off the serial context: finishing a clip (encoder drain, remux, thumbnail, final sidecar) and
/// anything else that would otherwise make every command and every device wait behind it.
///
/// The composition root chooses the policy: a `SerialQueueWorker` (one thread, jobs in order) for the real program,
/// an `InlineWorker` where a test wants the work done at once on the caller's thread. Work submitted here must not
/// touch the engine (`RigController`, `Recorder`); it posts its result back through the serialContext.
public protocol BackgroundWorker: AnyObject, Sendable {
    /// Runs `work` later (or now, inline), after the work submitted before it.
    func submit(_ work: @escaping @Sendable () -> Void)
}
