import CLiblo
import PauseCamCore

/// Why liblo would not read or write an OSC message: its error number (`LO_*` in <lo/lo_errors.h>) with the C
/// name and a sentence, and what it means for the counters (`rejection`).
public struct OSCCodecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// liblo's number (`LO_ESIZE` …), or 0 when liblo returned nothing without saying why.
    public var code: Int32
    /// The call that failed (`lo_message_deserialise`).
    public var call: String

    public init(code: Int32, call: String) {
        self.code = code
        self.call = call
    }

    /// The C name, e.g. `LO_EINVALIDPATH`.
    public var name: String {
        switch code {
        case LO_ENOPATH: return "LO_ENOPATH"
        case LO_ENOTYPE: return "LO_ENOTYPE"
        case LO_TOOBIG: return "LO_TOOBIG"
        case LO_INT_ERR: return "LO_INT_ERR"
        case LO_EALLOC: return "LO_EALLOC"
        case LO_EINVALIDPATH: return "LO_EINVALIDPATH"
        case LO_EINVALIDTYPE: return "LO_EINVALIDTYPE"
        case LO_EBADTYPE: return "LO_EBADTYPE"
        case LO_ESIZE: return "LO_ESIZE"
        case LO_EINVALIDARG: return "LO_EINVALIDARG"
        case LO_ETERM: return "LO_ETERM"
        case LO_EPAD: return "LO_EPAD"
        case LO_EINVALIDBUND: return "LO_EINVALIDBUND"
        case LO_EINVALIDTIME: return "LO_EINVALIDTIME"
        default: return "liblo error \(code)"
        }
    }

    /// What the number means, for a log line.
    public var meaning: String {
        switch code {
        case LO_ENOPATH, LO_EINVALIDPATH: return "no valid OSC address"
        case LO_ENOTYPE, LO_EINVALIDTYPE: return "no valid type tags"
        case LO_EBADTYPE: return "an unknown type tag"
        case LO_ESIZE: return "the sizes do not add up"
        case LO_EINVALIDARG: return "an argument does not fit the packet"
        case LO_ETERM: return "a string is not terminated"
        case LO_EPAD: return "bad padding"
        case LO_EINVALIDBUND, LO_EINVALIDTIME: return "a bad bundle"
        case LO_TOOBIG: return "too large"
        case LO_EALLOC: return "out of memory"
        default: return "not an OSC message"
        }
    }

    /// `lo_message_deserialise: LO_EPAD (bad padding)`.
    public var description: String { "\(call): \(name) (\(meaning))" }

    /// How a packet liblo cannot read is counted.
    public var rejection: OSCRejection { code == LO_TOOBIG ? .tooLarge : .malformed }
}
