import Foundation
import PauseCamCore
import PauseCamSystem

/// The rig's OSC endpoint (`osc:`) in a running `pausecam shell` or `pausecam run`: Core's `OSCResponder` over
/// PauseCamSystem's `OSCServer`. Commands go through a `ControlDispatcher` as `CommandSource.osc`, so they are
/// carried out and answered as the control socket's are, and the shell prints them like a remote's; the feedback
/// state is read on the serial context through `perform`, from the server's thread.
final class OscEndpoint: Sendable {
    private let server = Guarded<OSCServer?>(nil)

    /// Starts listening when the rig has `osc:`; throws `OSCServerError` when its address cannot be bound.
    func start(rig: Rig, controller: RigController, serialContext: any SerialContext) throws {
        guard let settings = rig.osc else { return }
        let parser = CommandParser(rig: rig)
        let dispatcher = ControlDispatcher(controller: controller, serialContext: serialContext, parser: parser,
                                           rigName: rig.name)
        let counters = OSCCounters(listen: settings.listen.description)
        let responder = OSCResponder(settings: settings, parser: parser, counters: counters) { line in
            switch dispatcher.answer(line, from: .osc) {
            case .reply(let reply): return reply
            case .watch: return .error("watch is for the control socket; send /pausecam/subscribe for feedback")
            }
        }
        let engine = SerialContextBound.confining(controller, to: serialContext)
        let lenses = rig.lenses.map(\.name)
        let started = try OSCServer.start(responder: responder) {
            serialContext.perform { Self.feedbackState(engine.value, lenses: lenses) }
        }
        counters.setListen(started.address.description)
        serialContext.perform { engine.value.osc = counters }
        server.withLock { $0 = started }
    }

    /// The rig's state as the feedback shows it; on the serial context.
    private static func feedbackState(_ controller: RigController, lenses: [String]) -> OSCFeedbackState {
        let status = controller.status
        let group = controller.group.map { member in
            OSCFeedbackState.Group(own: status.state.rawValue,
                                   others: member.members.filter { $0.key != member.host }.values
                                       .map { (state: $0.state, online: $0.online) },
                                   connected: member.isConnected)
        }
        return OSCFeedbackState(status: status, lenses: lenses,
                                sceneName: controller.clips.recorder?.session.scenes.last?.name, group: group)
    }

    /// An engine event: the state may have changed, so the subscribers hear it now.
    func publish(_ event: EngineEvent) {
        server.withLock { $0 }?.stateChanged()
    }

    /// Stops listening; idempotent.
    func stop() {
        let running: OSCServer? = server.withLock { server in
            defer { server = nil }
            return server
        }
        running?.stop()
    }
}
