/// `audio:` as a list of voices: each a person's microphone recorded on a mono track of its own beside the stereo
/// mix (`Rig.Voice`). Each item has a `name:`, exactly one source (`match:`, `lens:` or `device:`), and optional
/// `channel:`, `gain:`, `pan:`, `mute:`; a virtual voice also takes the test-signal keys (`tone:`, `drift_ppm:`,
/// `level:`, `speech:`).
extension RigDecoder {
    /// The keys of one voice.
    enum VoiceKey: String, RigKey {
        case name, match, lens, device, channel, gain, pan, mute
        case tone
        case driftPPM = "drift_ppm"
        case level, speech
    }

    /// The keys that each name a voice's source, in the order messages list them.
    static let voiceSourceKeys: [VoiceKey] = [.match, .lens, .device]
    /// The keys that only a virtual voice's test signal reads.
    static let virtualVoiceKeys: [VoiceKey] = [.tone, .driftPPM, .level, .speech]

    /// The most voices a rig may record: each is an AAC track of its own, and players and editors list every track.
    static let maximumVoices = 8
    /// The channels a voice's `channel:` may name: more than any USB audio interface a rig would carry.
    static let voiceChannelRange = 1...32
    /// The longest voice name: it is a track's title, a word of `voice NAME mute` and a `follow:` key.
    static let maximumVoiceNameLength = 32
    /// The latest a virtual voice's speech span may end, on the session clock: a day.
    static let maximumSpeechTime = MediaTime.seconds(24 * 3600)

    /// The voices of the list `node`, in file order, each checked; also reports names used twice and two voices on
    /// the same card and channel. `lenses` are the rig's lens roles.
    mutating func voices(_ node: YAMLNode, _ path: KeyPath, lenses: [String]) -> [Rig.Voice] {
        guard let items = node.items else {
            report("expected a list of voices ({name: host, match: …}), found \(node.kindDescription)", at: node.mark,
                   path: path)
            return []
        }
        if items.isEmpty {
            report("the list of voices is empty: give at least one voice (name: and match:, lens: or device:), or "
                   + "device: none for video only", at: node.mark, path: path)
            return []
        }
        if items.count > Self.maximumVoices {
            report("\(items.count) voices, more than \(Self.maximumVoices): each voice is an AAC track of its own, "
                   + "and players and editors list every track; mix the others into one voice on a mixer",
                   at: items[Self.maximumVoices].mark, path: path)
        }
        var voices: [Rig.Voice] = []
        var names: [String: SourceMark] = [:]
        var inputs: [VoiceInput: String] = [:]
        for (index, item) in items.enumerated() {
            guard let (voice, nameNode, inputNode) = self.voice(item, position: index + 1, path, lenses: lenses) else {
                continue
            }
            let vp = path.child(voice.name)
            if let first = names[voice.name] {
                report("the name \"\(voice.name)\" is taken by the voice at line \(first.line), column "
                       + "\(first.column); give each voice its own name", at: nameNode.mark, path: vp.child(VoiceKey.name))
                continue
            }
            names[voice.name] = nameNode.mark
            if voice.source != .virtual {
                let input = VoiceInput(source: Self.normalized(voice.source), channel: voice.channelIndex)
                if let owner = inputs[input] {
                    report("the same card and channel as voice \"\(owner)\" (\(Self.describe(voice.source)), channel "
                           + "\(voice.channelIndex + 1)); give each voice its own channel:", at: inputNode.mark, path: vp)
                    continue
                }
                inputs[input] = voice.name
            }
            voices.append(voice)
        }
        return voices
    }

    /// Where a voice's samples come from: a card (as its source names it) and a channel of it.
    private struct VoiceInput: Hashable {
        var source: Rig.Voice.Source
        var channel: Int
    }

    /// A source compared as a card would be found: names and USB ids regardless of case.
    private static func normalized(_ source: Rig.Voice.Source) -> Rig.Voice.Source {
        if case .matched(let rule) = source { return .matched(normalized(rule)) }
        return source
    }

    /// The source as messages name it: `usb "1234:5678"`, `lens tele`, `device "hw:2,0"`.
    static func describe(_ source: Rig.Voice.Source) -> String {
        switch source {
        case .matched(let rule): return "\(rule)"
        case .ofLens(let lens): return "lens \(lens)"
        case .alsa(let pcm): return "device \"\(pcm)\""
        case .virtual: return "virtual"
        }
    }

