/// What decoding a rig asks of the machine it will run on. Core opens no file and knows no user, so the
/// composition root answers: whether the movie a `file:` lens names can be replayed at all, and the folder the
/// rig's control socket goes in. `check`, `run` and `shell` ask the same questions, so a rig that `check` passes
/// does not fail later on them; `RigSurroundings.unasked` asks nothing (unit tests, `ctl` reading a rig's name).
public struct RigSurroundings: Sendable {
    /// Why the movie at this path (as `RigDecoder.resolve(moviePath:rigFile:)` made it) cannot be a lens — it does
    /// not exist, or is a named pipe, a device, a folder: what it is instead — or `nil` when it is a regular file.
    /// Asked too of the files a `group:` reads (`password_file`, the TLS files), as written in the rig.
    /// `check` thus finds what a run would fail on, with the rig file's position. The answer must come without
    /// opening the path: opening a named pipe waits for a writer forever.
    public var movieFileProblem: @Sendable (String) -> String?
    /// The folder the rig's control socket goes in (`ControlSocketLocation.directory`), or `nil` when the socket is
    /// placed elsewhere (`--socket PATH`) and the rig's name does not make its path.
    public var controlSocketDirectory: String?
    /// Why the output folder as written in the rig (`output.directory`, before `~` expansion) cannot take movies
    /// on this machine now — it is a file, sits under a file, cannot be created or written — or `nil` when it can
    /// (or the question does not apply: `--output` replaces it). Answered without creating anything.
    public var outputFolderProblem: @Sendable (String) -> String?
    /// This machine's hostname: a `group:` member's name when the rig writes no `group.host`. `nil`: not asked.
    public var hostName: String?
    /// Whether the rig file at this path (as its marks name it) can be read by users other than its owner: a rig
    /// that holds a stream key then gets a warning. `false` when not asked.
    public var readableByOthers: @Sendable (String) -> Bool = { _ in false }

    public init(movieFileProblem: @escaping @Sendable (String) -> String?, controlSocketDirectory: String?,
                outputFolderProblem: @escaping @Sendable (String) -> String? = { _ in nil }, hostName: String? = nil) {
        self.movieFileProblem = movieFileProblem
        self.controlSocketDirectory = controlSocketDirectory
        self.outputFolderProblem = outputFolderProblem
        self.hostName = hostName
    }

    /// Asks nothing: every movie path is taken as it is written, and no socket path is checked.
    public static let unasked = RigSurroundings(movieFileProblem: { _ in nil }, controlSocketDirectory: nil)
}
