import Foundation
import PauseCamCore
@testable import PauseCamSystem

/// Collects one client's events as they come on libmosquitto's thread, and lets a test wait (up to a generous
/// deadline, never a guessed pause) until the events seen so far satisfy a condition.
final class MQTTEventRecorder: @unchecked Sendable {
    private let condition = NSCondition()
    private var seen: [MQTTClient.Event] = []

    /// The closure to hand to `MQTTClient.start`.
    var handler: @Sendable (MQTTClient.Event) -> Void {
        { [self] event in
            condition.lock()
            seen.append(event)
            condition.broadcast()
            condition.unlock()
        }
    }

    var events: [MQTTClient.Event] {
        condition.lock()
        defer { condition.unlock() }
        return seen
    }

    /// Waits until `predicate` holds for the events so far; false when `timeout` passed first.
    @discardableResult
    func wait(timeout: TimeInterval = 30, until predicate: ([MQTTClient.Event]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(seen) {
            if !condition.wait(until: deadline) { return predicate(seen) }
        }
        return true
    }

    /// Waits for the `count`-th `connected`.
    @discardableResult
    func waitConnected(count: Int = 1, timeout: TimeInterval = 30) -> Bool {
        wait(timeout: timeout) { events in events.filter { $0 == .connected }.count >= count }
    }

    /// The messages received so far.
    var messages: [GroupBusMessage] {
        events.compactMap { if case .message(let message) = $0 { return message } else { return nil } }
    }
}
