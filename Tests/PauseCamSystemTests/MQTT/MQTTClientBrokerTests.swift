import Foundation
import PauseCamTestHelpers
import XCTest
import PauseCamCore
@testable import PauseCamSystem

/// `MQTTClient` against a real Mosquitto on loopback (`MosquittoBroker`): QoS 1 round trips, retained messages,
/// the broker's last will, refused credentials, and a broker that goes away and comes back.
final class MQTTClientBrokerTests: XCTestCase {
    private var clients: [MQTTClient] = []

    override func tearDown() {
        clients.forEach { $0.stop() }
        clients = []
        super.tearDown()
    }

    /// A client of `broker` (1 s first reconnect delay, so a restart is caught quickly), stopped at tear-down.
    private func client(_ broker: MosquittoBroker, id: String, username: String? = nil,
                        password: String? = nil) throws -> MQTTClient {
        let options = MQTTClient.Options(broker: try MQTTBrokerAddress(url: broker.url), clientID: id,
                                         username: username, password: password, keepAliveSeconds: 5,
                                         reconnectDelaySeconds: 1, maximumReconnectDelaySeconds: 2)
        let client = try MQTTClient(options: options)
        clients.append(client)
        return client
    }

    func testAMessagePublishedAtQoS1ReachesTheSubscriberWithItsBytes() throws {
        let broker = try MosquittoBroker()
        let subscriber = try client(broker, id: "sub")
        let received = MQTTEventRecorder()
        try subscriber.start(subscriptions: ["pausecam/studio/command"], will: nil, events: received.handler)
        XCTAssertTrue(received.waitConnected(), "\(received.events)\n\(broker.log)")

        let publisher = try client(broker, id: "pub")
        let published = MQTTEventRecorder()
        try publisher.start(subscriptions: [], will: nil, events: published.handler)
        XCTAssertTrue(published.waitConnected(), "\(published.events)")
        let payload: [UInt8] = [0x7b, 0x00, 0xff, 0x80, 0x7d]
        try publisher.publish(GroupBusMessage(topic: "pausecam/studio/command", payload: payload))
        try publisher.publish(GroupBusMessage(topic: "pausecam/other/command", payload: [1]))
        try publisher.publish(GroupBusMessage(topic: "pausecam/studio/command", payload: [2]))

        XCTAssertTrue(received.wait { events in events.filter { if case .message = $0 { true } else { false } }.count >= 2 },
                      "\(received.events)")
        XCTAssertEqual(received.messages, [GroupBusMessage(topic: "pausecam/studio/command", payload: payload),
                                           GroupBusMessage(topic: "pausecam/studio/command", payload: [2])])
    }

    func testARetainedMessageReachesASubscriberThatComesLater() throws {
        let broker = try MosquittoBroker()
        let member = try client(broker, id: "cam-a")
        let own = MQTTEventRecorder()
        try member.start(subscriptions: ["pausecam/studio/status/#"], will: nil, events: own.handler)
        XCTAssertTrue(own.waitConnected(), "\(own.events)")
        try member.publish(GroupBusMessage(topic: "pausecam/studio/status/cam-a", payload: Array("recording".utf8),
                                           retained: true))
        // Its own copy coming back means the broker has taken (and kept) the message.
        XCTAssertTrue(own.wait { !$0.isEmpty && $0.contains { if case .message = $0 { true } else { false } } })
        XCTAssertEqual(own.messages.first?.retained, false, "a live delivery is not flagged as kept")

        let later = try client(broker, id: "ctl")
        let seen = MQTTEventRecorder()
        try later.start(subscriptions: ["pausecam/studio/status/#"], will: nil, events: seen.handler)
        XCTAssertTrue(seen.wait { !$0.filter { if case .message = $0 { true } else { false } }.isEmpty },
                      "\(seen.events)")
        XCTAssertEqual(seen.messages, [GroupBusMessage(topic: "pausecam/studio/status/cam-a",
                                                       payload: Array("recording".utf8), retained: true)])
    }

