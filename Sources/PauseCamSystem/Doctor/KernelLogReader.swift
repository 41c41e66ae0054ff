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
        while true {
            let count: Int
            do {
                count = try descriptor.read(into: buffer)
            } catch .wouldBlock {
                break
            } catch .brokenPipe {
                // Records were overwritten while reading (the ring buffer wrapped): the next read goes on from the
                // oldest one still there.
                continue
            } catch {
                if lines.isEmpty { return .notReadable("reading \(path): \(error.message)") }
                break
            }
            if count == 0 { break }
            let record = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
            if let line = KernelLogRecord.line(from: record) { lines.append(line) }
        }
        return .read(lines)
    }
}
