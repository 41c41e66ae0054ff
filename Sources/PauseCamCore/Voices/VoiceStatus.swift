/// One voice as `status --json`, the prompt and the monitor page show it: its level after gain, and its settings.
public struct VoiceStatus: Sendable, Equatable {
    public var name: String
    /// Peak over the last 100 ms in dBFS, after the voice's gain (`LevelMeter`); −∞ is given as `nil`.
    public var peakDBFS: Double?
    /// The highest peak of the last 2 s in dBFS (the meter's hold mark).
    public var holdDBFS: Double?
    /// True while the voice has reached full scale within the last 2 s.
    public var clipping: Bool
    public var gainDecibels: Double
    public var pan: Double
    /// Left out of the mix (its own track is still recorded).
    public var muted: Bool
    /// Its microphone is gone (unplugged); its track records silence.
    public var gone: Bool
    /// `follow` counts it as speaking now.
    public var speaking: Bool

    public init(name: String, peakDBFS: Double? = nil, holdDBFS: Double? = nil, clipping: Bool = false,
                gainDecibels: Double = 0, pan: Double = 0, muted: Bool = false, gone: Bool = false,
                speaking: Bool = false) {
        self.name = name
        self.peakDBFS = peakDBFS
        self.holdDBFS = holdDBFS
        self.clipping = clipping
        self.gainDecibels = gainDecibels
        self.pan = pan
        self.muted = muted
        self.gone = gone
        self.speaking = speaking
    }

    /// `host -12 dBFS`, `guest muted`, `room gone`, `host clipping`: the voice in `status`'s line.
    public var summary: String {
        if gone { return "\(name) gone" }
        var words = [name]
        if let peakDBFS { words.append("\(Int(peakDBFS.rounded())) dBFS") } else { words.append("silent") }
        if muted { words.append("muted") }
        if clipping { words.append("clipping") }
        return words.joined(separator: " ")
    }
}
