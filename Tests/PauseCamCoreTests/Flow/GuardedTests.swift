import Foundation
import XCTest
@testable import PauseCamCore

/// The project's lock: mutual exclusion under contention, values and errors through `withLock`, and, in the
/// ThreadSanitizer run, a build whose locks ThreadSanitizer sees (otherwise the contended test below is reported as
/// a race between two critical sections of the same lock, and the sanitized run fails).
final class GuardedTests: XCTestCase {
    private final class Counter: Sendable {
        let value = Guarded(0)
    }

    func testContendedIncrementsFromFourThreadsEndExact() {
        let counter = Counter()
        let threads = 4
        let increments = 200_000
        let done = DispatchGroup()
        for _ in 0..<threads {
            done.enter()
            Thread {
                for _ in 0..<increments { counter.value.withLock { $0 += 1 } }
                done.leave()
            }.start()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 600), .success)
        XCTAssertEqual(counter.value.withLock { $0 }, threads * increments, "no increment lost, none doubled")
    }

    func testWithLockReturnsTheBodysResultAndRethrowsItsTypedError() {
        struct Refused: Error, Equatable {}
        let names = Guarded<[String]>([])
        let count = names.withLock { names -> Int in
            names.append("wide")
            return names.count
        }
        XCTAssertEqual(count, 1)
        XCTAssertThrowsError(try names.withLock { (names) throws(Refused) -> Void in
            names.append("tele")
            throw Refused()
        }) { XCTAssertEqual($0 as? Refused, Refused()) }
        XCTAssertEqual(names.withLock { $0 }, ["wide", "tele"], "a change made before the throw stays")
    }

    func testTheThreadSanitizerRunBuildsLocksThatThreadSanitizerSees() throws {
        guard ProcessInfo.processInfo.environment["PAUSECAM_UNDER_SANITIZER"] == "thread" else {
            throw XCTSkip("only the ThreadSanitizer run needs the visible locks")
        }
        #if !PAUSECAM_TSAN_VISIBLE_LOCKS
        XCTFail("scripts/test-sanitizers builds the ThreadSanitizer run with -DPAUSECAM_TSAN_VISIBLE_LOCKS; without it every contended Guarded is reported as a race")
        #endif
    }
}
