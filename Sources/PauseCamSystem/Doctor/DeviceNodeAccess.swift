#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PauseCamCore

/// The camera and sound device nodes, with their group, mode and whether this process may open them for reading
/// and writing (`access` counts the mode, the groups, ACLs such as logind's `uaccess`, and root).
enum DeviceNodeAccess {
    /// `/dev/video*`, by number.
    static func videoNodes(in folder: String = "/dev") -> [DoctorFacts.DeviceNode] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
        return names.compactMap { node(at: folder + "/" + $0) }
    }

    /// `/dev/snd/*` (control, PCM, timer and sequencer nodes), by name; empty when the folder is missing.
    static func soundNodes(in folder: String = "/dev/snd") -> [DoctorFacts.DeviceNode] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            .compactMap { node(at: folder + "/" + $0) }
    }

    /// One character device's facts; `nil` for anything else (a `by-id` folder). The corresponding C functions
    /// are `stat` and `access`.
    static func node(at path: String) -> DoctorFacts.DeviceNode? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { return nil }
        return DoctorFacts.DeviceNode(path: path, group: UserAccounts.groupName(info.st_gid),
                                      mode: UInt32(info.st_mode & 0o7777),
                                      accessible: access(path, R_OK | W_OK) == 0)
    }
}