    func testTheBrokerPublishesTheWillOfAClientThatVanishesButNotOfOneThatSaidGoodbye() throws {
        let broker = try MosquittoBroker()
        let watcher = try client(broker, id: "watcher")
        let seen = MQTTEventRecorder()
        try watcher.start(subscriptions: ["pausecam/studio/status/#"], will: nil, events: seen.handler)
        XCTAssertTrue(seen.waitConnected())

        let polite = try client(broker, id: "cam-b")
        let politeEvents = MQTTEventRecorder()
        try polite.start(subscriptions: [], will: GroupBusMessage(topic: "pausecam/studio/status/cam-b",
                                                                   payload: Array("gone".utf8)),
                         events: politeEvents.handler)
        XCTAssertTrue(politeEvents.waitConnected())
        let vanishing = try client(broker, id: "cam-c")
        let vanishingEvents = MQTTEventRecorder()
        try vanishing.start(subscriptions: [], will: GroupBusMessage(topic: "pausecam/studio/status/cam-c",
                                                                      payload: Array("gone".utf8)),
                            events: vanishingEvents.handler)
        XCTAssertTrue(vanishingEvents.waitConnected())

        polite.stop()
        vanishing.dropConnectionWithoutGoodbye()
        XCTAssertTrue(seen.wait { events in
            events.contains { if case .message(let message) = $0 { message.topic.hasSuffix("cam-c") } else { false } }
        }, "\(seen.events)\n\(broker.log)")
        XCTAssertEqual(seen.messages, [GroupBusMessage(topic: "pausecam/studio/status/cam-c", payload: Array("gone".utf8))])
        // The vanished client comes back by itself.
        XCTAssertTrue(vanishingEvents.waitConnected(count: 2), "\(vanishingEvents.events)")
        XCTAssertTrue(vanishingEvents.events.contains { if case .lost = $0 { true } else { false } })
    }

    func testWithCredentialsAnAnonymousClientIsRefusedAsNotAuthorisedAndTheRightPasswordConnects() throws {
        let broker = try MosquittoBroker(credentials: .init(username: "studio", password: "s3cret"))
        for (id, username, password) in [("anonymous", nil, nil), ("wrong", "studio", "guess")] as [(String, String?, String?)] {
            let refused = try client(broker, id: id, username: username, password: password)
            let events = MQTTEventRecorder()
            try refused.start(subscriptions: ["pausecam/studio/#"], will: nil, events: events.handler)
            XCTAssertTrue(events.wait { !$0.isEmpty }, "\(id): \(broker.log)")
            guard case .refused(.notAuthorised(let address, let reason)) = events.events.first else {
                return XCTFail("\(id): \(events.events)")
            }
            XCTAssertEqual(address, broker.url)
            XCTAssertEqual(reason, "Not authorized")
            XCTAssertTrue(MQTTError.notAuthorised(broker: address, reason: reason).description
                .contains("group.password_file"))
        }
        let member = try client(broker, id: "cam-a", username: "studio", password: "s3cret")
        let events = MQTTEventRecorder()
        try member.start(subscriptions: ["pausecam/studio/#"], will: nil, events: events.handler)
        XCTAssertTrue(events.waitConnected(), "\(events.events)")
        XCTAssertEqual(events.events, [.connected])
    }

    func testABrokerRestartIsReportedAndTheClientReconnectsResubscribesAndReceivesAgain() throws {
        let broker = try MosquittoBroker()
        let member = try client(broker, id: "cam-a")
        let events = MQTTEventRecorder()
        try member.start(subscriptions: ["pausecam/studio/command"], will: nil, events: events.handler)
        XCTAssertTrue(events.waitConnected())

        broker.stop()
        XCTAssertTrue(events.wait { $0.contains { if case .lost = $0 { true } else { false } } }, "\(events.events)")
        try broker.start()
        XCTAssertTrue(events.waitConnected(count: 2), "\(events.events)\n\(broker.log)")

        let controller = try client(broker, id: "ctl")
        let controllerEvents = MQTTEventRecorder()
        try controller.start(subscriptions: [], will: nil, events: controllerEvents.handler)
        XCTAssertTrue(controllerEvents.waitConnected())
        try controller.publish(GroupBusMessage(topic: "pausecam/studio/command", payload: Array("pause".utf8)))
        XCTAssertTrue(events.wait { $0.contains { if case .message = $0 { true } else { false } } }, "\(events.events)")
        XCTAssertEqual(events.messages, [GroupBusMessage(topic: "pausecam/studio/command", payload: Array("pause".utf8))])
        guard case .lost(.connectionLost(let address, _)) = events.events.first(where: {
            if case .lost = $0 { true } else { false }
        }) else { return XCTFail("\(events.events)") }
        XCTAssertEqual(address, broker.url)
    }
}
