#if canImport(Glibc)
import Glibc
#endif

/// Whether a path can be a movie file for a `file:` lens, found with `stat` alone: a named pipe, a device or a
/// folder is refused before anything opens it, because opening a named pipe waits for a writer forever and a
/// character device such as `/dev/urandom` is read as endless noise. Only regular files (or links to them) are
/// movies.
public enum MovieFileCheck {
    /// What the path is instead of a regular file (`"is a named pipe, not a regular file"`); `nil` for a regular file,
    /// and for a path `stat` cannot see (missing, unreadable folder): opening it then names the real error.
    /// The corresponding C function is `stat`.
    public static func problem(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return RigFileReader.nonRegularKind(info.st_mode).map { "is \($0), not a regular file" }
    }

    /// What a rig check says about the path: `problem(at:)`, and also a path that does not exist (`ENOENT`, or a
    /// part of it that is not a folder), so `check` finds a missing movie before a run opens it. Any other reason
    /// `stat` fails (a folder that cannot be searched) is left to the lens, whose error names it.
    /// The corresponding C function is `stat`.
    public static func problemBeforeRun(at path: String) -> String? {
        var info = stat()
        if stat(path, &info) != 0 {
            let failure = errno
            return failure == ENOENT || failure == ENOTDIR ? "does not exist" : nil
        }
        return problem(at: path)
    }
}
