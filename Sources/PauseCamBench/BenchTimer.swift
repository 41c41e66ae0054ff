import Foundation

/// Wall seconds that `work` took (monotonic clock).
func seconds(_ work: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// CPU seconds (user + system) used so far by this process's threads (`RUSAGE_SELF`) or by its waited-for children
/// (`RUSAGE_CHILDREN`). On a shared machine CPU time is the steadier figure: wall time also counts what others ran.
func cpuSeconds(children: Bool = false) -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t((children ? RUSAGE_CHILDREN : RUSAGE_SELF).rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
