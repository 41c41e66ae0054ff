import XCTest
@testable import PauseCamCore

/// The box for state confined to the serial context: usable from the context's work items whatever its value, and
/// every access off the context reported (through a context that records instead of trapping, so the test runner
/// survives the check).
final class SerialContextBoundTests: XCTestCase {
    /// Not `Sendable`: what the box lets cross a `@Sendable` closure.
    private final class Tally {
        var items: [String] = []
    }

    func testWorkItemsOnTheContextShareTheBoxedValue() {
        let serialContext = SerialContextTests.StrictSerialContext()
        let tally = SerialContextBound(Tally(), serialContext: serialContext)
        let start = serialContext.clock.now()
        for (name, offset) in [("b", 20), ("a", 10), ("c", 30)] as [(String, Int64)] {
            serialContext.schedule(at: start + .milliseconds(offset)) { tally.value.items.append(name) }
        }
        _ = serialContext.advance(until: start + .seconds(1))
        let items = serialContext.perform { tally.value.items }
        XCTAssertEqual(items, ["a", "b", "c"])
        XCTAssertEqual(serialContext.violations, [])
    }

    func testWithValueChangesInPlaceOnTheContext() {
        let serialContext = SerialContextTests.StrictSerialContext()
        let count = SerialContextBound(0, serialContext: serialContext)
        let result = serialContext.perform {
            count.withValue { value -> Int in
                value += 2
                value *= 10
                return value
            }
        }
        XCTAssertEqual(result, 20)
        XCTAssertEqual(serialContext.perform { count.value }, 20)
        XCTAssertEqual(serialContext.violations, [])
    }

    func testReadsAndWritesOffTheContextAreReported() {
        let serialContext = SerialContextTests.StrictSerialContext()
        let count = SerialContextBound(1, serialContext: serialContext)
        _ = count.value
        count.value = 2
        count.withValue { $0 += 1 }
        XCTAssertEqual(serialContext.violations, ["SerialContextBound.value", "SerialContextBound.value",
                                                  "testReadsAndWritesOffTheContextAreReported()"])
    }

    func testAValueOfTheContextIsBoxedOnTheContextOnly() {
        let serialContext = SerialContextTests.StrictSerialContext()
        let tally = Tally()
        let boxed = serialContext.perform { SerialContextBound(confined: tally, serialContext: serialContext) }
        serialContext.schedule(at: serialContext.clock.now()) { boxed.value.items.append("on the context") }
        _ = serialContext.advance(until: serialContext.clock.now() + .seconds(1))
        XCTAssertEqual(serialContext.perform { tally.items }, ["on the context"], "the box holds the same object")
        let hopped = SerialContextBound.confining(tally, to: serialContext)
        XCTAssertTrue(serialContext.perform { hopped.value === tally }, "boxed on the context, through perform")
        XCTAssertEqual(serialContext.violations, [])
        _ = SerialContextBound(confined: Tally(), serialContext: serialContext)
        XCTAssertEqual(serialContext.violations, ["testAValueOfTheContextIsBoxedOnTheContextOnly()"])
    }

    func testAWeakReferenceSeesTheObjectUntilItIsGone() {
        let serialContext = SerialContextTests.StrictSerialContext()
        var tally: Tally? = Tally()
        let reference = serialContext.perform { WeakSerialContextBound(tally!, serialContext: serialContext) }
        let start = serialContext.clock.now()
        let seen = SerialContextBound([Bool](), serialContext: serialContext)
        serialContext.schedule(at: start + .milliseconds(10)) {
            reference.object?.items.append("alive")
            seen.value.append(reference.object != nil)
        }
        serialContext.schedule(at: start + .milliseconds(20)) { seen.value.append(reference.object != nil) }
        _ = serialContext.advance(until: start + .milliseconds(15))
        XCTAssertEqual(serialContext.perform { tally?.items }, ["alive"])
        serialContext.perform { tally = nil }
        _ = serialContext.advance(until: start + .seconds(1))
        XCTAssertEqual(serialContext.perform { seen.value }, [true, false], "the reference kept nothing alive")
        XCTAssertEqual(serialContext.violations, [])
    }

    func testAWeakReferenceMadeOrReadOffTheContextIsReported() {
        let serialContext = SerialContextTests.StrictSerialContext()
        let tally = Tally()
        let reference = WeakSerialContextBound(tally, serialContext: serialContext)
        _ = reference.object
        XCTAssertEqual(serialContext.violations, ["testAWeakReferenceMadeOrReadOffTheContextIsReported()",
                                                  "SerialContextBound.value"])
        withExtendedLifetime(tally) {}
    }

    /// The simulated context, whose serial context is the thread holding it, with a check that records instead of
    /// trapping.
    private final class RecordingSerialContext: SerialContext {
        let inner = SimulatedSerialContext()
        private let recorded = Guarded<[String]>([])
        var violations: [String] { recorded.withLock { $0 } }
        var clock: any Clock { inner.clock }
        var isOnSerialContext: Bool { inner.isOnSerialContext }
        func serialContextViolated(in function: StaticString, file: StaticString, line: UInt) {
            recorded.withLock { $0.append("\(function)") }
        }
        func schedule(at time: MediaTime, _ work: @escaping @Sendable () -> Void) { inner.schedule(at: time, work) }
        func perform<T>(_ work: () throws -> T) rethrows -> T { try inner.perform(work) }
        func advance(until time: MediaTime) -> Bool { inner.advance(until: time) }
        func interrupt() { inner.interrupt() }
    }

    func testAnotherThreadWhileTheContextRunsIsReported() {
        let serialContext = RecordingSerialContext()
        let count = SerialContextBound(0, serialContext: serialContext)
        serialContext.perform {
            count.value += 1
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                count.withValue { _ in }
                done.signal()
            }
            done.wait()
        }
        XCTAssertEqual(serialContext.violations, ["testAnotherThreadWhileTheContextRunsIsReported()"],
                       "only the other thread's access is off the context")
    }

    /// The real-program check traps: shown on the simulated context, whose default report is
    /// `preconditionFailure`, through the predicate the box consults rather than by crashing the runner.
    func testTheSimulatedContextSaysAnotherThreadIsOffItWhileAnEventRuns() {
        let serialContext = SimulatedSerialContext()
        let seen = SerialContextBound([Bool](), serialContext: serialContext)
        serialContext.schedule(at: serialContext.clock.now()) {
            let done = DispatchSemaphore(value: 0)
            let otherThread = Guarded(true)
            Thread.detachNewThread {
                otherThread.withLock { $0 = serialContext.isOnSerialContext }
                done.signal()
            }
            done.wait()
            seen.value = [serialContext.isOnSerialContext, otherThread.withLock { $0 }]
        }
        serialContext.runDue()
        XCTAssertEqual(serialContext.perform { seen.value }, [true, false])
    }
}
