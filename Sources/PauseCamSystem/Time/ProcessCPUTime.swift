import Glibc

/// CPU time used so far, for benchmarks that set a figure's cost against a machine shared with other work: unlike
/// wall time, it hardly counts what else runs.
public enum ProcessCPUTime {
    /// User plus system CPU seconds of every thread of this process (`RUSAGE_SELF`) or of its waited-for children
    /// (`RUSAGE_CHILDREN`). The corresponding C function is `getrusage`.
    public static func seconds(children: Bool = false) -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t((children ? RUSAGE_CHILDREN : RUSAGE_SELF).rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
