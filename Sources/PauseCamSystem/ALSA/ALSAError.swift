import CALSA

/// An ALSA call failed on a PCM: which PCM, which call, and ALSA's own message (`snd_strerror`).
public struct ALSAError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The PCM name as the rig gives it, e.g. "default" or "hw:1,0".
    public var pcm: String
    /// The C function, e.g. "snd_pcm_open".
    public var call: String
    /// The negative error code ALSA returned.
    public var code: Int32

    public init(pcm: String, call: String, code: Int32) {
        self.pcm = pcm
        self.call = call
        self.code = code
    }

    /// `snd_strerror`'s text for the code.
    public var message: String { String(cString: snd_strerror(code)) }

    public var description: String {
        var text = "microphone \"\(pcm)\": \(call) failed: \(message) (\(code))"
        if call == "snd_pcm_open" {
            text += "; check `arecord -L` for PCM names, `arecord -l` for capture cards, and membership of the "
                + "`audio` group"
        }
        return text
    }
}
