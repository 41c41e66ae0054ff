import Glibc

/// The calling thread's CPU time, for timing one stage alone on a machine shared with other work (see
/// `ProcessCPUTime` for the whole process).
public enum ThreadCPUTime {
    /// This thread's CPU time so far. The corresponding C function is `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`.
    public static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// The mean CPU time of this thread over `count` runs of `work` (index 0 to `count − 1`), in milliseconds.
    public static func milliseconds(perRun count: Int, _ work: (Int) throws -> Void) rethrows -> Double {
        let start = nanoseconds()
        for index in 0..<count { try work(index) }
        return Double(nanoseconds() - start) / 1e6 / Double(max(1, count))
    }
}
