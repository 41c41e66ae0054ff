import Foundation

/// The part of a file a `Range` header asks for (RFC 9110 §14): one range of bytes, or the whole file. Pure, so
/// the edge cases are a table; the server turns the outcome into 200, 206 or 416.
///
/// Only a single `bytes=` range is served: `FIRST-LAST`, `FIRST-` (to the end) and `-COUNT` (the last COUNT
/// bytes). A header in another unit, with several ranges, or that does not parse is ignored, as the RFC allows,
/// and the whole file is sent.
public enum MonitorByteRange: Sendable, Equatable {
    /// No usable range: send the whole file with 200.
    case whole
    /// Send `length` bytes from `offset` with 206 and `Content-Range: bytes offset-(offset+length-1)/size`.
    case part(offset: UInt64, length: UInt64)
    /// The range starts at or past the end (or asks for none of a non-empty file): 416 with
    /// `Content-Range: bytes */size`.
    case unsatisfiable

    /// What `header` (the `Range` value, `nil` when absent) asks of a file of `size` bytes.
    public static func resolve(_ header: String?, size: UInt64) -> MonitorByteRange {
        guard let header else { return .whole }
        let text = header.trimmingCharacters(in: .whitespaces)
        // The unit is case-insensitive; the grammar has no space around "=".
        guard text.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = text.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let firstText = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let lastText = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        let digits = { (text: String) in !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
        if firstText.isEmpty {
            guard digits(lastText) else { return .whole }
            // A suffix longer than any file still means "all of it"; too many digits for UInt64 is the same.
            let count = UInt64(lastText) ?? UInt64.max
            guard count > 0, size > 0 else { return .unsatisfiable }
            let length = min(count, size)
            return .part(offset: size - length, length: length)
        }
        guard digits(firstText) else { return .whole }
        guard let first = UInt64(firstText), first < size else { return .unsatisfiable }
        var last = size - 1
        if !lastText.isEmpty {
            guard digits(lastText) else { return .whole }
            let asked = UInt64(lastText) ?? UInt64.max
            guard asked >= first else { return .whole }
            last = min(asked, size - 1)
        }
        return .part(offset: first, length: last - first + 1)
    }
}
