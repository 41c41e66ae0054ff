import Foundation
import PauseCamTestHelpers
import XCTest
import PauseCamCore
@testable import PauseCamSystem

/// The `GroupBus` port on a real Mosquitto: two members meet through it, and a refusal reads as a final loss.
final class MQTTGroupBusTests: XCTestCase {
    /// Collects one bus's events and lets the test wait for them.
    final class Events: @unchecked Sendable {
        private let condition = NSCondition()
        private var seen: [GroupBusEvent] = []
        var handler: @Sendable (GroupBusEvent) -> Void {
            { [self] event in
                condition.lock()
                seen.append(event)
                condition.broadcast()
                condition.unlock()
            }
        }
        var events: [GroupBusEvent] { condition.withLock { seen } }
        func wait(until predicate: ([GroupBusEvent]) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(30)
            condition.lock()
            defer { condition.unlock() }
            while !predicate(seen) {
                if !condition.wait(until: deadline) { return predicate(seen) }
            }
            return true
        }
    }

    func testTwoMembersExchangeACommandAndTheStatusIsKept() throws {
        let broker = try MosquittoBroker()
        let a: GroupBus = try MQTTGroupBus(url: broker.url, clientID: "pausecam-studio-cam-a")
        let b: GroupBus = try MQTTGroupBus(url: broker.url, clientID: "pausecam-studio-cam-b")
        defer { a.stop(); b.stop() }
        let aEvents = Events()
        try a.start(subscriptions: ["pausecam/studio/command"],
                    will: GroupBusMessage(topic: "pausecam/studio/status/cam-a", payload: [], retained: true),
                    events: aEvents.handler)
        XCTAssertTrue(aEvents.wait { $0.contains(.connected) }, "\(aEvents.events)")
        try a.publish(GroupBusMessage(topic: "pausecam/studio/status/cam-a", payload: Array("idle".utf8), retained: true))
        // `publish` only queues: until the broker holds the status, a subscriber would get it live (not retained).
        // A probe that sees it (live or kept) proves the broker has it.
        let probe: GroupBus = try MQTTGroupBus(url: broker.url, clientID: "pausecam-studio-probe")
        let probeEvents = Events()
        try probe.start(subscriptions: ["pausecam/studio/status/+"], will: nil, events: probeEvents.handler)
        XCTAssertTrue(probeEvents.wait { $0.contains { if case .message = $0 { return true } else { return false } } },
                      "\(probeEvents.events)")
        probe.stop()

        let bEvents = Events()
        try b.start(subscriptions: ["pausecam/studio/status/+"], will: nil, events: bEvents.handler)
        XCTAssertTrue(bEvents.wait { $0.count >= 2 }, "\(bEvents.events)")
        // The kept status comes with the subscription: Mosquitto 2.0.11 sends it just after the acknowledgement, but
        // MQTT does not promise the order.
        XCTAssertEqual(Set(bEvents.events.map { "\($0)" }), Set([
            GroupBusEvent.message(GroupBusMessage(topic: "pausecam/studio/status/cam-a", payload: Array("idle".utf8),
                                                  retained: true)),
            .connected,
        ].map { "\($0)" }), "\(bEvents.events)")
        try b.publish(GroupBusMessage(topic: "pausecam/studio/command", payload: Array(#"{"seq":1}"#.utf8)))
        XCTAssertTrue(aEvents.wait { $0.count >= 2 }, "\(aEvents.events)")
        XCTAssertEqual(aEvents.events.last, .message(GroupBusMessage(topic: "pausecam/studio/command",
                                                                     payload: Array(#"{"seq":1}"#.utf8))))
        a.stop()
        let count = aEvents.events.count
        try b.publish(GroupBusMessage(topic: "pausecam/studio/command", payload: [2]))
        XCTAssertEqual(aEvents.events.count, count, "no event after stop")
    }

    func testARefusalIsAFinalLossThatSaysWhatToFix() throws {
        let broker = try MosquittoBroker(credentials: .init(username: "studio", password: "right"))
        let folder = broker.folder
        let passwordFile = folder.appendingPathComponent("member-password").path
        try "wrong\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        let bus = try MQTTGroupBus(url: broker.url, clientID: "cam-a", username: "studio", passwordFile: passwordFile)
        defer { bus.stop() }
        let events = Events()
        try bus.start(subscriptions: ["pausecam/studio/#"], will: nil, events: events.handler)
        XCTAssertTrue(events.wait { !$0.isEmpty })
        guard case .lost(let reason) = events.events.first else { return XCTFail("\(events.events)") }
        XCTAssertTrue(reason.contains("Not authorized") && reason.contains("group.password_file")
                      && reason.hasSuffix("(not retrying)"), reason)
    }
}
