import Foundation
import PauseCamCore
#if canImport(Glibc)
import Glibc
#endif

/// The kernel log, read from `/dev/kmsg` the way `dmesg` reads it and printed as `dmesg` prints it
/// (`KernelLogRecord`), or why it cannot be read (`kernel.dmesg_restrict` keeps it from users without
/// `CAP_SYSLOG`; a container may have no `/dev/kmsg`).
///
/// Read directly rather than by running `dmesg`: no child process (on a small system Foundation's `Process` has been
/// seen to hang in `waitUntilExit`), no dependence on which `dmesg` is installed (BusyBox's knows none of
/// util-linux's options), and the same lines either way.
enum KernelLogReader {
    /// The device that hands out one log record per `read`.
    static let devicePath = "/dev/kmsg"

    /// The most bytes one look reads: the kernel's ring buffer (`log_buf_len`) holds a few MiB at most, so a
    /// device that hands out more is flooded or not the kernel's log, and the look ends with what it has.
    static let byteLimit = 32 * 1024 * 1024

    /// How many reads in a row may be something other than a record (skipped) before the look ends: the kernel
    /// hands out nothing else, so that many is a device that is not its log.
    static let skippedLimit = 1_000

    /// Reads every record the log holds now, and stops at its end, at `byteLimit`, at a read longer than any record,
    /// or after `skippedLimit` reads in a row that are not records: a device that is not the kernel's log, such as
    /// `/dev/zero` or `/dev/urandom` in its place, hands out bytes forever, and without these stops the look would
    /// never end. With no record read, such a device is not readable, and says what it handed out.
    static func read(from path: String = devicePath) -> DoctorFacts.Reading<[String]> {
        let descriptor: FileDescriptor
        do {
            // Non-blocking: at the end of the log a read says EAGAIN instead of waiting for the next message.
            descriptor = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        } catch .permissionDenied, .notPermitted {
            return .notReadable("\(path): permission denied (kernel.dmesg_restrict keeps the kernel log from users "
                                + "without CAP_SYSLOG)")
        } catch .noSuchFileOrDirectory {
            return .notReadable("\(path) does not exist (a container without the kernel's log device?)")
        } catch {
            return .notReadable("\(path): \(error.message)")
        }
        // One record per read; the kernel refuses (EINVAL) a buffer smaller than the record, and records are at
        // most about 1 KiB of text plus their properties.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 1)
        defer { buffer.deallocate() }
        var lines: [String] = []
        var total = 0
        var skipped = 0
        while total < byteLimit {
            let count: Int
            do {
                count = try descriptor.read(into: buffer)
            } catch .wouldBlock {
                break
            } catch .brokenPipe {
                // Records were overwritten while reading (the ring buffer wrapped): the next read goes on from the
                // oldest one still there. Counted with the skipped reads, so a device that says this forever ends.
                skipped += 1
                if skipped < skippedLimit { continue }
                break
            } catch {
                if lines.isEmpty { return .notReadable("reading \(path): \(error.message)") }
                break
            }
            if count == 0 { break }
            total += count
            let record = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
            // A read that fills the buffer is longer than any record: this is not the kernel's log.
            guard count < buffer.count else {
                if lines.isEmpty { return .notReadable(notALog(path, "\(count) bytes in one read, more than any record")) }
                break
            }
            guard let line = KernelLogRecord.line(from: record) else {
                skipped += 1
                if skipped < skippedLimit { continue }
                if lines.isEmpty { return .notReadable(notALog(path, "\(skipped) reads in a row that are not records")) }
                break
            }
            skipped = 0
            lines.append(line)
        }
        return .read(lines)
    }

    private static func notALog(_ path: String, _ what: String) -> String {
        "\(path) does not read as the kernel's log (it handed out \(what))"
    }
}
