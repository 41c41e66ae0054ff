import Foundation

/// One record of the kernel's log as `/dev/kmsg` hands it out, turned into the line `dmesg` prints for it.
///
/// A record is `PRIORITY,SEQUENCE,MICROSECONDS,FLAGS[,…];MESSAGE`, optionally followed by continuation lines that
/// start with a space (`SUBSYSTEM=usb`, `DEVICE=c189:5`): the device's properties, which `dmesg` does not print
/// either. The message keeps the kernel's escapes for unprintable bytes (`\x0a`). The line is
/// `[SECONDS.MICROSECONDS] MESSAGE`, seconds right-aligned in five columns, as util-linux's `dmesg` writes it, so
/// what `doctor` quotes is what users search for.
public enum KernelLogRecord {
    /// The `dmesg` line for `record`, or nil for text that is not a kernel log record (no `;`, or a prefix without
    /// a numeric timestamp).
    public static func line(from record: String) -> String? {
        let firstLine = record.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard let separator = firstLine.firstIndex(of: ";") else { return nil }
        let fields = firstLine[..<separator].split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count >= 4, Int(fields[0]) != nil, UInt64(fields[1]) != nil,
              let microseconds = UInt64(fields[2])
        else { return nil }
        let message = firstLine[firstLine.index(after: separator)...]
        let seconds = String(microseconds / 1_000_000)
        let fraction = String(microseconds % 1_000_000)
        let paddedSeconds = String(repeating: " ", count: max(0, 5 - seconds.count)) + seconds
        let paddedFraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        return "[\(paddedSeconds).\(paddedFraction)] \(message)"
    }
}
