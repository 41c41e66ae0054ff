import Foundation

/// The one parser of PauseCam's command grammar. A line typed at the shell (`zoom 2x`) and a step of a rig script
/// (`- zoom: 2x`, turned into the word `zoom` and the argument `2x`) both come through `parse(word:argument:)`, so
/// the two surfaces accept exactly the same words and give exactly the same errors.
///
/// Names are checked against the rig when the parser knows it: an unknown lens or preset is an error with a
/// "did you mean". Without a rig (`CommandParser()`), names are accepted as written and the caller resolves them
/// (then `zoom 2x` is the factor 2, since no preset is known).
///
/// `zoom X` resolves here, once: a zoom preset named `X` wins (`zoom 2x` is the preset "2x" when the rig has one);
/// otherwise a number with an optional `x` (`1.5`, `1.5x`) is a zoom factor; anything else is an unknown preset.
/// `exposure X` likewise: a preset named `X`, else `auto`, else a signed EV bias (`+0.7`, `-1`).
public struct CommandParser: Sendable {
    /// Known lens roles, zoom presets, exposure presets and scripts; `nil` means "do not check".
    public var lenses: [String]?
    public var zoomPresets: [String]?
    public var exposurePresets: [String]?
    public var scripts: [String]?

    public init(lenses: [String]? = nil, zoomPresets: [String]? = nil, exposurePresets: [String]? = nil,
                scripts: [String]? = nil) {
        self.lenses = lenses
        self.zoomPresets = zoomPresets
        self.exposurePresets = exposurePresets
        self.scripts = scripts
    }

    /// A parser that checks names against this rig.
    public init(rig: Rig) {
        let names = rig.names
        self.init(lenses: names.lenses, zoomPresets: names.zoomPresets, exposurePresets: names.exposurePresets,
                  scripts: names.scripts)
    }

