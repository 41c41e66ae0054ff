import XCTest
@testable import PauseCamCore

/// The discrete-event loop every simulated test and the virtual rig run on: order, clock and interruption.
final class SimulatedSerialContextTests: XCTestCase {
    /// A log the events append to; the context runs them on the calling thread, the lock only satisfies Sendable.
    private final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ item: String) { lock.withLock { items.append(item) } }
        var all: [String] { lock.withLock { items } }
    }

    private let start = MediaTime.seconds(3600)
    private func at(_ ms: Int64) -> MediaTime { start + .milliseconds(ms) }

    func testEventsRunInTimeOrderAndTiesInInsertionOrder() {
        let serialContext = SimulatedSerialContext()
        let log = Log()
        let clock = serialContext.simulatedClock
        let start = self.start
        for (name, time) in [("c", at(30)), ("a1", at(10)), ("b", at(20)), ("a2", at(10)), ("a3", at(10))] {
            serialContext.schedule(at: time) { log.add("\(name)@\(clock.now() - start)") }
        }
        XCTAssertTrue(serialContext.advance(until: at(100)))
        XCTAssertEqual(log.all, ["a1@10/1000", "a2@10/1000", "a3@10/1000", "b@20/1000", "c@30/1000"])
        XCTAssertEqual(serialContext.pendingCount, 0)
    }

    func testAdvanceSetsTheClockAndLeavesLaterEvents() {
        let serialContext = SimulatedSerialContext()
        let log = Log()
        serialContext.schedule(at: at(50)) { log.add("late") }
        XCTAssertTrue(serialContext.advance(until: at(20)))
        XCTAssertEqual(serialContext.clock.now(), at(20))
        XCTAssertEqual(log.all, [])
        XCTAssertEqual(serialContext.pendingCount, 1)
        // An event exactly at the target time runs.
        XCTAssertTrue(serialContext.advance(until: at(50)))
        XCTAssertEqual(log.all, ["late"])
        XCTAssertEqual(serialContext.clock.now(), at(50))
        // A past time runs at once, and the clock does not move back.
        serialContext.schedule(at: at(0)) { log.add("past") }
        serialContext.runDue()
        XCTAssertEqual(log.all, ["late", "past"])
        XCTAssertEqual(serialContext.clock.now(), at(50))
    }

    func testEventsScheduledFromEventsRun() {
        let serialContext = SimulatedSerialContext()
        let log = Log()
        let clock = serialContext.simulatedClock
        // A periodic event (a virtual camera's frame clock) that reschedules itself every 10 ms.
        final class Ticker: @unchecked Sendable {
            let serialContext: SimulatedSerialContext, log: Log, clock: SimulatedClock
            init(_ s: SimulatedSerialContext, _ l: Log, _ c: SimulatedClock) { serialContext = s; log = l; clock = c }
            func tick() {
                let elapsed = try! (clock.now() - .seconds(3600)).rescaled(to: 1000, rounding: .down)
                log.add("\(elapsed.value)ms")
                serialContext.schedule(at: clock.now() + .milliseconds(10)) { self.tick() }
            }
        }
        let ticker = Ticker(serialContext, log, clock)
        serialContext.schedule(at: at(0)) { ticker.tick() }
        // Scheduled for "now" from within an event: runs in the same advance, after the current one.
        serialContext.schedule(at: at(5)) { serialContext.schedule(at: clock.now()) { log.add("nested") } }
        XCTAssertTrue(serialContext.advance(until: at(25)))
        XCTAssertEqual(log.all, ["0ms", "nested", "10ms", "20ms"])
        XCTAssertEqual(serialContext.pendingCount, 1)
    }

    func testInterruptStopsAdvanceEarly() {
        let serialContext = SimulatedSerialContext()
        let log = Log()
        serialContext.schedule(at: at(10)) { log.add("a"); serialContext.interrupt() }
        serialContext.schedule(at: at(20)) { log.add("b") }
        XCTAssertFalse(serialContext.advance(until: at(100)))
        XCTAssertEqual(log.all, ["a"])
        XCTAssertEqual(serialContext.clock.now(), at(10), "the clock stops at the interrupting event")
        // The interruption is consumed: the next advance goes on.
        XCTAssertTrue(serialContext.advance(until: at(100)))
        XCTAssertEqual(log.all, ["a", "b"])
        XCTAssertEqual(serialContext.clock.now(), at(100))
        // An interrupt before advance makes the next one return at once (Ctrl-C before `wait`).
        serialContext.schedule(at: at(150)) { log.add("c") }
        serialContext.interrupt()
        XCTAssertFalse(serialContext.advance(until: at(200)))
        XCTAssertEqual(serialContext.clock.now(), at(100))
        XCTAssertEqual(log.all, ["a", "b"])
    }

    /// Work from other threads (the control socket, pedal signals) while one thread advances the loop: every
    /// `perform` runs alone, between events, on the serial context, and the loop goes on to its end.
    func testPerformFromOtherThreadsTakesTurnsWithAdvance() {
        final class Occupancy: @unchecked Sendable {
            private let lock = NSLock()
            private var inside = 0
            private(set) var overlaps = 0
            private(set) var performs = 0
            func enter() { lock.withLock { inside += 1; if inside > 1 { overlaps += 1 } } }
            func leave(perform: Bool) { lock.withLock { inside -= 1; if perform { performs += 1 } } }
        }
        let serialContext = SimulatedSerialContext()
        let occupancy = Occupancy()
        let onContextInEvents = Log()
        for step in 0..<20_000 {
            serialContext.schedule(at: at(Int64(step))) {
                occupancy.enter()
                if !serialContext.isOnSerialContext { onContextInEvents.add("event \(step) not on the context") }
                occupancy.leave(perform: false)
            }
        }
        let started = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let offContext = Log()
        for _ in 0..<4 {
            DispatchQueue.global().async(group: done) {
                started.wait()
                for _ in 0..<200 {
                    serialContext.perform {
                        occupancy.enter()
                        if !serialContext.isOnSerialContext { offContext.add("perform not on the context") }
                        occupancy.leave(perform: true)
                    }
                }
            }
        }
        serialContext.schedule(at: at(0)) { for _ in 0..<4 { started.signal() } }
        XCTAssertTrue(serialContext.advance(until: at(20_000)))
        done.wait()
        XCTAssertEqual(occupancy.overlaps, 0, "work ran beside other work on the serial context")
        XCTAssertEqual(occupancy.performs, 800)
        XCTAssertEqual(onContextInEvents.all + offContext.all, [])
        XCTAssertEqual(serialContext.pendingCount, 0)
    }

    /// A thread outside the context is told so while another thread runs an event.
    func testAnotherThreadIsOffTheContextWhileAnEventRuns() {
        let serialContext = SimulatedSerialContext()
        let log = Log()
        serialContext.schedule(at: at(1)) {
            let answered = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                log.add(serialContext.isOnSerialContext ? "other thread on" : "other thread off")
                answered.signal()
            }
            answered.wait()
            log.add(serialContext.isOnSerialContext ? "event on" : "event off")
        }
        serialContext.advance(until: at(2))
        XCTAssertEqual(log.all, ["other thread off", "event on"])
    }
}
