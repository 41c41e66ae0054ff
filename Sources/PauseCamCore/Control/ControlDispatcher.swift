/// Answers the request lines of the control socket (and the pedal signals, which send `toggle` and `mark`) by
/// carrying them out exactly as a script step is: the command's time is read on the caller's clock before it is
/// queued, then `controller.execute(command, at: time)` runs on the serial context.
///
/// Safe to call from any thread (the server's, a signal queue's): the only engine access is through
/// `serialContext.perform`, and the controller is held in a `SerialContextBound`. The controller tells every command it carries out to its listeners as an
/// `EngineEvent.command` naming this source, so `watch` clients and the shell see what a pedal or a remote did.
public final class ControlDispatcher: Sendable {
    /// What the server does with a request: reply, or reply and then stream events to this client.
    public enum Answer: Sendable, Equatable {
        case reply(ControlReply)
        case watch(ControlReply)
    }

    private let controller: SerialContextBound<RigController>
    private let serialContext: any SerialContext
    private let parser: CommandParser
    private let rigName: String
    private let webAddress: String?
    private let host: String?

    /// `webAddress` is the browser monitor's address for the status (nil when it is off), `host` the machine's name
    /// for it (nil leaves it out). Call it off the serial context: the controller is boxed there.
    public init(controller: RigController, serialContext: any SerialContext, parser: CommandParser, rigName: String,
                webAddress: String? = nil, host: String? = nil) {
        self.controller = SerialContextBound.confining(controller, to: serialContext)
        self.serialContext = serialContext
        self.parser = parser
        self.rigName = rigName
        self.webAddress = webAddress
        self.host = host
    }

    /// The answer to one request line (without its newline); `source` names the sender in the command's event.
    public func answer(_ line: String, from source: CommandSource = .remote) -> Answer {
        switch ControlRequest.parse(line, parser: parser) {
        case .failure(let failure):
            return .reply(.error(failure.message))
        case .success(.statusJSON):
            let controller = self.controller
            let status = serialContext.perform { controller.value.status }
            return .reply(ControlReply(ok: true, message: ControlStatusJSON.line(status, rig: rigName, web: webAddress,
                                                                                    lenses: parser.lenses ?? [], host: host)))
        case .success(.watch):
            return .watch(ControlReply(ok: true, message: "watching \(rigName): one JSON line per event until you disconnect"))
        case .success(.command(let command)):
            return .reply(ControlReply(perform(command, from: source)))
        }
    }

    private func perform(_ command: Command, from source: CommandSource) -> RigController.Reply {
        let controller = self.controller
        let time = serialContext.clock.now()
        return serialContext.perform { controller.value.execute(command, at: time, from: source) }
    }
}
