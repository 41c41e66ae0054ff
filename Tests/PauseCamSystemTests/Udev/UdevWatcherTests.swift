import Foundation
import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// A scripted udev event source: each `push` is one batch of reads made readable through a pipe; once a batch is
/// used up, `next()` reports drained (and consumes the pipe's byte). `cameras()` answers what a re-enumeration
/// finds.
final class ScriptedUdevSource: UdevEventSource, @unchecked Sendable {
    private let lock = NSLock()
    private var batches: [[UdevSourceEvent]] = []
    private var present: [CameraIdentity]
    private(set) var enumerations = 0
    private let readEnd: Int32
    private let writeEnd: Int32

    init(present: [CameraIdentity]) {
        self.present = present
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0)
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    var fileDescriptor: Int32 { readEnd }

    /// Queues one batch of reads; `present` is what an enumeration finds from now on.
    func push(_ batch: [UdevSourceEvent], present now: [CameraIdentity]) {
        lock.withLock {
            batches.append(batch)
            present = now
        }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    func next() -> UdevSourceEvent {
        lock.lock()
        defer { lock.unlock() }
        guard !batches.isEmpty else { return .drained }
        if batches[0].isEmpty {
            batches.removeFirst()
            var byte: UInt8 = 0
            _ = read(readEnd, &byte, 1)
            return .drained
        }
        return batches[0].removeFirst()
    }

    func cameras() throws -> [CameraIdentity] {
        lock.withLock {
            enumerations += 1
            return present
        }
    }
}

/// Collects events and wakes a waiting test once a given number has arrived.
final class UdevEventCounter: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [DeviceEvent] = []

    func append(_ event: DeviceEvent) {
        condition.withLock {
            events.append(event)
            condition.broadcast()
        }
    }

    /// Waits (up to `timeout`) until `count` events arrived; returns all so far.
    func wait(for count: Int, timeout: TimeInterval) -> [DeviceEvent] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while events.count < count && condition.wait(until: deadline) {}
            return events
        }
    }
}

final class UdevWatcherTests: XCTestCase {
    let a = CameraIdentity(devicePath: "/dev/video0", name: "C920", serial: "A")
    let b = CameraIdentity(devicePath: "/dev/video2", name: "BRIO", serial: "B")
    let c = CameraIdentity(devicePath: "/dev/video4", name: "C922", serial: "C")

    /// The monitor overflowed (ENOBUFS) while B was unplugged and C plugged in: neither event arrives, but the
    /// watcher drains the queue, re-enumerates and reports both. The old watcher stopped reading at the overflow
    /// and reported nothing.
    func testAnOverflowIsFollowedByAReEnumerationThatReportsTheMissedAddAndRemove() {
        let source = ScriptedUdevSource(present: [a, b])
        let watcher = UdevWatcher(makeSource: { source }, enumerate: { try source.cameras() })
        XCTAssertEqual(try watcher.enumerate(), [a, b])
        let log = UdevEventCounter()
        XCTAssertNoThrow(try watcher.start { log.append($0) })
        defer { watcher.stop() }
        source.push([.action("remove", devicePath: a.devicePath, identity: nil)], present: [b])
        XCTAssertEqual(log.wait(for: 1, timeout: 30), [.detached(a)])
        // An overflow, then an event that was still queued behind it (A plugged back in).
        source.push([.overflow, .action("add", devicePath: a.devicePath, identity: a)], present: [a, c])
        let events = log.wait(for: 4, timeout: 30)
        XCTAssertEqual(events, [.detached(a), .attached(a), .detached(b), .attached(c)],
                       "the queued add first, then what the enumeration found missing and new")
        XCTAssertEqual(source.enumerations, 2, "one enumeration at the start, one after the overflow")
        // Reading goes on after the recovery.
        source.push([.action("remove", devicePath: c.devicePath, identity: nil)], present: [a])
        XCTAssertEqual(log.wait(for: 5, timeout: 30).last, .detached(c))
    }
}
