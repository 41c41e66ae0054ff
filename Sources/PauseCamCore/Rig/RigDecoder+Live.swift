/// `live:`: the program as a webcam (`webcam: {device: /dev/videoN}` or `{label: NAME}`) and as streams
/// (`stream: [{url: "srt://…"}, {url: "rtmp://…/KEY"}]`), and what they show while the recording is paused.
extension RigDecoder {
    /// The keys of `live:`.
    enum LiveKey: String, RigKey {
        case webcam, stream
        case whilePaused = "while_paused"
    }

    /// The keys of `live.webcam:`.
    enum LiveWebcamKey: String, RigKey {
        case device, label, format
    }

    /// The keys of one `live.stream:` destination.
    enum LiveStreamKey: String, RigKey {
        case url, name, size, bitrate
        case audioBitrate = "audio_bitrate"
        case start
    }

    /// The video bitrates a stream may ask for: below 100 kbit/s x264 shows blocks only; 50 Mbit/s is beyond
    /// what any streaming site takes.
    static let liveBitrateRange = 100_000...50_000_000
    /// The AAC bitrates a stream may ask for.
    static let liveAudioBitrateRange = 32_000...512_000
    /// The most destinations one rig streams to: each is one more encoder on the same cores.
    static let maximumLiveStreams = 8

    /// `live: {webcam: …, stream: […], while_paused: live|slate}`; `nil` when it is wrong (every problem reported).
    mutating func live(_ node: YAMLNode, _ path: KeyPath) -> Rig.Live? {
        guard let f = fields(node, path, LiveKey.self) else { return nil }
        var ok = true
        var live = Rig.Live()
        if let n = f[.webcam] {
            if let webcam = liveWebcam(n, path.child(LiveKey.webcam), format: &live.webcamFormat) {
                live.webcam = webcam
            } else {
                ok = false
            }
        }
        if let n = f[.stream] {
            if let streams = liveStreams(n, path.child(LiveKey.stream)) { live.streams = streams } else { ok = false }
        }
        if let n = f[.whilePaused] {
            if let choice = choice(n, path.child(LiveKey.whilePaused), Rig.Live.WhilePaused.self) {
                live.whilePaused = choice
            } else {
                ok = false
            }
        }
        if ok, live.streams.contains(where: \.url.mayHoldSecret), surroundings.readableByOthers(node.mark.file) {
            warn(.liveKeyReadable, "a stream URL holds a key and \(node.mark.file) can be read by other users; "
                 + "chmod 600 \(node.mark.file)", at: node.mark, path: path)
        }
        if ok, live.webcam == nil, live.streams.isEmpty {
            report("names no output; write webcam: {device: /dev/videoN} or stream: [{url: \"srt://HOST:PORT\"}]",
                   at: node.mark, path: path)
            ok = false
        }
        return ok ? live : nil
    }

    /// `webcam: {device: …}` or `{label: …}`, with `format: i420|yuyv` (default i420) into `format`.
    private mutating func liveWebcam(_ node: YAMLNode, _ path: KeyPath,
                                     format: inout Rig.Live.WebcamFormat) -> Rig.Live.Webcam? {
        guard let f = fields(node, path, LiveWebcamKey.self) else { return nil }
        if let n = f[.format] {
            guard let chosen = choice(n, path.child(LiveWebcamKey.format), Rig.Live.WebcamFormat.self) else {
                return nil
            }
            format = chosen
        }
        switch (f[.device], f[.label]) {
        case (let device?, nil):
            guard let written = text(device, path.child(LiveWebcamKey.device)) else { return nil }
            guard written.hasPrefix("/dev/"), written.count > 5 else {
                report("expected a device node such as /dev/video10, found \"\(written)\"", at: device.mark,
                       path: path.child(LiveWebcamKey.device))
                return nil
            }
            return .device(written)
        case (nil, let label?):
            return text(label, path.child(LiveWebcamKey.label)).map { .label($0) }
        case (.some, .some):
            report("give device: or label:, not both", at: node.mark, path: path)
            return nil
        case (nil, nil):
            report("expected device: /dev/videoN or label: NAME (the v4l2loopback card_label)", at: node.mark,
                   path: path)
            return nil
        }
    }