    /// Why a line is not a command. `part` says whether the command word or its argument is at fault, so a rig
    /// script can point at the right node.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Which part of the line is wrong.
        public enum Part: Sendable, Equatable { case word, argument }
        /// What is wrong, for the user, e.g. `unknown lens "mian"; did you mean "main"?`.
        public var message: String
        /// Where it is wrong.
        public var part: Part
        public init(_ message: String, part: Part) {
            self.message = message
            self.part = part
        }
        public var description: String { message }
    }

    /// A typed line: the first word is the command, the rest of the line (trimmed, one pair of surrounding quotes
    /// removed) its argument. An empty line is an error the shell simply ignores.
    public func parse(_ line: String) -> Result<Command, Failure> {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return .failure(Failure("empty command", part: .word)) }
        let wordEnd = trimmed.firstIndex(where: \.isWhitespace) ?? trimmed.endIndex
        let word = String(trimmed[..<wordEnd])
        var argument = trimmed[wordEnd...].trimmingCharacters(in: .whitespaces)
        if argument.count >= 2, let first = argument.first, first == argument.last, first == "\"" || first == "'" {
            argument = String(argument.dropFirst().dropLast())
        }
        return parse(word: word, argument: argument.isEmpty ? nil : argument)
    }

    /// A step of a rig script: the same grammar, plus the rule that shell-only commands are not steps.
    public func parseScriptStep(word: String, argument: String?) -> Result<Command, Failure> {
        let result = parse(word: word, argument: argument)
        if case .success(let command) = result, !command.isScriptStep {
            return .failure(Failure("\"\(command.word)\" works only in the shell, not as a script step", part: .word))
        }
        return result
    }

    /// The grammar itself: a command word and its argument (already separated and trimmed; `nil` when absent).
    public func parse(word rawWord: String, argument rawArgument: String?) -> Result<Command, Failure> {
        let word = Command.aliases[rawWord.lowercased()] ?? rawWord.lowercased()
        let argument = rawArgument.flatMap { $0.isEmpty ? nil : $0 }
        func noArgument(_ command: Command) -> Result<Command, Failure> {
            if let a = argument {
                return .failure(Failure("\"\(rawWord.lowercased())\" takes no argument (got \"\(a)\")", part: .argument))
            }
            return .success(command)
        }
        func required(_ what: String) -> Result<String, Failure> {
            guard let a = argument else { return .failure(Failure("\"\(word)\" needs \(what)", part: .argument)) }
            return .success(a)
        }
        switch word {
        case "record": return record(argument)
        case "pause": return noArgument(.pause)
        case "resume": return .success(.resume(name: argument))
        case "stop": return noArgument(.stop)
        case "toggle": return noArgument(.toggle)
        case "chapter": return .success(.chapter(name: argument))
        case "retake": return noArgument(.retake)
        case "status": return noArgument(.status)
        case "devices": return noArgument(.devices)
        case "keys": return noArgument(.keys)
        case "quit": return noArgument(.quit)  // also `exit` and `q` (Command.aliases)
        case "lens":
            return required("a lens name or \"next\"").flatMap { name in
                if let lenses, lenses.contains(name) { return .success(.lens(.named(name))) }
                if name.lowercased() == "next" { return .success(.lens(.next)) }
                return checked(name, in: lenses, kind: "lens").map { .lens(.named($0)) }
            }
        case "zoom":
            return required("a zoom preset or a factor such as 1.5").flatMap { text in
                if let zoomPresets, zoomPresets.contains(text) { return .success(.zoom(.preset(text))) }
                if let factor = ZoomFactor.number(text) {
                    guard factor > 0, factor <= 100 else {
                        return .failure(Failure("zoom factor \(text) is out of range (more than 0, at most 100)",
                                                part: .argument))
                    }
                    return .success(.zoom(.factor(factor)))
                }
                return checked(text, in: zoomPresets, kind: "zoom preset").map { .zoom(.preset($0)) }
            }
        case "exposure":
            return required("a preset, \"auto\" or an EV bias such as +0.7").flatMap { text in
                if let exposurePresets, exposurePresets.contains(text) { return .success(.exposure(.preset(text))) }
                if text.lowercased() == "auto" { return .success(.exposure(.auto)) }
                if let bias = CommandParser.signedNumber(text) {
                    guard abs(bias) <= 10 else {
                        return .failure(Failure("exposure bias \(text) EV is out of range (-10 to +10)", part: .argument))
                    }
                    return .success(.exposure(.bias(bias)))
                }
                return checked(text, in: exposurePresets, kind: "exposure preset").map { .exposure(.preset($0)) }
            }
        case "focus":
            return required("\"auto\", a focus position such as 40, or \"at X Y\"").flatMap { text in
                if text.lowercased() == "auto" { return .success(.focus(.auto)) }
                if let point = focusPoint(text) { return point.map { .focus($0) } }
                guard let n = Int(text), n >= 0 else {
                    return .failure(Failure("focus \"\(text)\" is neither \"auto\" nor a position (0 or more)",
                                            part: .argument))
                }
                return .success(.focus(.manual(n)))
            }
        case "mark":
            guard let text = argument else { return .success(.mark(nil)) }
            return Self.markArgument(text)
        case "follow":
            return required("on or off, e.g. follow on").flatMap { text in
                switch text.lowercased() {
                case "on": return .success(.follow(true))
                case "off": return .success(.follow(false))
                default: return .failure(Failure("expected on or off, found \"\(text)\"", part: .argument))
                }
            }
        case "live":
            return required("on or off and an optional destination, e.g. live on, live off youtube").flatMap { text in
                let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                let on: Bool
                switch words.first?.lowercased() {
                case "on": on = true
                case "off": on = false
                default: return .failure(Failure("expected on or off, found \"\(words.first ?? text)\"", part: .argument))
                }
                guard words.count <= 2 else {
                    return .failure(Failure("expected one destination name after \(on ? "on" : "off"), found \"\(words.dropFirst().joined(separator: " "))\"",
                                            part: .argument))
                }
                return .success(.live(on: on, destination: words.count == 2 ? words[1] : nil))
            }
        case "voice":
            return required("a voice and what to change, e.g. voice guest mute, voice host gain +3dB").flatMap { text in
                let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                guard words.count >= 2 else {
                    return .failure(Failure("expected a voice and mute, unmute or gain, e.g. voice guest mute",
                                            part: .argument))
                }
                let name = words[0]
                switch (words[1].lowercased(), words.count) {
                case ("mute", 2): return .success(.voice(name: name, change: .mute))
                case ("unmute", 2): return .success(.voice(name: name, change: .unmute))
                case ("gain", 3):
                    guard let db = RigDecoder.decibels(words[2]), Rig.AudioOptions.gainRange.contains(db) else {
                        return .failure(Failure("expected a gain from -40dB to +40dB such as +3dB, found \"\(words[2])\"",
                                                part: .argument))
                    }
                    return .success(.voice(name: name, change: .gain(db)))
                default:
                    return .failure(Failure("expected voice NAME mute, voice NAME unmute or voice NAME gain +3dB",
                                            part: .argument))
                }
            }
        case "wait":
            return required("a duration such as 5s, 2.5s or 400ms").flatMap { text in
                guard let d = DurationParser.parse(text) else {
                    return .failure(Failure("\"\(text)\" is not a duration (try 5s, 2.5s, 400ms, 1m30s)",
                                            part: .argument))
                }
                guard d <= .seconds(86_400) else {
                    return .failure(Failure("wait \(text) is longer than 24 hours", part: .argument))
                }
                return .success(.wait(d))
            }
        case "run":
            return required("a script name").flatMap { name in
                checked(name, in: scripts, kind: "script").map { .run(script: $0) }
            }
        case "last":
            guard let a = argument else { return .success(.last(play: false)) }
            guard a.lowercased() == "play" else {
                return .failure(Failure("\"last\" takes nothing or \"play\" (got \"\(a)\")", part: .argument))
            }
            return .success(.last(play: true))
        case "help":
            guard let typed = argument?.lowercased() else { return .success(.help(topic: nil)) }
            let topic = Command.aliases[typed] ?? typed
            return checked(topic, in: Command.words, kind: "command").map { .help(topic: $0) }
        default:
            return .failure(Failure("unknown command \"\(rawWord)\""
                + (SpellingSuggestion.closest(to: word, in: Command.words).map { "; did you mean \"\($0)\"?" }
                   ?? "; type \"help\" for the list"), part: .word))
        }
    }

    /// `record [--countdown N] [NAME]` (also `--countdown=N`): the option comes first, so a scene name may hold
    /// any words.
    private func record(_ argument: String?) -> Result<Command, Failure> {
        guard let argument, argument.hasPrefix("--countdown") else { return .success(.record(name: argument)) }
        var rest = Substring(argument.dropFirst("--countdown".count))
        if rest.hasPrefix("=") { rest = rest.dropFirst() } else {
            guard rest.first?.isWhitespace ?? true else {
                return .failure(Failure("\"record\" knows one option, --countdown SECONDS (got \"\(argument)\")",
                                        part: .argument))
            }
        }
        rest = rest.drop { $0.isWhitespace }
        let numberEnd = rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
        let text = String(rest[..<numberEnd])
        let range = Command.countdownRange
        guard let seconds = Int(text.hasSuffix("s") ? String(text.dropLast()) : text), range.contains(seconds) else {
            return .failure(Failure("--countdown needs whole seconds from \(range.lowerBound) to \(range.upperBound), "
                                    + "e.g. record --countdown 3 (got \"\(text)\")", part: .argument))
        }
        var name = rest[numberEnd...].trimmingCharacters(in: .whitespaces)
        if name.count >= 2, let first = name.first, first == name.last, first == "\"" || first == "'" {
            name = String(name.dropFirst().dropLast())
        }
        return .success(.record(name: name.isEmpty ? nil : name, countdown: seconds))
    }

    /// `at X Y` (X and Y from 0 to 1 of the program picture) as a focus point; `nil` when `text` does not begin
    /// with the word `at`, so other focus arguments are judged as before.
    private func focusPoint(_ text: String) -> Result<Command.FocusChoice, Failure>? {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.first?.lowercased() == "at" else { return nil }
        let usage = "focus at X Y takes two numbers from 0 to 1 (the point of the picture, from its left and top), "
            + "e.g. focus at 0.5 0.5"
        guard words.count == 3 else {
            return .failure(Failure(usage + " (got \"\(text)\")", part: .argument))
        }
        let numbers = words.dropFirst().map { word -> Double? in
            guard let value = CommandParser.signedNumber(word), value.isFinite else { return nil }
            return value
        }
        guard let x = numbers[0], let y = numbers[1] else {
            return .failure(Failure(usage + " (got \"\(text)\")", part: .argument))
        }
        guard (0...1).contains(x), (0...1).contains(y) else {
            return .failure(Failure("focus at \(words[1]) \(words[2]) is outside the picture: " + usage, part: .argument))
        }
        return .success(.point(x: x, y: y))
    }

    /// `name` when `known` is nil or contains it; otherwise an "unknown KIND" failure with a suggestion.
    private func checked(_ name: String, in known: [String]?, kind: String) -> Result<String, Failure> {
        guard let known, !known.contains(name) else { return .success(name) }
        let hint: String
        if let near = SpellingSuggestion.closest(to: name, in: known) {
            hint = "; did you mean \"\(near)\"?"
        } else if known.isEmpty {
            hint = " (this rig has none)"
        } else {
            hint = " (known: \(known.joined(separator: ", ")))"
        }
        return .failure(Failure("unknown \(kind) \"\(name)\"" + hint, part: .argument))
    }

    /// `+0.7`, `-1`, `0.3` as a number; `nil` otherwise.
    static func signedNumber(_ text: String) -> Double? {
        var s = Substring(text)
        var sign = 1.0
        if s.hasPrefix("+") { s = s.dropFirst() } else if s.hasPrefix("-") || s.hasPrefix("−") { s = s.dropFirst(); sign = -1 }
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              s.filter({ $0 == "." }).count <= 1, s != ".", let v = Double(s) else { return nil }
        return sign * v
    }

    /// The line that parses back into `command`: how summaries, help and transcripts print a command.
    public static func line(for command: Command) -> String {
        switch command {
        case .record(let name, let countdown):
            let option = countdown.map { " --countdown \($0)" } ?? ""
            return "record" + option + (name.map { " \($0)" } ?? "")
        case .resume(let name): return name.map { "resume \($0)" } ?? "resume"
        case .chapter(let name): return name.map { "chapter \($0)" } ?? "chapter"
        case .pause, .stop, .toggle, .retake, .status, .devices, .keys, .quit: return command.word
        case .lens(.next): return "lens next"
        case .lens(.named(let n)): return "lens \(n)"
        case .zoom(.preset(let p)): return "zoom \(p)"
        case .zoom(.factor(let f)): return "zoom \(formatNumber(f))"
        case .exposure(.preset(let p)): return "exposure \(p)"
        case .exposure(.auto): return "exposure auto"
        case .exposure(.bias(let b)): return "exposure \(b >= 0 ? "+" : "-")\(formatNumber(abs(b)))"
        case .focus(.auto): return "focus auto"
        case .focus(.manual(let n)): return "focus \(n)"
        case .focus(.point(let x, let y)): return "focus at \(formatNumber(x)) \(formatNumber(y))"
        case .mark(let text): return text.map { "mark \($0)" } ?? "mark"
        case .renameMarker(let number, let name): return "mark rename \(number) \(name)"
        case .follow(let on): return on ? "follow on" : "follow off"
        case .live(let on, let destination): return "live \(on ? "on" : "off")" + (destination.map { " \($0)" } ?? "")
        case .voice(let name, .mute): return "voice \(name) mute"
        case .voice(let name, .unmute): return "voice \(name) unmute"
        case .voice(let name, .gain(let db)): return "voice \(name) gain \(db >= 0 ? "+" : "-")\(formatNumber(abs(db)))dB"
        case .wait(let d): return "wait \(formatDuration(d))"
        case .run(let s): return "run \(s)"
        case .last(let play): return play ? "last play" : "last"
        case .help(let topic): return topic.map { "help \($0)" } ?? "help"
        }
    }

    /// `2`, `1.5`, `0.25`: a short decimal without a trailing `.0`.
    static func formatNumber(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }

    /// A duration as `DurationParser` reads it back exactly: `5s`, `400ms`, `2.5s`, or a fraction `1/3`.
    public static func formatDuration(_ d: MediaTime) -> String {
        if let ms = try? d.rescaled(to: 1000, rounding: .down), ms == d {
            if ms.value % 1000 == 0 { return "\(ms.value / 1000)s" }
            if ms.value < 1000 { return "\(ms.value)ms" }
        }
        if let micro = try? d.rescaled(to: 1_000_000, rounding: .down), micro == d {
            var fraction = String(micro.value % 1_000_000)
            fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return "\(micro.value / 1_000_000).\(fraction)s"
        }
        return "\(d.value)/\(d.timescale)"
    }
}
