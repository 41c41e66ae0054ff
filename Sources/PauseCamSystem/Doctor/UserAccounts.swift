#if canImport(Glibc)
import Glibc
#endif
import PauseCamCore

/// Who this process runs as, and its groups by name: the ones it has now and the ones the user database gives the
/// user (a group added since this login began is in the second list only). One wrapper per C call.
enum UserAccounts {
    /// This process's user and groups, for `pausecam doctor`.
    static func current() -> DoctorFacts.User {
        let uid = getuid()
        let name = userName(uid) ?? "uid \(uid)"
        let now = processGroups().compactMap(groupName)
        let configured = userName(uid).map { configuredGroups(of: $0, primary: getgid()) }?.compactMap(groupName) ?? now
        return DoctorFacts.User(name: name, uid: uid, groups: unique(now), configuredGroups: unique(configured))
    }

    /// The name of a user ID. The corresponding C function is `getpwuid_r`.
    static func userName(_ uid: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return String(cString: entry.pw_name)
    }

    /// The name of a group ID (`nil` for a group without one). The corresponding C function is `getgrgid_r`.
    static func groupName(_ gid: gid_t) -> String? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16384)
        guard getgrgid_r(gid, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return String(cString: entry.gr_name)
    }

    /// The process's primary and supplementary groups. The corresponding C function is `getgroups`.
    static func processGroups() -> [gid_t] {
        let count = getgroups(0, nil)
        guard count > 0 else { return [getegid()] }
        var groups = [gid_t](repeating: 0, count: Int(count))
        let filled = getgroups(count, &groups)
        return [getegid()] + groups.prefix(max(0, Int(filled)))
    }

    /// The groups the user database gives `user`. The corresponding C function is `getgrouplist`.
    static func configuredGroups(of user: String, primary: gid_t) -> [gid_t] {
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(user, primary, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(user, primary, &groups, &count) >= 0 else { return [primary] }
        }
        return Array(groups.prefix(Int(count)))
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }
}
