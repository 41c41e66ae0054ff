import PauseCamCore
import XCTest

/// The webcam's loss as users and scripts see it: a line that says the recording goes on, and a JSON event with
/// the device and the reason.
final class EngineEventWebcamTests: XCTestCase {
    func testWebcamLostSaysTheRecordingGoesOn() {
        let event = EngineEvent.webcamLost(device: "/dev/video10", reason: "/dev/video10: write failed: ENODEV")
        XCTAssertEqual(event.text, "webcam /dev/video10 lost: /dev/video10: write failed: ENODEV; the recording goes "
                       + "on, the webcam returns when the rig starts again")
        XCTAssertEqual(event.jsonFields["type"] as? String, "webcam_lost")
        XCTAssertEqual(event.jsonFields["device"] as? String, "/dev/video10")
        XCTAssertEqual(event.jsonFields["reason"] as? String, "/dev/video10: write failed: ENODEV")
    }
}
