import PauseCamCore

/// Loads a rig file for `check`, `run` and `shell`: read the file, parse it with libyaml, decode and validate it.
/// Any problem is a `RigError` listing every diagnostic; a caller that gets one must not open a device or a file.
public enum RigLoader {
    /// The rig at `path` (as typed; it is also the file name in every diagnostic). `surroundings` answers what
    /// the decoder asks of the machine (`RigSurroundings`); `check`, `run` and `shell` pass the machine's answers.
    public static func load(path: String, surroundings: RigSurroundings = .unasked) throws(RigError) -> Rig {
        try RigDecoder.decode(YAMLParser.parse(bytes: read(path), file: path), surroundings: surroundings)
    }

    /// The rig in these bytes (UTF-8 text); `file` names it in diagnostics.
    public static func load(bytes: [UInt8], file: String) throws(RigError) -> Rig {
        try RigDecoder.decode(YAMLParser.parse(bytes: bytes, file: file))
    }

    /// The rig written in `text`; `file` names it in diagnostics.
    public static func load(text: String, file: String) throws(RigError) -> Rig {
        try RigDecoder.decode(YAMLParser.parse(text, file: file))
    }

    /// The file's bytes. A path that is not a readable regular file of at most `YAMLParser.maximumBytes` is a rig
    /// error at line 0 (printed `FILE: message`) saying what it is instead: missing, a folder, a device, too large.
    public static func read(_ path: String) throws(RigError) -> [UInt8] {
        try RigFileReader.read(path, limit: YAMLParser.maximumBytes)
    }
}
