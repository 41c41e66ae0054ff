import XCTest
@testable import PauseCamSystem

/// Broker URLs as a rig writes them: schemes, default ports, IPv6 literals, and the mistakes a user makes.
final class MQTTBrokerAddressTests: XCTestCase {
    func testAddressesParse() throws {
        let table: [(String, String, Int, Bool)] = [
            ("mqtt://broker.local", "broker.local", 1883, false),
            ("mqtt://broker.local:1884", "broker.local", 1884, false),
            ("mqtts://broker.local", "broker.local", 8883, true),
            ("mqtts://10.0.0.2:9883/", "10.0.0.2", 9883, true),
            ("mqtt://[::1]", "::1", 1883, false),
            ("mqtt://[fe80::1%25eth0]:1999", "fe80::1%25eth0", 1999, false),
        ]
        for (url, host, port, tls) in table {
            let address = try MQTTBrokerAddress(url: url)
            XCTAssertEqual(address, MQTTBrokerAddress(host: host, port: port, usesTLS: tls), url)
        }
        XCTAssertEqual(try MQTTBrokerAddress(url: "mqtt://[::1]").description, "mqtt://[::1]:1883")
        XCTAssertEqual(try MQTTBrokerAddress(url: "mqtts://b").description, "mqtts://b:8883")
    }

    func testMistakesAreRefusedWithWhatIsWrong() {
        let table: [(String, String)] = [
            ("broker.local:1883", "must start with mqtt:// or mqtts://"),
            ("tcp://broker.local", "must start with mqtt:// or mqtts://"),
            ("mqtt://", "names no host"),
            ("mqtt://:1883", "names no host"),
            ("mqtt://broker:0", "port must be a number from 1 to 65535"),
            ("mqtt://broker:65536", "port must be a number from 1 to 65535"),
            ("mqtt://broker:port", "port must be a number from 1 to 65535"),
            ("mqtt://broker/pausecam", "has no path"),
            ("mqtt://user:secret@broker", "credentials do not go in the address"),
            ("mqtt://[::1", "no closing ]"),
            ("mqtt://[::1]1883", "expected :PORT after ]"),
        ]
        for (url, reason) in table {
            XCTAssertThrowsError(try MQTTBrokerAddress(url: url), url) { error in
                guard case MQTTError.badBrokerAddress(let given, let why) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(given, url)
                XCTAssertTrue(why.contains(reason), "\(url): \(why)")
                XCTAssertTrue("\(error)".contains("write mqtt://HOST:PORT"), "\(error)")
            }
        }
    }
}
