import Foundation

/// The rig's name and `output.name` end up in places with hard length limits: a clip's file names (255 bytes each,
/// with PauseCam's own endings added) and the control socket's path (107 bytes). A name past either limit passes
/// every other check and fails only when it is used (`record` cannot create its file; `run` and `shell` cannot
/// listen), so it is a rig error here, at the name, with the length to cut.
extension RigDecoder {
    /// Reports a rig name whose control socket path (in `surroundings.controlSocketDirectory`) is too long for a
    /// socket address. A folder too long for any name is the environment's fault, reported when the socket binds.
    mutating func checkControlSocketPath(rigName: String, at mark: SourceMark) {
        guard let directory = surroundings.controlSocketDirectory else { return }
        let path = ControlSocketLocation.socketPath(rigName: rigName, directory: directory)
        let limit = ControlSocketLocation.maximumPathBytes
        let length = path.utf8.count
        let slug = ControlSocketLocation.slug(rigName)
        let room = slug.utf8.count - (length - limit)
        guard length > limit, room > 0 else { return }
        report("the rig's control socket would be \(path), \(length) bytes, and a socket path holds at most \(limit); "
               + "shorten the name so its socket name (\"\(slug)\", letters and digits) has at most \(room) "
               + "characters, or give run/shell --socket PATH", at: mark, path: .root.child(TopKey.name))
    }

    /// Reports an `output.name` (or, with the default pattern, a rig name) that makes a clip's file names longer
    /// than a file name may be, counting the longest ending PauseCam adds (`ClipFileNames.longestEnding`) and the
    /// longest value each placeholder can take (`{script}`: the longest script name, or `shell`).
    mutating func checkClipNameLength(_ output: Rig.OutputSettings, rigName: String, scripts: [String],
                                      rigNameMark: SourceMark) {
        // Any date: {date} and {time} always have the same width.
        let date = Date(timeIntervalSince1970: 0)
        let names = ([nil] + scripts.map(Optional.some)).map {
            FileNamePattern.expand(output.namePattern, rig: rigName, date: date, script: $0,
                                   timeZone: TimeZone(identifier: "UTC")!)
        }
        let longest = names.max { $0.utf8.count < $1.utf8.count }!
        let ending = ClipFileNames.longestEnding(container: output.container)
        let length = longest.utf8.count + ending.utf8.count
        let limit = ClipFileNames.maximumNameBytes
        guard length > limit else { return }
        let what = "makes file names of up to \(length) bytes (\(longest.utf8.count) for the clip's name, and up to "
            + "\(ending.utf8.count) that PauseCam adds, as in \"\(ending)\"); a file name holds at most \(limit) bytes"
        let excess = length - limit == 1 ? "1 byte" : "\(length - limit) bytes"
        if let mark = outputNameMark {
            let placeholders = output.namePattern.contains("{") ? ", or the names its placeholders put in," : ""
            report("\"\(output.namePattern)\" \(what): make it\(placeholders) \(excess) shorter",
                   at: mark, path: .root.child(TopKey.output).child(OutputKey.name))
        } else {
            report("the rig's name, in the movie's name (\(output.namePattern)), \(what): shorten the name by "
                   + "\(excess) or set output.name", at: rigNameMark, path: .root.child(TopKey.name))
        }
    }
}
