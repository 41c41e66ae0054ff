/// What serves a lens: exactly one of `match` (a real camera), `virtual` (the test pattern) or `file` (a movie
/// replayed as a camera, with an optional `loop`).
extension RigDecoder {
    /// The keys that each name a lens's source, in the order messages list them.
    static let lensSourceKeys: [LensKey] = [.match, .virtual, .file]

    /// The keys of a virtual lens's `virtual:`.
    enum VirtualKey: String, RigKey {
        case color
    }

    /// The source of the lens whose fields are `f`, or `nil` after reporting why there is none.
    mutating func lensSource(_ f: Fields<LensKey>, _ node: YAMLNode, _ path: KeyPath) -> Rig.Lens.Source? {
        let given = Self.lensSourceKeys.compactMap { key in f.keyNode(key).map { (key: key, node: $0) } }
            .sorted { $0.node.mark < $1.node.mark }
        if let loop = f.keyNode(.loop), f[.file] == nil {
            report("\"loop\" applies to a movie file lens (file: PATH) only", at: loop.mark, path: path)
        }
        guard let first = given.first else {
            report("needs \"match\" (which camera), \"virtual\" (a test pattern) or \"file\" (a movie to replay)",
                   at: node.mark, path: path)
            return nil
        }
        if given.count > 1 {
            let second = given[1]
            report("has both \"\(first.key.rawValue)\" and \"\(second.key.rawValue)\"; a lens is one of a camera, "
                   + "a virtual lens or a movie file", at: second.node.mark, path: path)
            return nil
        }
        switch first.key {
        case .match:
            return matchRule(f[.match]!, path.child(LensKey.match)).map { .camera($0) }
        case .virtual:
            let vp = path.child(LensKey.virtual)
            guard let vf = fields(f[.virtual]!, vp, VirtualKey.self, required: [.color]), let c = vf[.color] else {
                return nil
            }
            if c.isNull {
                // `color: #20c040` unquoted: YAML reads everything from the # on as a comment.
                report("no colour given; write \"#rrggbb\" such as \"#20c040\" " + RigValueParser.commentHint,
                       at: c.mark, path: vp.child(VirtualKey.color))
                return nil
            }
            return value(c, vp.child(VirtualKey.color), RigValueParser.color).map { .virtual(color: $0) }
        default:
            guard let fileNode = f[.file], let written = text(fileNode, path.child(LensKey.file)) else { return nil }
            var loop = false
            if let l = f[.loop] {
                guard let value = bool(l, path.child(LensKey.loop)) else { return nil }
                loop = value
            }
            let resolved = Self.resolve(moviePath: written, rigFile: fileNode.mark.file)
            if let problem = surroundings.movieFileProblem(resolved) {
                report("\(resolved) \(problem); a file lens replays a movie file: give the path of one",
                       at: fileNode.mark, path: path.child(LensKey.file))
                return nil
            }
            return .file(path: resolved, loop: loop)
        }
    }

    /// Keys that set up a camera's capture and mean nothing to a movie file, which plays at its own size, rate
    /// and format: reported rather than silently ignored, so nobody rehearses believing they took effect.
    static let cameraOnlyKeys: [LensKey] = [.format, .size, .fps, .controls, .usbPort, .opticalMax]

    /// Reports each camera-only key a `file:` lens has.
    mutating func reportCameraOnlyKeys(_ f: Fields<LensKey>, _ path: KeyPath) {
        for key in Self.cameraOnlyKeys {
            guard let keyNode = f.keyNode(key) else { continue }
            report("\"\(key.rawValue)\" does not apply to a movie file lens (it plays at the file's own size and rate)",
                   at: keyNode.mark, path: path)
        }
    }

    /// A movie path as the lens will open it: absolute and `~/` paths as written (the composition root expands
    /// `~`); any other path is relative to the folder of the rig file that names it, so a rig and its footage can
    /// move together. Pure text: Core opens no file (`rigs/desk.yaml` + `clips/a.mov` → `rigs/clips/a.mov`).
    static func resolve(moviePath: String, rigFile: String) -> String {
        if moviePath.hasPrefix("/") || moviePath == "~" || moviePath.hasPrefix("~/") { return moviePath }
        guard let slash = rigFile.lastIndex(of: "/") else { return moviePath }
        return String(rigFile[...slash]) + moviePath
    }
}
