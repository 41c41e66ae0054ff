/// Answers the request lines of the control socket (and the pedal signals, which send `toggle` and `mark`) by
/// carrying them out exactly as a script step is: the command's time is read on the caller's clock before it is
/// queued, then `controller.execute(command, at: time)` runs on the serial context.
///
/// Safe to call from any thread (the server's, a signal queue's): the only engine access is through
/// `serialContext.perform`. Every command carried out is also published as a `control` event, so `watch` clients and
/// the shell's own output see what a pedal or a remote did.
public final class ControlDispatcher: @unchecked Sendable {
    /// What the server does with a request: reply, or reply and then stream events to this client.
    public enum Answer: Sendable, Equatable {
        case reply(ControlReply)
        case watch(ControlReply)
    }

    private let controller: RigController
    private let serialContext: any SerialContext
    private let parser: CommandParser
    private let rigName: String
    private let publish: @Sendable (_ jsonLine: String, _ text: String) -> Void

    /// `publish` gets each command's event as a JSON line for `watch` clients and as the text the shell prints.
    public init(controller: RigController, serialContext: any SerialContext, parser: CommandParser, rigName: String,
                publish: @escaping @Sendable (_ jsonLine: String, _ text: String) -> Void) {
        self.controller = controller
        self.serialContext = serialContext
        self.parser = parser
        self.rigName = rigName
        self.publish = publish
    }

    /// The answer to one request line (without its newline); `source` names the sender in the event it publishes
    /// ("remote" for the socket, the signal's name for a pedal signal).
    public func answer(_ line: String, from source: String = "remote") -> Answer {
        switch ControlRequest.parse(line, parser: parser) {
        case .failure(let failure):
            return .reply(.error(failure.message))
        case .success(.statusJSON):
            let controller = self.controller
            let status = serialContext.perform { controller.status }
            return .reply(ControlReply(ok: true, message: ControlStatusJSON.line(status, rig: rigName)))
        case .success(.watch):
            return .watch(ControlReply(ok: true, message: "watching \(rigName): one JSON line per event until you disconnect"))
        case .success(.command(let command)):
            let reply = perform(command)
            // A status query changes nothing: a status bar polling it would only flood `watch` and the shell.
            if command != .status {
                let text = "\(CommandParser.line(for: command)) (\(source)): \(reply.message)"
                publish(ControlStatusJSON.event(text, source: source, ok: reply.ok), text)
            }
            return .reply(ControlReply(reply))
        }
    }

    private func perform(_ command: Command) -> RigController.Reply {
        let controller = self.controller
        let time = serialContext.clock.now()
        return serialContext.perform { controller.execute(command, at: time) }
    }
}
