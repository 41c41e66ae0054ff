/// One Open Sound Control message as PauseCam reads and writes it: an address (`/pausecam/record`) and its typed
/// arguments. The wire format is liblo's business (PauseCamSystem's `OSCCodec`); here the message is a value, so
/// the mapping to commands and the feedback are tables without a socket.
public struct OSCMessage: Sendable, Equatable, CustomStringConvertible {
    /// The OSC address pattern as sent, e.g. `/pausecam/lens`.
    public var address: String
    public var arguments: [OSCArgument]

    public init(_ address: String, _ arguments: [OSCArgument] = []) {
        self.address = address
        self.arguments = arguments
    }

    /// The OSC type tags without the comma (`"sif"`).
    public var typeTags: String { String(arguments.map(\.typeTag)) }

    /// `/pausecam/zoom ,f 2` — for messages and tests.
    public var description: String {
        ([address, "," + typeTags] + arguments.map(\.text)).joined(separator: " ")
    }
}

/// One argument of an OSC message, by its OSC 1.0 type tag (and the common 1.1 extensions liblo reads). The types
/// PauseCam has no use for keep only their tag, so a message carrying one is refused by its type, never misread.
public enum OSCArgument: Sendable, Equatable {
    /// `i`
    case int32(Int32)
    /// `h`
    case int64(Int64)
    /// `f`
    case float(Float)
    /// `d`
    case double(Double)
    /// `s`
    case string(String)
    /// `S`
    case symbol(String)
    /// `c`: one character, sent as a 32-bit code.
    case character(Int32)
    /// `T` and `F`
    case boolean(Bool)
    /// Any other tag (`b` blob, `m` MIDI, `t` time tag, `N` nil, `I` infinitum, …): nothing PauseCam reads.
    case other(Character)

    /// The OSC type tag.
    public var typeTag: Character {
        switch self {
        case .int32: return "i"
        case .int64: return "h"
        case .float: return "f"
        case .double: return "d"
        case .string: return "s"
        case .symbol: return "S"
        case .character: return "c"
        case .boolean(let value): return value ? "T" : "F"
        case .other(let tag): return tag
        }
    }

    /// The value as text, as `oscdump` would show it.
    public var text: String {
        switch self {
        case .int32(let v): return String(v)
        case .int64(let v): return String(v)
        case .float(let v): return v.description
        case .double(let v): return v.description
        case .string(let v), .symbol(let v): return "\"\(v)\""
        case .character(let v): return Unicode.Scalar(UInt32(bitPattern: v)).map { "'\(Character($0))'" } ?? "?"
        case .boolean(let v): return v ? "T" : "F"
        case .other(let tag): return "<\(tag)>"
        }
    }
}
