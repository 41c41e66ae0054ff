import Foundation
import PauseCamCore
#if canImport(Glibc)
import Glibc
#endif

/// Writes text to standard output or standard error in a way that can never end the process: a clip must not be
/// lost because the terminal, or the program reading a pipe (`pausecam run … | head -1`), went away.
///
/// Foundation's `FileHandle.write(_:)` traps on any error (EPIPE included), and a write to a pipe nobody reads
/// raises SIGPIPE (the composition root ignores it: `BrokenPipe.ignore()`). This type uses `write(2)` directly:
/// EINTR is retried, a partial write continues where it stopped, and once the stream is gone for good (EPIPE:
/// the reader closed the pipe; EBADF: the descriptor was closed) it stops writing that stream, quietly, for the
/// rest of the run. Any other error (EIO, ENOSPC) drops the one message and keeps the stream for the next.
///
/// Thread-safe: each `write` is whole (its bytes are not interleaved with another thread's `write` to the same
/// writer), so lines from the engine's threads stay lines.
public final class StandardStreamWriter: Sendable {
    /// Standard output (descriptor 1): results, and a piped shell's transcript.
    public static let output = StandardStreamWriter(descriptor: 1)
    /// Standard error (descriptor 2): events, warnings, fatal errors.
    public static let error = StandardStreamWriter(descriptor: 2)

    /// The descriptor written to; the writer does not own it and never closes it.
    public let descriptor: Int32
    /// The same descriptor, borrowed, for the one `write` wrapper.
    private let stream: FileDescriptor
    /// The errno that ended the stream; held for the whole of each `write`, which is what keeps writes whole.
    private let gone = Guarded<Errno?>(nil)

    /// A writer for `descriptor`; use `output` and `error` for the standard streams, so that every writer of a
    /// stream shares one lock and one "gone" state.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        stream = FileDescriptor(borrowing: descriptor)
    }

    /// The errno that ended this stream (EPIPE, EBADF), or nil while it is still written to.
    public var goneReason: Errno? { gone.withLock { $0 } }

    /// Writes the UTF-8 bytes of `text`; never throws, never raises a signal, never traps.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    /// Writes `bytes` in full (or until the stream is found gone). The corresponding C function is `write`.
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        gone.withLock { gone in
            guard gone == nil, let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let rest = UnsafeRawBufferPointer(start: base + offset, count: bytes.count - offset)
                let result: Result<Int, Errno>
                do throws(Errno) { result = .success(try stream.write(rest)) } catch { result = .failure(error) }
                switch result {
                case .success(let written) where written > 0:
                    offset += written
                case .success:
                    return
                case .failure(.wouldBlock):
                    // A descriptor someone else made non-blocking (a shared terminal): wait until it takes more.
                    Self.waitUntilWritable(descriptor)
                case .failure(let error) where error == .brokenPipe || error == .badFileDescriptor:
                    gone = error
                    return
                case .failure:
                    return
                }
            }
        }
    }

    /// Blocks until `descriptor` accepts more bytes (or reports an error, which the next `write` then sees).
    /// The corresponding C function is `poll`.
    private static func waitUntilWritable(_ descriptor: Int32) {
        _ = Poll.wait([descriptor], for: Int16(POLLOUT), timeout: -1)
    }

    /// Opens `/dev/null` on any of descriptors 0, 1 and 2 that is closed (`pausecam … >&-`), before anything else
    /// opens a file. Otherwise the next `open` — the movie's `.partial`, a sidecar — would be given descriptor 1 or
    /// 2, and the console's lines would be written into the movie. Call it first thing in `main`. The
    /// corresponding C functions are `fcntl(F_GETFD)` and `open`.
    public static func fillClosedStandardDescriptors() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) < 0 && Errno.current == .badFileDescriptor {
            // `open` returns the lowest free descriptor: this one, as the lower ones are open by now.
            let opened = open("/dev/null", O_RDWR)
            if opened >= 0 && opened != descriptor { close(opened) }
        }
    }
}
