import XCTest
@testable import PauseCamCore

/// Broker URLs: what the rig may write and what it may not.
final class GroupBrokerAddressTests: XCTestCase {
    func testBrokerURLTable() {
        let good: [(String, String, Int, Bool)] = [
            ("mqtt://broker.local:1883", "broker.local", 1883, false),
            ("mqtt://broker.local", "broker.local", 1883, false),
            ("mqtts://broker.local", "broker.local", 8883, true),
            ("mqtts://10.0.0.2:8884/", "10.0.0.2", 8884, true),
            ("mqtt://[::1]:1883", "::1", 1883, false),
            ("mqtt://[fe80::1]", "fe80::1", 1883, false),
        ]
        for (text, host, port, tls) in good {
            XCTAssertEqual(GroupBrokerAddress(text), GroupBrokerAddress(host: host, port: port, tls: tls), text)
        }
        let bad = ["", "broker.local:1883", "http://broker.local", "mqtt://", "mqtt://:1883", "mqtt://broker:0",
                   "mqtt://broker:65536", "mqtt://broker:http", "mqtt://user:pw@broker", "mqtt://broker/topic",
                   "mqtt://[::1", "mqtt://[::1]x", "mqtt://bro ker", "mqtt://broker:"]
        for text in bad { XCTAssertNil(GroupBrokerAddress(text), text) }
        XCTAssertEqual(GroupBrokerAddress("mqtt://[::1]")?.description, "mqtt://[::1]:1883")
    }
}
