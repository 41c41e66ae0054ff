import Foundation

/// The add-only naming every file PauseCam writes follows (movies, sidecars, exports): `NAME.ext` first, then
/// `NAME-2.ext`, `NAME-3.ext`…, so nothing that exists is ever overwritten.
public enum AddOnlyName {
    /// The `attempt`-th candidate (1-based) for `stem` (a path without its ending) and `suffix` (`.edl`).
    public static func candidate(stem: String, suffix: String, attempt: Int) -> String {
        attempt <= 1 ? stem + suffix : "\(stem)-\(attempt)\(suffix)"
    }

    /// `path` split into a stem and a suffix at the first dot of its last component: `a/b.youtube.txt` →
    /// (`a/b`, `.youtube.txt`), `a/b` → (`a/b`, ``). A name starting with a dot keeps that dot in its stem.
    public static func split(_ path: String) -> (stem: String, suffix: String) {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        guard let dot = name.dropFirst().firstIndex(of: ".") else { return (path, "") }
        return (String(path[..<dot]), String(path[dot...]))
    }
}
