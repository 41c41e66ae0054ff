import Foundation
import PauseCamCore
import PauseCamSystem

/// `pausecam ctl [--rig RIG | --socket PATH] [--timeout SECONDS] COMMAND…`: sends one command to a running PauseCam
/// over its control socket and prints the reply; exit status 0 for `ok`, 1 for an error or when no PauseCam answers
/// within the timeout (a stopped or wedged PauseCam must not hang a key binding). Without
/// `--rig` or `--socket` it finds the only running one (several: it lists them and asks). `watch` prints every
/// event as a JSON line until interrupted (Ctrl-C exits 0).
///
/// The words after the options are sent as they are (`status --json` is a request of its own), so they are not
/// read by `Arguments`.
enum CtlCommand {
    /// How long connecting and the reply may take together unless `--timeout` says otherwise: the engine answers
    /// a command in milliseconds (finishing a clip happens in the background), so seconds without a word mean a
    /// stopped (Ctrl-Z) or wedged process.
    static let defaultTimeoutSeconds = 5.0
    /// The longest `--timeout` taken.
    static let timeoutRange = 0.01...3600.0

    static func run(_ words: [String]) throws -> Int32 {
        var rest = words[...]
        var rigOption: String?
        var socketOption: String?
        var timeoutSeconds = defaultTimeoutSeconds
        var groupOption: String?
        var brokerOption: String?
        var leadOption: String?
        while let word = rest.first, word.hasPrefix("-") {
            rest = rest.dropFirst()
            let (name, inline) = word.split(separator: "=", maxSplits: 1).map(String.init).pair
            switch name {
            case "--rig", "--socket", "--timeout", "--group", "--broker", "--lead":
                guard let value = inline ?? rest.first else { throw UsageError("\(name) needs a value") }
                if inline == nil { rest = rest.dropFirst() }
                switch name {
                case "--rig": rigOption = value
                case "--socket": socketOption = value
                case "--group": groupOption = value
                case "--broker": brokerOption = value
                case "--lead": leadOption = value
                default:
                    guard let seconds = Double(value.hasSuffix("s") ? String(value.dropLast()) : value),
                          timeoutRange.contains(seconds) else {
                        throw UsageError("--timeout takes seconds, such as 5 or 0.5 (at most 3600), not \"\(value)\"")
                    }
                    timeoutSeconds = seconds
                }
            case "--help", "-h":
                print(HelpText.ctl)
                return 0
            default:
                throw UsageError("unknown option \(name) before the command; ctl takes --rig RIG or --socket PATH, "
                                 + "or --group NAME [--broker URL], and --timeout SECONDS")
            }
        }
        guard !rest.isEmpty else { throw UsageError("ctl needs a command, e.g. pausecam ctl toggle") }
        guard rigOption == nil || socketOption == nil else { throw UsageError("give --rig or --socket, not both") }
        // The request goes as one line: a newline in a word would end it and send what follows as a second command.
        if let word = rest.first(where: { VisibleText.containsControl($0) }) {
            throw UsageError("\"\(VisibleText.escaped(word))\" contains a control character (a newline, an escape…); "
                             + "ctl sends one command as plain text on one line: nothing was sent")
        }
        let request = rest.joined(separator: " ")
        if let groupOption {
            guard rigOption == nil && socketOption == nil else {
                throw UsageError("--group talks to the group's broker; leave out --rig and --socket")
            }
            var lead = GroupSettings.defaultLead
            if let leadOption {
                guard let parsed = DurationParser.parse(leadOption), parsed > .zero,
                      parsed <= GroupSettings.maximumLead else {
                    throw UsageError("--lead takes a duration such as 250ms or 1s (at most 10s), not \"\(leadOption)\"")
                }
                lead = parsed
            }
            return try GroupCtl.run(group: groupOption, broker: brokerOption ?? GroupCtl.defaultBroker,
                                    request: request, lead: lead, timeoutSeconds: timeoutSeconds)
        }
        if brokerOption != nil || leadOption != nil { throw UsageError("--broker and --lead go with --group NAME") }

        let timeoutMilliseconds = Int32((timeoutSeconds * 1000).rounded(.up))
        let path = try socketPath(rig: rigOption, socket: socketOption, timeoutMilliseconds: timeoutMilliseconds)
        let silent = "pausecam: PauseCam at \(path) did not answer within \(String(ZoomFactor.text(timeoutSeconds).dropLast())) s: "
            + "is it stopped (Ctrl-Z) or busy? (--timeout SECONDS waits longer)\n"
        let started = DispatchTime.now()
        let client: ControlClient
        var sendFailure: SocketError?
        do {
            client = try ControlClient(path: path, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            StandardStreamWriter.error.write(ControlClient.isTimeout(error) ? silent : "pausecam: \(error)\n")
            return 1
        }
        // A server that refuses a client (another user, too many connections) replies and closes at once, maybe
        // before the request is sent: its reply is still there to read, and says more than "broken pipe".
        do { try client.send(request) } catch { sendFailure = error }
        let spent = Int32(min(Double(Int32.max), Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6))
        let left = max(1, timeoutMilliseconds - min(spent, timeoutMilliseconds))
        guard let line = client.readLine(timeoutMilliseconds: sendFailure == nil ? left : min(left, 2000)) else {
            if let sendFailure, !ControlClient.isTimeout(sendFailure) {
                StandardStreamWriter.error.write("pausecam: \(sendFailure)\n")
                return 1
            }
            StandardStreamWriter.error.write(silent)
            return 1
        }
        guard let reply = ControlReply(line: line) else {
            StandardStreamWriter.error.write("pausecam: \(path) answered something that is not a reply: \(line)\n")
            return 1
        }
        guard reply.ok else {
            StandardStreamWriter.error.write("pausecam: \(reply.message)\n")
            return 1
        }
        guard ControlRequest.parse(request, parser: CommandParser()) == .success(.watch) else {
            StandardStreamWriter.output.write(reply.message + "\n")
            return 0
        }
        return watch(client)
    }

    /// Prints event lines until the recorder goes away (exit 0) or Ctrl-C / SIGTERM (exit 0: stopping to watch is
    /// the normal end).
    private static func watch(_ client: ControlClient) -> Int32 {
        let signals = SignalWatcher([.interrupt, .terminate, .hangUp]) { _ in exit(0) }
        while let line = client.readLine(timeoutMilliseconds: -1) {
            StandardStreamWriter.output.write(line + "\n")
        }
        withExtendedLifetime(signals) {}
        return 0
    }

    /// The socket to talk to: `--socket`, the socket of `--rig` (a rig file or a rig name), or the only one that
    /// answers in the user's socket folder.
    static func socketPath(rig: String?, socket: String?, timeoutMilliseconds: Int32 = 1000) throws -> String {
        if let socket { return socket }
        let environment = ProcessInfo.processInfo.environment
        if let rig {
            let name = FileManager.default.fileExists(atPath: rig) ? try RigLoader.load(path: rig).name : rig
            return ControlSocketPaths.socket(rigName: name, environment: environment)
        }
        let directory = ControlSocketPaths.directory(environment: environment)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let live = names.filter { $0.hasSuffix(".sock") }.sorted().map { directory + "/" + $0 }
            .filter { ControlClient.isAnswering(path: $0, timeoutMilliseconds: timeoutMilliseconds) }
        switch live.count {
        case 0:
            throw NoInstance(description: "no PauseCam is running (no answering socket in \(directory)); "
                            + "start one with pausecam shell RIG, or name a socket with --socket PATH")
        case 1:
            return live[0]
        default:
            let list = live.map { path -> String in
                let rig = String(PathText.lastComponent(of: path).dropLast(".sock".count))
                let pid = ControlSocketPaths.holderPID(socket: path).map { ", pid \($0)" } ?? ""
                return "  --rig \(rig)   (\(path)\(pid))"
            }
            throw NoInstance(description: "several PauseCams are running; choose one:\n" + list.joined(separator: "\n"))
        }
    }
}

/// No PauseCam to talk to, or several: exit status 1, with what to do.
struct NoInstance: Error, CustomStringConvertible {
    var description: String
}

private extension Array where Element == String {
    /// `["a", "b"]` as `("a", "b")`, `["a"]` as `("a", nil)`.
    var pair: (String, String?) { (self[0], count > 1 ? self[1] : nil) }
}
