import CQRencode
import Foundation

/// A QR code made by libqrencode: its square of modules (`true` is dark), without the quiet zone. The monitor
/// prints its address as one so a phone can open it with its camera.
public struct QRCode: Sendable, Equatable {
    /// Modules per side: 17 + 4 × version.
    public let size: Int
    /// The symbol version (1…40) libqrencode chose: the smallest that holds the text.
    public let version: Int
    /// Row by row, `size × size` modules; `true` is a dark module.
    public let modules: [Bool]

    /// Why a text could not be encoded.
    public struct EncodingError: Error, CustomStringConvertible, Equatable {
        public let failure: Errno
        public let length: Int
        public var description: String {
            failure.rawValue == ERANGE
                ? "a QR code cannot hold \(length) bytes; the longest at error correction M is 2331"
                : "libqrencode could not encode \(length) bytes: \(failure.message) (\(failure.name))"
        }
    }

    /// Encodes `text` byte for byte (8-bit mode, so letter case is kept) at error correction level M (15 % of the
    /// code may be damaged or hidden and it still reads). The corresponding C function is
    /// `QRcode_encodeString8bit`.
    public static func encode(_ text: String) throws(EncodingError) -> QRCode {
        errno = 0
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else {
            throw EncodingError(failure: Errno(rawValue: errno == 0 ? EINVAL : errno), length: text.utf8.count)
        }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        // libqrencode's bytes: bit 0 is the module's colour (1 dark); the other bits say what the module is for.
        let modules = (0..<(size * size)).map { code.pointee.data[$0] & 1 == 1 }
        return QRCode(size: size, version: Int(code.pointee.version), modules: modules)
    }

    /// Whether the module at `row`, `column` is dark; modules outside the square (the quiet zone) are light.
    public func isDark(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }
}
