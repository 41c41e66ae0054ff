import Foundation

/// The movie a sidecar names, as a plain file name beside the sidecar: what `pausecam export` links and names its
/// files after.
///
/// A sidecar is a text file anyone can edit or receive, so its `movie` is read as a name, never as a path: only
/// its last component counts, without leading dots, so an export can neither leave the sidecar's folder
/// (`../../x.mov`) nor become a hidden file. A sidecar that names no usable movie lends its own name instead:
/// PauseCam writes `NAME.mov` beside `NAME.json`.
public enum SidecarMovieName {
    /// The movie's file name for a sidecar called `sidecarFileName` (`clip.json`) whose `movie` field is `movie`:
    /// `../../../x.mov` → `x.mov`, `.hidden.mov` → `hidden.mov`, `""` or `..` → `clip.mov`. Never empty, never
    /// holding `/` or NUL, never starting with a dot.
    public static func beside(sidecarFileName: String, movie: String) -> String {
        if let name = plainName(movie) { return name }
        let stem = plainName(sidecarFileName).map { ($0 as NSString).deletingPathExtension } ?? ""
        return (stem.isEmpty ? "clip" : stem) + ".mov"
    }

    /// `text`'s last `/`-separated component without its leading dots; `nil` when nothing is left or it holds NUL.
    static func plainName(_ text: String) -> String? {
        let last = text.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        let name = last.drop { $0 == "." }
        guard !name.isEmpty, !name.contains("\0") else { return nil }
        return String(name)
    }
}