    /// The names of a voices list as written, even of items with errors, so `follow:` is checked against them
    /// without repeating those errors; `nil` when `audio` is not a voices form.
    static func declaredVoiceNames(_ audio: YAMLNode?) -> [String]? {
        guard let audio else { return nil }
        let list = audio.items ?? audio.pairs?.first { $0.key.text == AudioKey.voices.rawValue }?.value.items
        guard let list else { return nil }
        var names: [String] = []
        for item in list {
            guard let value = item.pairs?.first(where: { $0.key.text == VoiceKey.name.rawValue })?.value,
                  let name = value.text, !value.isNull, !name.isEmpty, !names.contains(name) else { continue }
            names.append(name)
        }
        return names
    }

    /// One voice, the node of its name and the node that says where its samples come from (its `channel:` if
    /// written, else its source's value); `nil` after reporting why the item is not a voice.
    private mutating func voice(_ node: YAMLNode, position: Int, _ listPath: KeyPath,
                                lenses: [String]) -> (Rig.Voice, YAMLNode, YAMLNode)? {
        let itemPath = KeyPath(text: listPath.isRoot ? "voice \(position)" : "\(listPath.text) voice \(position)")
        guard node.pairs != nil else {
            report("expected a voice, a mapping (name: match: lens: …), found \(node.kindDescription)", at: node.mark,
                   path: itemPath)
            return nil
        }
        // The name first, so every other message names the voice (`audio.host.gain`).
        var path = itemPath
        var nameIsValid = false
        var name = ""
        if let pair = node.pairs?.first(where: { $0.key.text == VoiceKey.name.rawValue }),
           let written = text(pair.value, itemPath.child(VoiceKey.name)) {
            name = written
            if let problem = Self.voiceNameProblem(written) {
                report(problem, at: pair.value.mark, path: itemPath.child(VoiceKey.name))
            } else {
                nameIsValid = true
                path = listPath.child(written)
            }
        }
        guard let f = fields(node, path, VoiceKey.self, required: [.name]) else { return nil }
        let source = voiceSource(f, node, path, lenses: lenses)
        var voice = Rig.Voice(name: name, source: source ?? .virtual, mark: node.mark)
        if let n = f[.channel] {
            voice.channel = integer(n, path.child(VoiceKey.channel), in: Self.voiceChannelRange,
                                    what: "a channel from \(Self.voiceChannelRange.lowerBound) to "
                                        + "\(Self.voiceChannelRange.upperBound)")
            if source == .virtual, let channel = voice.channel, channel != 1 {
                report("a virtual microphone has one channel; leave channel: out", at: n.mark,
                       path: path.child(VoiceKey.channel))
            }
        }
        if let n = f[.gain], let v = gain(n, path.child(VoiceKey.gain)) { voice.gainDecibels = v }
        if let n = f[.pan] {
            let range = Rig.Voice.panRange
            if let v = number(n, path.child(VoiceKey.pan), min: range.lowerBound, max: range.upperBound,
                              inclusiveMin: true, what: "a pan from -1 (left) to 1 (right), 0 the centre") {
                voice.pan = v
            }
        }
        if let n = f[.mute], let m = bool(n, path.child(VoiceKey.mute)) { voice.mute = m }
        if let source, source != .virtual {
            for key in Self.virtualVoiceKeys {
                if let keyNode = f.keyNode(key) {
                    report("\"\(key.rawValue)\" applies to the virtual microphone only (device: virtual)",
                           at: keyNode.mark, path: path)
                }
            }
        } else {
            if let n = f[.tone], let v = toneFrequency(n, path.child(VoiceKey.tone)) { voice.virtual.frequency = v }
            if let n = f[.driftPPM], let v = driftPPM(n, path.child(VoiceKey.driftPPM)) { voice.virtual.driftPPM = v }
            if let n = f[.level], let v = signalLevel(n, path.child(VoiceKey.level)) { voice.virtual.level = v }
            if let n = f[.speech] { voice.virtual.speech = speech(n, path.child(VoiceKey.speech)) }
        }
        guard nameIsValid, let source, let nameNode = f[.name] else { return nil }
        voice.source = source
        let inputNode = f[.channel] ?? Self.voiceSourceKeys.lazy.compactMap { f[$0] }.first ?? node
        return (voice, nameNode, inputNode)
    }

