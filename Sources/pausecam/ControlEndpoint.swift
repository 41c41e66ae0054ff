import Foundation
import PauseCamCore
import PauseCamSystem

/// The remote controls of a running `pausecam shell` or `pausecam run`: the control socket (for `pausecam ctl`,
/// key bindings and Stream Deck actions) and the pedal signals (SIGUSR1 toggles, SIGUSR2 marks).
///
/// Two steps, because a second PauseCam on the same rig must be refused before it opens any camera: `claim` takes
/// the rig's lock first thing, and `start` serves once the controller exists. Engine events reach `watch` clients
/// through `publish`, which the composition root calls from its events closure; a command from a remote or a
/// pedal comes back through the same closure as an `EngineEvent.command`, to be printed where the user looks.
final class ControlEndpoint: Sendable {
    private let lock: ControlSocketLock
    /// What `start` made, for `publish` (any thread) and `stop`.
    private struct Running {
        var server: ControlServer?
        var signals: PedalSignals?
    }

    private let running = Guarded(Running())

    private init(lock: ControlSocketLock) { self.lock = lock }

    /// The socket path in use.
    var socketPath: String { lock.socketPath }

    /// Claims the socket of `rig` (`--socket PATH` when given, else the rig's default path in the user's private
    /// folder). Throws when another process runs the rig, naming its pid.
    static func claim(rig: Rig, socketOption: String?) throws -> ControlEndpoint {
        let environment = ProcessInfo.processInfo.environment
        let path = socketOption ?? ControlSocketPaths.socket(rigName: rig.name, environment: environment)
        return ControlEndpoint(lock: try ControlSocketLock.claim(socketPath: path, privateDirectory: socketOption == nil))
    }

    /// Starts serving requests for `controller` and watching the pedal signals; `webAddress` is the browser
    /// monitor's, for the status.
    func start(rig: Rig, controller: RigController, serialContext: any SerialContext, webAddress: String? = nil) throws {
        let dispatcher = ControlDispatcher(controller: controller, serialContext: serialContext, parser: CommandParser(rig: rig),
                                           rigName: rig.name, webAddress: webAddress,
                                           host: ProcessInfo.processInfo.hostName)
        let server = try ControlServer.start(lock: lock) { dispatcher.answer($0) }
        // The signal sources are made inside the lock: they are not `Sendable`, and so never leave it.
        running.withLock { running in
            running.server = server
            running.signals = PedalSignals { signal in
                _ = dispatcher.answer(signal == .toggle ? "toggle" : "mark \(signal.name)", from: .signal(name: signal.name))
            }
        }
    }

    /// An engine event for `watch` clients, as one JSON line; dropped while no server runs.
    func publish(_ event: EngineEvent) {
        running.withLock { $0.server }?.publish(ControlStatusJSON.event(event))
    }

    /// Stops serving and removes the socket; idempotent.
    func stop() {
        let server: ControlServer? = running.withLock { running in
            defer { running = Running() }
            return running.server
        }
        server?.stop()
        lock.release()
    }
}
