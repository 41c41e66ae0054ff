import Foundation
import XCTest
@testable import PauseCamCore

/// Waiting for the finisher before the process ends covers all of its worker's work, not only the movies: the
/// scene-boundary sidecar writes and the removal of a sidecar of nothing run there too.
final class ClipFinisherIdleTests: XCTestCase {
    func testWaitingUntilIdleWaitsForWorkSubmittedBesideTheMovies() {
        let worker = SerialQueueWorker(label: "finisher-idle-test")
        let finisher = ClipFinisher(worker: worker)
        let done = Guarded(false)
        // A sidecar write on a slow disk, and no movie handed over.
        worker.submit {
            Thread.sleep(forTimeInterval: 0.3)
            done.withLock { $0 = true }
        }
        finisher.waitUntilIdle()
        XCTAssertTrue(done.withLock { $0 }, "waitUntilIdle returned while the worker still had work")
    }
}
