import Foundation
import PauseCamCore

/// Free space and file sizes from the file system. The corresponding C functions are `statvfs` and `stat`.
public final class FileSystemStorageProbe: StorageProbe {
    public init() {}

    public func availableBytes(at path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    public func fileSize(at path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }
}
