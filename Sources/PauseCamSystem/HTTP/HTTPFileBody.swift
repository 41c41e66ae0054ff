#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PauseCamCore

/// A file opened for a response body: the descriptor and the size it had when opened. The body owns the
/// descriptor until the server takes it (`take()`) for libmicrohttpd, which closes it after sending; a body that
/// is never sent closes it when released.
///
/// Only the exact path given is opened, read-only, never through a symbolic link at its last component, and only
/// when it is a regular file: a response never follows a link to somewhere else.
public final class HTTPFileBody: Sendable {
    /// The file's size in bytes when it was opened.
    public let size: UInt64
    /// The descriptor until it is handed over (once) to libmicrohttpd.
    private let descriptor: Guarded<Int32?>

    private init(descriptor: Int32, size: UInt64) {
        self.descriptor = Guarded(descriptor)
        self.size = size
    }

    deinit {
        if let descriptor = descriptor.withLock({ $0 }) { close(descriptor) }
    }

    /// Opens `path` for reading; `nil` when it is missing, unreadable, a link, or not a regular file. The
    /// corresponding C functions are `open` (with `O_NOFOLLOW`) and `fstat`.
    public static func open(_ path: String) -> HTTPFileBody? {
        var descriptor: Int32
        repeat { descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { return nil }
        var facts = stat()
        guard fstat(descriptor, &facts) == 0, (facts.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return nil
        }
        return HTTPFileBody(descriptor: descriptor, size: UInt64(facts.st_size))
    }

    /// Hands the descriptor over (once): the caller closes it from now on.
    func take() -> Int32? {
        descriptor.withLock { descriptor in
            defer { descriptor = nil }
            return descriptor
        }
    }
}