    /// Why `name` cannot name a voice, or `nil` when it can: it is a word of `voice NAME mute`, a `follow:` key and
    /// a track's title, so letters, digits, `-` and `_`, and not a word `follow:` keeps for itself.
    static func voiceNameProblem(_ name: String) -> String? {
        if Rig.Voice.reservedNames.contains(name) {
            return "\"\(name)\" cannot be a voice name: follow: uses \"both\" and \"nobody\" for several voices and none"
        }
        let allowed = name.allSatisfy { ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") && !$0.isWhitespace }
        guard allowed, name.count <= maximumVoiceNameLength else {
            return "\"\(name)\" cannot be a voice name: use letters, digits, - and _ (at most "
                + "\(maximumVoiceNameLength)); it is a word of `voice NAME mute` and the title of its track"
        }
        return nil
    }

    /// The source of the voice whose fields are `f`, or `nil` after reporting why there is none.
    private mutating func voiceSource(_ f: Fields<VoiceKey>, _ node: YAMLNode, _ path: KeyPath,
                                      lenses: [String]) -> Rig.Voice.Source? {
        let given = Self.voiceSourceKeys.compactMap { key in f.keyNode(key).map { (key: key, node: $0) } }
            .sorted { $0.node.mark < $1.node.mark }
        guard let first = given.first else {
            report("needs \"match\" (a sound card udev finds), \"lens\" (the microphone of that lens's camera) or "
                   + "\"device\" (an ALSA name, or virtual)", at: node.mark, path: path)
            return nil
        }
        if given.count > 1 {
            report("has both \"\(first.key.rawValue)\" and \"\(given[1].key.rawValue)\"; give one way to find the "
                   + "voice's microphone", at: given[1].node.mark, path: path)
            return nil
        }
        switch first.key {
        case .match:
            return matchRule(f[.match]!, path.child(VoiceKey.match)).map { .matched($0) }
        case .lens:
            let n = f[.lens]!
            guard let lens = text(n, path.child(VoiceKey.lens)) else { return nil }
            guard lenses.contains(lens) else {
                report("unknown lens \"\(lens)\"" + suggestion(lens, lenses, orList: true), at: n.mark,
                       path: path.child(VoiceKey.lens))
                return nil
            }
            return .ofLens(lens)
        default:
            let n = f[.device]!
            guard let device = text(n, path.child(VoiceKey.device)) else { return nil }
            switch device {
            case "virtual": return .virtual
            case "none":
                report("a voice needs a microphone; leave the voice out instead", at: n.mark,
                       path: path.child(VoiceKey.device))
                return nil
            default: return .alsa(device)
            }
        }
    }

    /// `speech: ["0s-4s", "9s-11.5s"]`: spans of the session clock, each START-END, in order and apart.
    private mutating func speech(_ node: YAMLNode, _ path: KeyPath) -> [Range<MediaTime>] {
        guard let items = node.items else {
            report("expected a list of spans such as [\"0s-4s\", \"9s-11.5s\"], found \(node.kindDescription)",
                   at: node.mark, path: path)
            return []
        }
        var spans: [Range<MediaTime>] = []
        for item in items {
            guard let written = text(item, path) else { continue }
            let ends = written.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count == 2, let start = DurationParser.parse(String(ends[0])),
                  let end = DurationParser.parse(String(ends[1])) else {
                report("\"\(written)\" is not a span; write START-END such as \"9s-11.5s\"", at: item.mark, path: path)
                continue
            }
            guard start < end, end <= Self.maximumSpeechTime else {
                report("the span \"\(written)\" must end after it starts, and by "
                       + "\(CommandParser.formatDuration(Self.maximumSpeechTime))", at: item.mark, path: path)
                continue
            }
            if let last = spans.last, start < last.upperBound {
                report("the span \"\(written)\" starts before the one before it ends "
                       + "(\(CommandParser.formatDuration(last.upperBound))); write the spans in order, apart",
                       at: item.mark, path: path)
                continue
            }
            spans.append(start..<end)
        }
        return spans
    }
}
