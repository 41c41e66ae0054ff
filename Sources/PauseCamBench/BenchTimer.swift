import Foundation
import PauseCamSystem

/// Wall seconds that `work` took (monotonic clock).
func seconds(_ work: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}
