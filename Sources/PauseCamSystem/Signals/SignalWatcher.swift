import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT, SIGTERM and SIGHUP into calls on a handler queue instead of killing the process, so that every
/// exit path can stop and finalize the movie. (SIGKILL cannot be caught: that is what the `.partial` file is for.)
public final class SignalWatcher {
    /// The signals PauseCam treats as "stop and save".
    public enum Signal: Int32, Sendable {
        case interrupt = 2   // SIGINT
        case hangUp = 1      // SIGHUP
        case terminate = 15  // SIGTERM

        public var name: String {
            switch self {
            case .interrupt: return "SIGINT"
            case .hangUp: return "SIGHUP"
            case .terminate: return "SIGTERM"
            }
        }
    }

    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "pausecam.signals")

    /// Starts watching; `handler` runs on a private queue for every signal received. The corresponding C call is
    /// `signal(SIG_IGN)` followed by a dispatch signal source per signal.
    public init(_ signals: [Signal] = [.interrupt, .hangUp, .terminate], handler: @escaping @Sendable (Signal) -> Void) {
        for s in signals {
            Glibc.signal(s.rawValue, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: s.rawValue, queue: queue)
            source.setEventHandler { handler(s) }
            source.resume()
            sources.append(source)
        }
    }

    deinit { sources.forEach { $0.cancel() } }
}
