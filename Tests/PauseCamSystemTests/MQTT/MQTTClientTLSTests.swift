import Foundation
import PauseCamTestHelpers
import XCTest
import PauseCamCore
@testable import PauseCamSystem

/// `mqtts://` against a Mosquitto TLS listener whose certificate a throw-away authority signed: the client that
/// trusts that authority connects and exchanges messages; one that trusts only the system's authorities is refused.
final class MQTTClientTLSTests: XCTestCase {
    func testAClientTrustingTheBrokersAuthorityConnectsOverTLSAndOneThatDoesNotIsRefused() throws {
        let authority = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: authority) }
        let files = try MosquittoBroker.makeTestAuthority(in: authority)
        let broker = try MosquittoBroker(tls: files)
        let address = try MQTTBrokerAddress(url: broker.url)
        XCTAssertTrue(address.usesTLS)

        let trusting = try MQTTClient(options: .init(broker: address, clientID: "cam-a",
                                                     tls: .init(caFile: files.caFile)))
        defer { trusting.stop() }
        let events = MQTTEventRecorder()
        XCTAssertNoThrow(try trusting.start(subscriptions: ["pausecam/studio/command"], will: nil,
                                            events: events.handler), broker.log)
        XCTAssertTrue(events.waitConnected(), "\(events.events)\n\(broker.log)")
        try trusting.publish(GroupBusMessage(topic: "pausecam/studio/command", payload: [1, 2, 3]))
        XCTAssertTrue(events.wait { $0.count >= 2 }, "\(events.events)")
        XCTAssertEqual(events.messages, [GroupBusMessage(topic: "pausecam/studio/command", payload: [1, 2, 3])])

        let doubting = try MQTTClient(options: .init(broker: address, clientID: "cam-b"))
        defer { doubting.stop() }
        let refused = MQTTEventRecorder()
        // The handshake may fail within `start` (a broker on this host answers at once) or on the network thread.
        let failure: MQTTError
        do {
            try doubting.start(subscriptions: [], will: nil, events: refused.handler)
            XCTAssertTrue(refused.wait { !$0.isEmpty }, "\(refused.events)\n\(broker.log)")
            guard case .refused(let error) = refused.events.first else { return XCTFail("\(refused.events)") }
            failure = error
        } catch {
            failure = error
            XCTAssertEqual(refused.events, [], "a failure thrown by start is not reported again")
        }
        guard case .tlsHandshake(let address, let reason) = failure else { return XCTFail("\(failure)") }
        XCTAssertEqual(address, broker.url)
        XCTAssertTrue(reason.contains("certificate verify failed"), reason)
    }

    func testMissingTLSFilesAreRefusedBeforeConnecting() throws {
        let address = try MQTTBrokerAddress(url: "mqtts://127.0.0.1:8883")
        XCTAssertThrowsError(try MQTTClient(options: .init(broker: address, clientID: "cam-a",
                                                           tls: .init(caFile: "/nonexistent/ca.crt")))) { error in
            guard case MQTTError.tlsFiles(let files, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(files, "cafile /nonexistent/ca.crt")
        }
    }
}
