/// Something in a rig file that does not stop the rig from loading but will not do what it says: printed by
/// `check` as `FILE:LINE:COLUMN: warning: message` (exit status 0 when there are only warnings), and again at the
/// start of `run` and `shell`, so the user hears about it before a take, not after.
public struct RigWarning: Sendable, Equatable, CustomStringConvertible {
    /// What kind of trouble, so a command can treat one kind more strictly than `check` does.
    public enum Kind: Sendable, Equatable {
        /// An `exposure` or `focus` step runs while the active lens has no such control (a virtual or movie-file
        /// lens): the step changes nothing, and the run notes that in the clip's sidecar.
        case controlWithoutCamera
        /// The rig's output folder cannot be used on this machine now; `problem` says why (it is a file, sits under
        /// a file, cannot be created or written). `run` and `shell` refuse the rig for it unless `--output` names
        /// another folder; `check` only warns, since the folder may be a disk that is mounted later.
        case outputFolder(problem: String)
        /// A lens recorded as an ISO (`output.iso`) runs at a rate that is not a whole multiple of the movie's: a
        /// pause or cut that falls inside one of its frames shortens that frame, so its ISO is not constant-rate.
        case isoRateNotAMultiple
        /// A `live.stream` URL holds a secret (a stream key, a passphrase, a password) and the rig file can be read
        /// by other users of the machine.
        case liveKeyReadable
    }

    public var kind: Kind
    /// Where the trouble is written.
    public var mark: SourceMark
    /// What will not happen, and what to do about it.
    public var message: String

    public init(_ kind: Kind, _ message: String, at mark: SourceMark) {
        self.kind = kind
        self.message = message
        self.mark = mark
    }

    /// `FILE:LINE:COLUMN: warning: message`, the form editors and compilers use.
    public var description: String { "\(mark): warning: \(message)" }
}
