import Foundation
import PauseCamSystem

/// Wall seconds that `work` took (monotonic clock).
func seconds(_ work: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// CPU seconds (user + system) used so far by this process's threads (`RUSAGE_SELF`) or by its waited-for children
/// (`RUSAGE_CHILDREN`). On a shared machine CPU time is the steadier figure: wall time also counts what others ran.
func cpuSeconds(children: Bool = false) -> Double {
    ProcessCPUTime.seconds(children: children)
}
