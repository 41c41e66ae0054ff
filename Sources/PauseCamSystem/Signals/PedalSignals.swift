import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// SIGUSR1 and SIGUSR2 as the two simplest remote buttons: `kill -USR1 PID` toggles (record, pause, resume) and
/// `kill -USR2 PID` marks, for key bindings and pedals that can run `kill` but not `pausecam ctl`. Without this the
/// default action of both signals would end the process and leave only the `.partial` of the clip.
public final class PedalSignals {
    /// What each signal asks for.
    public enum Signal: Int32, Sendable {
        /// SIGUSR1: the `toggle` command.
        case toggle = 10
        /// SIGUSR2: the `mark` command.
        case mark = 12

        /// The signal's name, for the mark's text and for messages.
        public var name: String { self == .toggle ? "SIGUSR1" : "SIGUSR2" }
    }

    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "pausecam.pedal-signals")

    /// Starts watching; `handler` runs on a private serial queue, one signal after another (a burst of presses is
    /// carried out in order, though the kernel folds presses that come before the first is handled). The
    /// corresponding C call is `signal(SIG_IGN)` followed by a dispatch signal source per signal.
    public init(handler: @escaping @Sendable (Signal) -> Void) {
        for signal in [Signal.toggle, .mark] {
            Glibc.signal(signal.rawValue, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal.rawValue, queue: queue)
            source.setEventHandler { handler(signal) }
            source.resume()
            sources.append(source)
        }
    }

    deinit { sources.forEach { $0.cancel() } }
}
