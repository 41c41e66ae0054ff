/// What one OSC message sent to PauseCam asks for. Every command of the shell's grammar is an address under
/// `/pausecam/`: the command word is the first part of the address, and further parts and the arguments are its
/// argument, so `/pausecam/lens "tele"`, `/pausecam/lens/tele` and `/pausecam/zoom ,f 2.0` are the lines
/// `lens tele`, `lens tele` and `zoom 2`. The line then goes through the control socket's dispatcher, so an OSC
/// command is checked, carried out and answered exactly as `pausecam ctl` would have it.
///
/// Three addresses are OSC's own: `/pausecam/subscribe [port]` and `/pausecam/unsubscribe [port]` (feedback to the
/// sender's address, at its own port or the one given), and `/pausecam/button/…`, a command sent by a push button
/// that adds its state as one number or boolean (TouchOSC's buttons send 1 when pressed and 0 when released): the
/// press carries out the command, the release is ignored.
///
/// Anything else is junk and says why (`OSCRejection`), to be counted; nothing from outside reaches the parser
/// unchecked: the words are the grammar's, the text has no control characters, numbers are finite.
public enum OSCRequest: Sendable, Equatable {
    /// A line of the shell's grammar; `word` is its command word (for the reply).
    case command(word: String, line: String)
    /// Send feedback to the sender's address at `port` (its own port when `nil`).
    case subscribe(port: Int?)
    /// Stop sending feedback there.
    case unsubscribe(port: Int?)
    /// A button's release: nothing to do, and not junk.
    case release

    /// The address every PauseCam message starts with.
    public static let prefix = "/pausecam/"
    /// The longest line an OSC message may make (a scene name is far shorter).
    public static let maximumLineLength = 1024
    /// The most parts an address may have after the prefix, and the most arguments a message may carry.
    public static let maximumWords = 8

    /// Reads `message`; `words` are the command words it may name (`Command.words` and its aliases).
    public static func parse(_ message: OSCMessage, words: Set<String> = OSCRequest.commandWords)
        -> Result<OSCRequest, OSCRejection> {
        guard message.address.hasPrefix(prefix) else { return .failure(.unknownAddress) }
        let parts = message.address.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= maximumWords, message.arguments.count <= maximumWords,
              !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty }) else { return .failure(.unknownAddress) }
        let first = String(parts[0])
        switch first {
        case "subscribe", "unsubscribe":
            guard parts.count == 1 else { return .failure(.unknownAddress) }
            let port: Int?
            switch message.arguments.count {
            case 0: port = nil
            case 1:
                guard let number = wholeNumber(message.arguments[0]) else { return .failure(.wrongType) }
                guard (1...65535).contains(number) else { return .failure(.badArgument) }
                port = Int(number)
            default: return .failure(.wrongType)
            }
            return .success(first == "subscribe" ? .subscribe(port: port) : .unsubscribe(port: port))
        case "button":
            guard parts.count >= 2 else { return .failure(.unknownAddress) }
            switch message.arguments.count {
            case 0: break
            case 1:
                guard let pressed = buttonState(message.arguments[0]) else { return .failure(.wrongType) }
                if !pressed { return .success(.release) }
            default: return .failure(.wrongType)
            }
            return command(parts.dropFirst().map(String.init), arguments: [], words: words)
        default:
            return command(parts.map(String.init), arguments: message.arguments, words: words)
        }
    }

    /// The command words and aliases of the shell's grammar.
    public static let commandWords = Set(Command.words).union(Command.aliases.keys)

    private static func command(_ parts: [String], arguments: [OSCArgument], words: Set<String>)
        -> Result<OSCRequest, OSCRejection> {
        guard let word = parts.first, words.contains(word) else { return .failure(.unknownAddress) }
        var texts: [String] = []
        for part in parts.dropFirst() {
            guard isPlainText(part) else { return .failure(.badArgument) }
            texts.append(part)
        }
        for argument in arguments {
            switch text(of: argument) {
            case .success(let text): texts.append(text)
            case .failure(let rejection): return .failure(rejection)
            }
        }
        let line = ([word] + texts).joined(separator: " ")
        guard line.count <= maximumLineLength else { return .failure(.badArgument) }
        return .success(.command(word: word, line: line))
    }

    /// An argument as a word of the line: strings as written, numbers in decimal, booleans as `on`/`off`.
    private static func text(of argument: OSCArgument) -> Result<String, OSCRejection> {
        switch argument {
        case .string(let s), .symbol(let s):
            guard !s.isEmpty, isPlainText(s) else { return .failure(.badArgument) }
            return .success(s)
        case .int32(let v): return .success(String(v))
        case .int64(let v): return .success(String(v))
        case .float(let v):
            guard v.isFinite else { return .failure(.badArgument) }
            return .success(v == v.rounded() && abs(v) < 1e7 ? String(Int64(v)) : v.description)
        case .double(let v):
            guard v.isFinite else { return .failure(.badArgument) }
            return .success(v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : v.description)
        case .boolean(let v): return .success(v ? "on" : "off")
        case .character(let v):
            guard let scalar = Unicode.Scalar(UInt32(bitPattern: v)), isPlainText(String(Character(scalar))) else {
                return .failure(.badArgument)
            }
            return .success(String(Character(scalar)))
        case .other: return .failure(.wrongType)
        }
    }

    /// A whole number from an `i`, `h`, or a whole `f`/`d`; `nil` for any other type or a fraction.
    private static func wholeNumber(_ argument: OSCArgument) -> Int64? {
        switch argument {
        case .int32(let v): return Int64(v)
        case .int64(let v): return v
        case .float(let v): return v.isFinite && v == v.rounded() && abs(v) < 1e9 ? Int64(v) : nil
        case .double(let v): return v.isFinite && v == v.rounded() && abs(v) < 1e15 ? Int64(v) : nil
        default: return nil
        }
    }

    /// A button's state: pressed for a number other than 0 or for `T`; `nil` for any other type or a NaN.
    private static func buttonState(_ argument: OSCArgument) -> Bool? {
        switch argument {
        case .int32(let v): return v != 0
        case .int64(let v): return v != 0
        case .float(let v): return v.isNaN ? nil : v != 0
        case .double(let v): return v.isNaN ? nil : v != 0
        case .boolean(let v): return v
        default: return nil
        }
    }

    /// No control characters (a line break would split the line the dispatcher reads).
    private static func isPlainText(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }
    }
}

/// Why an OSC message was not carried out: each is counted under its `name` in the status (`osc.junk`).
public enum OSCRejection: String, Error, Sendable, Equatable, CaseIterable {
    /// Not a packet liblo could read as an OSC message (torn, bad padding, a bundle, not OSC at all).
    case malformed
    /// Larger than `OSCLimits.maximumPacketBytes`.
    case tooLarge = "too_large"
    /// An address PauseCam does not have.
    case unknownAddress = "unknown_address"
    /// An argument of a type the address does not take (a blob, a time tag, a string where a number belongs).
    case wrongType = "wrong_type"
    /// An argument of the right type whose value cannot be used (control characters, NaN, a port out of range).
    case badArgument = "bad_argument"
    /// The line was not a command the dispatcher accepts (its reply says why).
    case refused
    /// Beyond the message budget (`OSCMessageBudget`): dropped unread.
    case overRate = "over_rate"
    /// From a sender the allow-list does not name: dropped unanswered.
    case notAllowed = "not_allowed"

    /// The key in the status's `osc.junk`.
    public var name: String { rawValue }
}
