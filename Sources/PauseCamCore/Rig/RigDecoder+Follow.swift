/// `follow:`: the program's lens follows who speaks, in a rig whose `audio:` is a list of voices. A mapping of voice
/// names to lens roles, beside the options below (`both:` required).
extension RigDecoder {
    /// The options of `follow:`; every other key is a voice's name.
    enum FollowKey: String, RigKey {
        case both, nobody
        case minimumShot = "min_shot"
        case hold
        case manualHold = "manual_hold"
        case threshold, start
    }

    /// The longest `min_shot:`, `hold:` and `manual_hold:`: beyond a minute the lens no longer follows a
    /// conversation.
    static let maximumFollowTime = MediaTime.seconds(60)
    /// The range of `threshold:`, in dBFS: from below a quiet room's noise to full scale.
    static let followThresholdRange = -90.0...0.0

    /// `voices` are the voice names as declared (`nil` when `audio:` is not a list of voices), `lenses` the lens
    /// roles; `keyNode` is where `follow` is written.
    mutating func follow(_ node: YAMLNode, keyNode: YAMLNode, _ path: KeyPath, voices: [String]?,
                         lenses: [String]) -> Rig.Follow? {
        guard let voices else {
            report("follows who speaks, so it needs audio: as a list of voices ({name: host, …}), one track each",
                   at: keyNode.mark, path: path)
            return nil
        }
        guard let entries = namedEntries(node, path, what: "voice names to lenses, and both:") else { return nil }
        var mapped: [(voice: String, lens: String)] = []
        var options: [FollowKey: (key: YAMLNode, value: YAMLNode)] = [:]
        var ok = true
        var sawVoice = false
        var sawUnknown = false
        for (key, keyNode, value) in entries {
            if let option = FollowKey(rawValue: key) {
                options[option] = (keyNode, value)
                continue
            }
            guard voices.contains(key) else {
                let hint = SpellingSuggestion.closest(to: key, in: voices + FollowKey.names)
                    .map { "; did you mean \"\($0)\"?" }
                    ?? " (voices: \(voices.joined(separator: ", ")); options: \(FollowKey.names.joined(separator: ", ")))"
                report("\"\(key)\" is neither a voice nor an option of follow" + hint, at: keyNode.mark, path: path)
                sawUnknown = true
                ok = false
                continue
            }
            sawVoice = true
            guard let lens = followLens(value, path.child(key), lenses: lenses) else {
                ok = false
                continue
            }
            mapped.append((key, lens))
        }
        var both: String?
        if let (_, value) = options[.both] {
            both = followLens(value, path.child(FollowKey.both), lenses: lenses)
            if both == nil { ok = false }
        } else {
            report("missing required key \"both\" (the lens when several voices speak at once)", at: node.mark,
                   path: path)
            ok = false
        }
        var nobody: String?
        if let (_, value) = options[.nobody] {
            nobody = followLens(value, path.child(FollowKey.nobody), lenses: lenses)
            if nobody == nil { ok = false }
        }
        if !sawVoice, !sawUnknown {
            report("maps no voice to a lens; write VOICE: LENS for each voice to follow (\(voices.first ?? "host"): "
                   + "\(lenses.first ?? "tele"))", at: node.mark, path: path)
            ok = false
        }
        var times: [FollowKey: MediaTime] = [:]
        for key in [FollowKey.minimumShot, .hold, .manualHold] {
            guard let (_, value) = options[key] else { continue }
            if let t = duration(value, path.child(key), max: Self.maximumFollowTime, positive: false) {
                times[key] = t
            } else {
                ok = false
            }
        }
        var threshold: Double?
        if let (_, value) = options[.threshold], let t = text(value, path.child(FollowKey.threshold)) {
            let range = Self.followThresholdRange
            if let v = Self.decibels(t), range.contains(v) {
                threshold = v
            } else {
                report("expected a level in dBFS from \(CommandParser.formatNumber(range.lowerBound))dB to "
                       + "\(CommandParser.formatNumber(range.upperBound))dB such as -40dB, found \"\(t)\"",
                       at: value.mark, path: path.child(FollowKey.threshold))
                ok = false
            }
        }
        var startsOn = true
        if let (_, value) = options[.start] {
            if let on = onOff(value, path.child(FollowKey.start)) { startsOn = on } else { ok = false }
        }
        guard ok, let both else { return nil }
        var follow = Rig.Follow(lenses: mapped, both: both, nobody: nobody)
        follow.minimumShot = times[.minimumShot] ?? follow.minimumShot
        follow.hold = times[.hold] ?? follow.hold
        follow.manualHold = times[.manualHold] ?? follow.manualHold
        follow.thresholdDBFS = threshold ?? follow.thresholdDBFS
        follow.startsOn = startsOn
        return follow
    }

    /// A lens role of the rig, or `nil` after reporting it is not one (with the nearest as a suggestion).
    private mutating func followLens(_ node: YAMLNode, _ path: KeyPath, lenses: [String]) -> String? {
        guard let lens = text(node, path) else { return nil }
        guard lenses.contains(lens) else {
            report("unknown lens \"\(lens)\"" + suggestion(lens, lenses, orList: true), at: node.mark, path: path)
            return nil
        }
        return lens
    }
}
