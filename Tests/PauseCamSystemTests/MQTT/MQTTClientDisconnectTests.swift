import Foundation
import XCTest
import PauseCamCore
@testable import PauseCamSystem

/// What the client does when the broker ends the session with an MQTT 5 DISCONNECT, after which libmosquitto's own
/// loop does not reconnect: it starts again (a broker shutting down), except when another client took its
/// identifier (it stops, and says why).
final class MQTTClientDisconnectTests: XCTestCase {
    private func client(port: Int, id: String) throws -> MQTTClient {
        try MQTTClient(options: MQTTClient.Options(
            broker: MQTTBrokerAddress(host: "127.0.0.1", port: port, usesTLS: false), clientID: id,
            keepAliveSeconds: 5, reconnectDelaySeconds: 1, maximumReconnectDelaySeconds: 2))
    }

    func testAfterTheBrokersDisconnectTheClientConnectsAgain() throws {
        let shuttingDown: UInt8 = 139  // MQTT_RC_SERVER_SHUTTING_DOWN
        let broker = try ScriptedMQTTBroker(script: [shuttingDown, nil])
        let member = try client(port: broker.port, id: "cam-a")
        defer { member.stop(); broker.close() }
        let events = MQTTEventRecorder()
        try member.start(subscriptions: [], will: nil, events: events.handler)

        XCTAssertTrue(events.waitConnected(count: 2), "\(events.events)")
        XCTAssertEqual(events.events.count, 3, "\(events.events)")
        XCTAssertEqual(events.events.first, .connected)
        XCTAssertEqual(events.events.last, .connected)
        guard case .lost(.disconnectedByBroker(_, let code, let reason)) = events.events[1] else {
            return XCTFail("\(events.events)")
        }
        XCTAssertEqual(code, Int32(shuttingDown))
        XCTAssertEqual(reason, "Server shutting down")
        XCTAssertEqual(broker.connects, 2)
    }

    /// Mosquitto sends this DISCONNECT from 2.0.18 on; 2.0.11 (Debian 12) only closes the older connection, which
    /// the client cannot tell from a network loss, so two members with one identifier take it from each other.
    func testAClientWhoseIdentifierAnotherClientTookStopsAndSaysSo() throws {
        let sessionTakenOver: UInt8 = 142  // MQTT_RC_SESSION_TAKEN_OVER
        let broker = try ScriptedMQTTBroker(script: [sessionTakenOver, nil])
        let member = try client(port: broker.port, id: "studio-cam-a")
        defer { member.stop(); broker.close() }
        let events = MQTTEventRecorder()
        try member.start(subscriptions: [], will: nil, events: events.handler)

        XCTAssertTrue(events.wait { $0.count >= 2 }, "\(events.events)")
        let address = "mqtt://127.0.0.1:\(broker.port)"
        XCTAssertEqual(events.events, [.connected, .refused(.sessionTakenOver(broker: address, clientID: "studio-cam-a"))])
        XCTAssertTrue(MQTTError.sessionTakenOver(broker: address, clientID: "studio-cam-a").description
            .contains("group.host"))
    }
}
