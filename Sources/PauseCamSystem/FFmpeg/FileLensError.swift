/// A movie file a lens cannot replay: which file, what is wrong, what to do. Thrown when the rig is wired (a
/// missing or unreadable file stops the run before anything is recorded) and given as the reason a running file
/// lens ends (a file truncated mid-way).
public struct FileLensError: Error, CustomStringConvertible, Sendable {
    /// The file as the rig names it (resolved against the rig file's folder).
    public var path: String
    /// What is wrong, with FFmpeg's own text when FFmpeg said it.
    public var problem: String
    /// What the user can do about it.
    public var fix: String

    public var description: String { "movie file \(path): \(problem); \(fix)" }
}
