import Foundation
import PauseCamCore
import PauseCamSystem

/// The browser monitor of a running `pausecam shell` or `pausecam run`: where it listens (`--web ADDR:PORT`, the
/// rig's `web: {listen: …}`, else the rig's own loopback port, `MonitorListenAddress.rigPort`; `--no-web` turns it
/// off), the server, and the events it streams. Commands from the page go through a `ControlDispatcher` as `CommandSource.web`, so
/// the shell prints them like a remote's and `watch` clients see them.
final class MonitorEndpoint: Sendable {
    /// What the user asked for.
    enum Choice: Equatable {
        case off
        /// The default: loopback, the rig's own port (`MonitorListenAddress.rigPort`); when something holds it, a
        /// port the system chooses, said loudly (`portNote`).
        case standard
        /// An address given with `--web` or in the rig.
        case given(MonitorListenAddress)

        /// Whether the user named the address (then failing to listen is an error, and the URL is always printed).
        var isExplicit: Bool { if case .given = self { return true } else { return false } }
    }

    /// Reads `--web` / `--no-web`, then the rig's `web.listen`.
    static func choice(_ arguments: Arguments, rig: Rig) throws -> Choice {
        if arguments.flags.contains("no-web") {
            if arguments.options["web"] != nil { throw UsageError("--web and --no-web contradict each other; give one") }
            return .off
        }
        if let text = arguments.options["web"] {
            guard let address = MonitorListenAddress(text) else {
                throw UsageError("--web \(text): expected \(MonitorListenAddress.syntax)")
            }
            return .given(address)
        }
        return rig.web.map(Choice.given) ?? .standard
    }

    /// What `start` made, for the other threads.
    private struct Running {
        var server: MonitorWebServer?
        var dispatcher: ControlDispatcher?
        /// Why there is no monitor although one was wanted, for the banner.
        var unavailableReason: String?
        /// The rig's own port was taken: by whom, and where the monitor serves instead, for the banner.
        var portNote: String?
    }

    private let running = Guarded(Running())

    /// Why there is no monitor although one was wanted, for the banner.
    var unavailableReason: String? { running.withLock { $0.unavailableReason } }
    /// Set when the rig's own port was taken (who holds it, where the monitor serves instead).
    var portNote: String? { running.withLock { $0.portNote } }
    /// The page's address for the status (without the token); `nil` when off.
    var url: String? { running.withLock { $0.server?.url } }
    /// The address to print for the user to open (with the token beyond loopback).
    var printedURL: String? { running.withLock { $0.server?.tokenURL } }

    /// Starts serving `rig`; throws when an address given by the user cannot be listened on.
    func start(_ choice: Choice, rig: Rig, controller: RigController, serialContext: any SerialContext,
               pictures: (any MonitorPictures)?) throws {
        let engine = SerialContextBound.confining(controller, to: serialContext)
        let connection = MonitorWebServer.Rig(rig: rig, status: { [weak self] in
            self?.answer("status --json").message ?? "{}"
        }, command: { [weak self] line in
            self?.answer(line) ?? ControlReply.error("the monitor is stopping")
        }, pictures: pictures, lastClip: {
            serialContext.perform { engine.value.clips.outcome.savedClip }.map {
                MonitorWebServer.LastClip(moviePath: $0.moviePath, thumbnailPath: $0.thumbnailPath)
            }
        })
        let server: MonitorWebServer?
        var unavailableReason: String?
        var portNote: String?
        switch choice {
        case .off:
            server = nil
        case .standard:
            (server, portNote) = Self.startOnRigPort(connection, rig: rig)
            if server == nil { unavailableReason = portNote }
        case .given(let address):
            server = try MonitorWebServer.start(connection, on: address)
        }
        let dispatcher = ControlDispatcher(controller: controller, serialContext: serialContext, parser: CommandParser(rig: rig),
                                           rigName: rig.name, webAddress: server?.url,
                                           host: ProcessInfo.processInfo.hostName)
        running.withLock { running in
            running.server = server
            running.dispatcher = dispatcher
            running.unavailableReason = unavailableReason
            running.portNote = server == nil ? nil : portNote
        }
    }

    /// Serves on the rig's own loopback port; when it is taken, on one the system chooses (never another rig's own
    /// port), with the note that says so and names the PauseCam holding it, when it is one of this user's. A taken
    /// port never costs the recording: the note goes wherever the address is printed.
    private static func startOnRigPort(_ connection: MonitorWebServer.Rig, rig: Rig) -> (MonitorWebServer?, String?) {
        let own = MonitorListenAddress.rigAddress(rigName: rig.name)
        if let server = try? MonitorWebServer.start(connection, on: own) { return (server, nil) }
        let environment = ProcessInfo.processInfo.environment
        let holder = MonitorPortHolder.describe(port: own.port,
                                                socketDirectory: ControlSocketPaths.directory(environment: environment),
                                                excluding: ControlSocketPaths.socket(rigName: rig.name, environment: environment))
        let fallback = try? MonitorWebServer.start(connection, on: MonitorListenAddress(host: own.host, port: 0))
        return (fallback, MonitorListenAddress.rigPortTaken(own.port, rigName: rig.name, holder: holder,
                                                            fallback: fallback.map { $0.address.description }))
    }

    private func answer(_ line: String) -> ControlReply {
        guard let dispatcher = running.withLock({ $0.dispatcher }) else { return .error("the monitor is starting; try again") }
        switch dispatcher.answer(line, from: .web) {
        case .reply(let reply): return reply
        case .watch: return .error("watch is for the control socket; the page listens to /events")
        }
    }

    /// What to print at start: `monitor: URL`, or why there is none; `nil` when off. Beyond loopback the URL
    /// (with its token) follows as a QR code, for a phone's camera.
    var banner: String? {
        guard let (url, loopback) = running.withLock({ $0.server.map { ($0.tokenURL, $0.address.isLoopback) } }) else {
            return unavailableReason.map { "monitor: off (\($0))" }
        }
        let note = portNote.map { "\nmonitor: warning: \($0)" } ?? ""
        guard !loopback, let code = try? QRCode.encode(url) else { return "monitor: \(url)" + note }
        return "monitor: \(url)" + note + "\n" + code.terminalText().dropLast()
    }

    /// An engine event for the page's event streams.
    func publish(_ event: EngineEvent) {
        running.withLock { $0.server }?.publish(event)
    }

    /// Stops serving; idempotent.
    func stop() {
        let server: MonitorWebServer? = running.withLock { running in
            defer { running.server = nil }
            return running.server
        }
        server?.stop()
    }
}
