/// The endings PauseCam puts after a clip's name NAME (`output.name` expanded) on the files that belong to it,
/// declared once: the writers take them from here, and the rig check adds the longest to the name to tell before
/// recording whether every file of the clip fits in a file name (`maximumNameBytes`).
///
/// The files are `NAME.mov.partial` while recording, `NAME.mov.remux` while chapters are added, `NAME.mov`,
/// `NAME.json` (written through `NAME.json.tmp`, or `.tmp-2`… when that is taken), `NAME.jpg`, and the exports
/// (`NAME.youtube.txt`…). A taken NAME becomes `NAME-2`, `NAME-3`… up to `maximumCounter`; an export whose name is
/// taken gets its own counter after that.
public enum ClipFileNames {
    /// The longest file name, in bytes: Linux's `NAME_MAX` on ext4, XFS, Btrfs and tmpfs.
    public static let maximumNameBytes = 255
    /// The longest path, in bytes, without its terminating NUL: Linux's `PATH_MAX` less one.
    public static let maximumPathBytes = 4095
    /// The highest `-N` tried for a free movie or export name before giving up.
    public static let maximumCounter = 10_000
    /// The highest `-N` tried for a free temporary sidecar name.
    public static let maximumTemporaryCounter = 100
    /// After the movie's name while it is being recorded (fragmented, survives a crash).
    public static let partialSuffix = ".partial"
    /// After the movie's name while it is remuxed with its chapters.
    public static let remuxSuffix = ".remux"
    /// The sidecar's ending, in place of the movie's.
    public static let sidecarSuffix = ".json"
    /// After the sidecar's name while its new text is written, before the rename.
    public static let temporarySuffix = ".tmp"
    /// The thumbnail's ending, in place of the movie's.
    public static let thumbnailSuffix = ".jpg"
    /// The folder of the clip's ISO movies (`NAME.iso/ROLE.mov`, `output.iso`), in place of the movie's ending.
    public static let isoSuffix = ".iso"

    /// `NAME-N` for the `attempt`-th try (1-based) at a free name: `NAME` itself first.
    public static func counted(_ name: String, attempt: Int) -> String {
        attempt <= 1 ? name : "\(name)-\(attempt)"
    }

    /// The longest ending any file of a clip in `container` can have after NAME, written out
    /// (`-10000-10000.youtube.txt`): its UTF-8 length is what a name must leave room for.
    public static func longestEnding(container: MovieSettings.Container) -> String {
        let movie = "." + container.rawValue
        let counter = "-\(maximumCounter)"
        let endings = [movie + partialSuffix, movie + remuxSuffix, movie, thumbnailSuffix,
                       sidecarSuffix + temporarySuffix + "-\(maximumTemporaryCounter)"]
            + ExportFormat.allCases.map { counter + $0.fileSuffix }
        return counter + endings.max { $0.utf8.count < $1.utf8.count }!
    }
}
