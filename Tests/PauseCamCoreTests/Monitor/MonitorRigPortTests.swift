import XCTest
@testable import PauseCamCore

/// Each rig's own monitor port: FNV-1a of the rig's socket name into 8360…8999 (the values computed with Python's
/// integers), the same for names that share a socket, and the words for a taken port.
final class MonitorRigPortTests: XCTestCase {
    func testThePortIsTheHashOfTheSocketName() {
        let table: [(String, Int)] = [("E2E rig", 8626), ("e2e-rig", 8626), ("Studio A", 8825), ("studio a!", 8825),
                                      ("Desk rig", 8479), ("", 8529), ("///", 8529)]
        for (name, port) in table { XCTAssertEqual(MonitorListenAddress.rigPort(rigName: name), port, name) }
        for index in 0..<2000 {
            XCTAssertTrue(MonitorListenAddress.rigPorts.contains(MonitorListenAddress.rigPort(rigName: "rig \(index)")))
        }
        XCTAssertEqual(MonitorListenAddress.rigAddress(rigName: "Studio A").description, "127.0.0.1:8825")
    }

    func testATakenPortSaysByWhomAndWhereTheMonitorIsInstead() {
        XCTAssertEqual(MonitorListenAddress.rigPortTaken(8825, rigName: "Studio A", holder: "PauseCam \"Desk\" (pid 42)",
                                                         fallback: "127.0.0.1:40000"),
                       "port 8825, rig \"Studio A\"'s own, is taken by PauseCam \"Desk\" (pid 42); serving on "
                       + "127.0.0.1:40000 instead, so a bookmark of port 8825 does not reach this rig. Give this rig "
                       + "another port with web: {listen: 127.0.0.1:PORT} (or --web), or free port 8825")
        XCTAssertTrue(MonitorListenAddress.rigPortTaken(8825, rigName: "Studio A", holder: nil, fallback: nil)
            .hasPrefix("port 8825, rig \"Studio A\"'s own, is taken by another program; no monitor. "))
    }
}
