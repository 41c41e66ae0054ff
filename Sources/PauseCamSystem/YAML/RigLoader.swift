import Foundation
import PauseCamCore

/// Loads a rig file for `check`, `run` and `shell`: read the file, parse it with libyaml, decode and validate it.
/// Any problem is a `RigError` listing every diagnostic; a caller that gets one must not open a device or a file.
public enum RigLoader {
    /// The rig at `path` (as typed; it is also the file name in every diagnostic).
    public static func load(path: String) throws(RigError) -> Rig {
        try RigDecoder.decode(YAMLParser.parse(bytes: read(path), file: path))
    }

    /// The rig in these bytes (UTF-8 text); `file` names it in diagnostics.
    public static func load(bytes: [UInt8], file: String) throws(RigError) -> Rig {
        try RigDecoder.decode(YAMLParser.parse(bytes: bytes, file: file))
    }

    /// The rig written in `text`; `file` names it in diagnostics.
    public static func load(text: String, file: String) throws(RigError) -> Rig {
        try RigDecoder.decode(YAMLParser.parse(text, file: file))
    }

    /// The file's bytes; a missing or unreadable file is a rig error at line 0 (printed `FILE: message`).
    public static func read(_ path: String) throws(RigError) -> [UInt8] {
        let noPosition = SourceMark(file: path, line: 0, column: 0)
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            throw RigError("cannot read the rig file: \(reason)", at: noPosition)
        }
        return [UInt8](data)
    }
}