    private mutating func liveStreams(_ node: YAMLNode, _ path: KeyPath) -> [Rig.Live.Stream]? {
        guard let items = node.items else {
            report("expected a list of destinations ([{url: \"srt://HOST:PORT\"}]), found \(node.kindDescription)",
                   at: node.mark, path: path)
            return nil
        }
        guard items.count <= Self.maximumLiveStreams else {
            report("at most \(Self.maximumLiveStreams) destinations (each is one more encoder); found \(items.count)",
                   at: node.mark, path: path)
            return nil
        }
        var streams: [Rig.Live.Stream] = []
        var names: [String: SourceMark] = [:]
        var ok = true
        for (index, item) in items.enumerated() {
            let itemPath = KeyPath(text: "\(path) \(index + 1)")
            guard let stream = liveStream(item, itemPath) else {
                ok = false
                continue
            }
            if let first = names[stream.name] {
                report("the name \"\(stream.name)\" is taken by the destination at line \(first.line), column "
                       + "\(first.column); give each destination its own name:", at: item.mark, path: itemPath)
                ok = false
                continue
            }
            names[stream.name] = item.mark
            streams.append(stream)
        }
        return ok ? streams : nil
    }

    private mutating func liveStream(_ node: YAMLNode, _ path: KeyPath) -> Rig.Live.Stream? {
        guard let f = fields(node, path, LiveStreamKey.self, required: [.url]) else { return nil }
        var ok = true
        var url: StreamURL?
        if let n = f[.url] {
            url = value(n, path.child(LiveStreamKey.url), StreamURL.parse)
            if url == nil { ok = false }
        }
        var name = url?.host
        if let n = f[.name] {
            name = nil
            if let written = text(n, path.child(LiveStreamKey.name)) {
                if Self.isLiveStreamName(written) { name = written } else {
                    report("\"\(written)\" cannot name a destination: use letters, digits, ., - and _ (at most 32); "
                           + "it is a word of `live on NAME`", at: n.mark, path: path.child(LiveStreamKey.name))
                }
            }
            if name == nil { ok = false }
        } else if let host = name, !Self.isLiveStreamName(host) {
            name = String(host.filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }.prefix(32))
            if name?.isEmpty ?? true { name = "stream" }
        }
        var size: (width: Int, height: Int)?
        if let n = f[.size] {
            size = value(n, path.child(LiveStreamKey.size), RigValueParser.size)
            if size == nil { ok = false }
        }
        let bitrate = f[.bitrate].map { rate($0, path.child(LiveStreamKey.bitrate), in: Self.liveBitrateRange) }
        let audioBitrate = f[.audioBitrate].map {
            rate($0, path.child(LiveStreamKey.audioBitrate), in: Self.liveAudioBitrateRange)
        }
        if bitrate.map({ $0 == nil }) ?? false || audioBitrate.map({ $0 == nil }) ?? false { ok = false }
        var startsOn = true
        if let n = f[.start] {
            if let on = onOff(n, path.child(LiveStreamKey.start)) { startsOn = on } else { ok = false }
        }
        guard ok, let url, let name else { return nil }
        return Rig.Live.Stream(url: url, name: name, width: size?.width, height: size?.height,
                               bitrate: (bitrate ?? nil) ?? Rig.Live.Stream.defaultBitrate,
                               audioBitrate: (audioBitrate ?? nil) ?? Rig.Live.Stream.defaultAudioBitrate,
                               startsOn: startsOn)
    }

    /// A bitrate (`3M`, `128k`) inside `range`, or `nil` after reporting it.
    private mutating func rate(_ node: YAMLNode, _ path: KeyPath, in range: ClosedRange<Int>) -> Int? {
        guard let written = text(node, path) else { return nil }
        guard let bits = Self.bitsPerSecond(written), range.contains(bits) else {
            report("expected a bitrate from \(Self.bitrateText(range.lowerBound)) to "
                   + "\(Self.bitrateText(range.upperBound)) such as 3M or 4500k, found \"\(written)\"", at: node.mark,
                   path: path)
            return nil
        }
        return bits
    }

    /// `3M`, `4500k`, `2.5M`, `128000`: bits per second, `nil` when it is not a number or is absurd (overflow cannot
    /// happen: the value is held to a billion before scaling).
    static func bitsPerSecond(_ text: String) -> Int? {
        var digits = Substring(text.lowercased())
        var scale = 1.0
        if digits.hasSuffix("k") { scale = 1000; digits = digits.dropLast() }
        else if digits.hasSuffix("m") { scale = 1_000_000; digits = digits.dropLast() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let number = Double(digits), number.isFinite, number >= 0, number * scale <= 1e9 else { return nil }
        return Int((number * scale).rounded())
    }

    /// `3M`, `128k`: how a bitrate is written in a rig.
    static func bitrateText(_ bits: Int) -> String {
        if bits % 1_000_000 == 0 { return "\(bits / 1_000_000)M" }
        if bits % 1000 == 0 { return "\(bits / 1000)k" }
        return "\(bits)"
    }

    /// A name a `live on NAME` can carry: 1 to 32 letters, digits, `.`, `-`, `_`.
    static func isLiveStreamName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 32
            && name.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "." || $0 == "-" || $0 == "_" }
    }
}
