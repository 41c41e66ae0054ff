/// Path maths on a path as text, by splitting at `/`: the folder a path names its file in, and its last component.
///
/// Why not `NSString`'s path methods: swift-corelibs-foundation's `deletingLastPathComponent` traps (SIGILL in
/// `String._startOfLastPathComponent`) on a relative path of one one-character component (`o`, `o/`, and so the
/// walk up from `a/b`), and these paths come from the user (`--output`, a rig's folders, the environment). Plain
/// splitting cannot trap; the results are the ones `NSString` gives wherever it does not trap.
public enum PathText {
    /// The folder part of `path`: everything before its last component, without trailing slashes. `""` for a
    /// relative path of one component (the current folder), `"/"` for a component of the root and for the root.
    public static func folder(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let folder = withoutTrailingSlashes(String(trimmed[..<slash]))
        return folder.isEmpty ? "/" : folder
    }

    /// The last component of `path`, trailing slashes ignored: `"b"` for `a/b/`, `"/"` for the root, `""` for `""`.
    public static func lastComponent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        let component = String(trimmed[trimmed.index(after: slash)...])
        return component.isEmpty ? "/" : component
    }

    /// `path` without the slashes at its end, except the root's one.
    private static func withoutTrailingSlashes(_ path: String) -> String {
        var end = path.endIndex
        while end > path.startIndex, path[path.index(before: end)] == "/" { end = path.index(before: end) }
        if end == path.startIndex && !path.isEmpty { return "/" }
        return String(path[..<end])
    }
}
