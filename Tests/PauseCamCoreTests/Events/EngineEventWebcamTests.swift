import PauseCamCore
import XCTest

/// The webcam's loss and return as users and scripts see them: a line that says the recording goes on, and JSON
/// events with the device (and the reason of a loss).
final class EngineEventWebcamTests: XCTestCase {
    func testWebcamLostSaysTheRecordingGoesOn() {
        let event = EngineEvent.webcamLost(device: "/dev/video10", reason: "/dev/video10: write failed: ENODEV")
        XCTAssertEqual(event.text, "webcam /dev/video10 lost: /dev/video10: write failed: ENODEV; the recording goes "
                       + "on, and the webcam comes back by itself when the device returns")
        XCTAssertEqual(event.jsonFields["type"] as? String, "webcam_lost")
        XCTAssertEqual(event.jsonFields["device"] as? String, "/dev/video10")
        XCTAssertEqual(event.jsonFields["reason"] as? String, "/dev/video10: write failed: ENODEV")
    }

    func testWebcamBackNamesTheDevice() {
        let event = EngineEvent.webcamBack(device: "/dev/video10")
        XCTAssertEqual(event.text, "webcam /dev/video10 back: the program reaches it again")
        XCTAssertEqual(event.jsonFields["type"] as? String, "webcam_back")
        XCTAssertEqual(event.jsonFields["device"] as? String, "/dev/video10")
    }
}
