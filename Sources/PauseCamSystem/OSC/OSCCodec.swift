import CLiblo
import Glibc
import PauseCamCore

/// Reads and writes OSC messages with liblo: bytes from the socket into Core's `OSCMessage`, and back. Every
/// `lo_message` is made and freed inside one call here, so no liblo pointer outlives it or leaves this file.
///
/// Safe from any thread: liblo's message calls keep no shared state.
public enum OSCCodec {
    /// The message in `bytes` (one UDP datagram), or liblo's reason for reading none. A bundle (`#bundle`) is not
    /// read: liblo's message reader refuses it, and PauseCam's clients send plain messages.
    /// The corresponding C functions are `lo_message_deserialise`, `lo_get_path`, `lo_message_get_types`,
    /// `lo_message_get_argv` and `lo_message_free`.
    public static func decode(_ bytes: [UInt8]) -> Result<OSCMessage, OSCCodecError> {
        guard !bytes.isEmpty else { return .failure(OSCCodecError(code: LO_ESIZE, call: "lo_message_deserialise")) }
        // liblo's reader takes a mutable pointer: it gets a copy of its own.
        var packet = bytes
        return packet.withUnsafeMutableBytes { raw -> Result<OSCMessage, OSCCodecError> in
            var result: Int32 = 0
            guard let message = lo_message_deserialise(raw.baseAddress, raw.count, &result) else {
                return .failure(OSCCodecError(code: result, call: "lo_message_deserialise"))
            }
            defer { lo_message_free(message) }
            // The address is the packet's first string, which the reader has checked ends inside the packet.
            guard let pathPointer = lo_get_path(raw.baseAddress, raw.count) else {
                return .failure(OSCCodecError(code: LO_EINVALIDPATH, call: "lo_get_path"))
            }
            let address = String(cString: pathPointer)
            let tags = lo_message_get_types(message).map { String(cString: $0) } ?? ""
            let count = Int(lo_message_get_argc(message))
            let argv = lo_message_get_argv(message)
            guard tags.unicodeScalars.count == count, count == 0 || argv != nil else {
                return .failure(OSCCodecError(code: LO_EINVALIDTYPE, call: "lo_message_get_argv"))
            }
            var arguments: [OSCArgument] = []
            for (index, tag) in tags.unicodeScalars.enumerated() {
                arguments.append(value(tag: tag, argv?[index]))
            }
            return .success(OSCMessage(address, arguments))
        }
    }

    /// The bytes of `message`, ready for one datagram. Throws when liblo refuses an argument or the address.
    /// The corresponding C functions are `lo_message_new`, `lo_message_add_*`, `lo_message_length`,
    /// `lo_message_serialise` and `lo_message_free`.
    public static func encode(_ message: OSCMessage) throws(OSCCodecError) -> [UInt8] {
        guard let m = lo_message_new() else { throw OSCCodecError(code: LO_EALLOC, call: "lo_message_new") }
        defer { lo_message_free(m) }
        for argument in message.arguments {
            let status: Int32
            switch argument {
            case .int32(let v): status = lo_message_add_int32(m, v)
            case .int64(let v): status = lo_message_add_int64(m, v)
            case .float(let v): status = lo_message_add_float(m, v)
            case .double(let v): status = lo_message_add_double(m, v)
            case .string(let v): status = lo_message_add_string(m, v)
            case .symbol(let v): status = lo_message_add_symbol(m, v)
            case .character(let v): status = lo_message_add_char(m, CChar(truncatingIfNeeded: v))
            case .boolean(let v): status = v ? lo_message_add_true(m) : lo_message_add_false(m)
            case .other: throw OSCCodecError(code: LO_EBADTYPE, call: "lo_message_add")
            }
            if status != 0 { throw OSCCodecError(code: status < 0 ? LO_EALLOC : status, call: "lo_message_add") }
        }
        let size = lo_message_length(m, message.address)
        guard size > 0 else { throw OSCCodecError(code: LO_EINVALIDPATH, call: "lo_message_length") }
        var bytes = [UInt8](repeating: 0, count: size)
        var written = size
        let done = bytes.withUnsafeMutableBytes { raw in
            lo_message_serialise(m, message.address, raw.baseAddress, &written)
        }
        guard done != nil, written == size else { throw OSCCodecError(code: LO_ESIZE, call: "lo_message_serialise") }
        return bytes
    }

    /// One argument liblo has put in host byte order, by its type tag.
    /// `T` and `F` carry no bytes; every other type PauseCam reads needs its argument.
    private static func value(tag: Unicode.Scalar, _ argument: UnsafeMutablePointer<lo_arg>?) -> OSCArgument {
        if tag == "T" { return .boolean(true) }
        if tag == "F" { return .boolean(false) }
        guard let argument else { return .other(Character(tag)) }
        switch tag {
        case "i": return .int32(pausecam_lo_arg_int32(argument))
        case "h": return .int64(pausecam_lo_arg_int64(argument))
        case "f": return .float(pausecam_lo_arg_float(argument))
        case "d": return .double(pausecam_lo_arg_double(argument))
        case "s": return .string(String(cString: pausecam_lo_arg_string(argument)))
        case "S": return .symbol(String(cString: pausecam_lo_arg_string(argument)))
        case "c": return .character(pausecam_lo_arg_char(argument))
        default: return .other(Character(tag))
        }
    }
}
