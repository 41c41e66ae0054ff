import Foundation
@testable import PauseCamCore
import XCTest

/// The status fields the monitor page reads: which lenses have a camera (a tile says "no camera") and the single
/// microphone's level and clipped samples (a meter for a plain rig, as the voices have).
final class ControlStatusJSONMonitorTests: XCTestCase {
    private func object(_ status: RigController.Status) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ControlStatusJSON.line(status, rig: "S").utf8)) as? [String: Any])
    }

    private func status() -> RigController.Status {
        RigController.Status(state: .recording, scene: 1, timer: .seconds(2), lens: "main", digitalZoom: 1,
                             droppedFrames: 0, moviePath: "/v/a.mov")
    }

    func testLensesWithACameraAreListedInRigOrder() throws {
        var status = status()
        status.lensesWithCamera = ["wide", "main"]
        XCTAssertEqual(try object(status)["lenses_with_camera"] as? [String], ["wide", "main"])
        status.lensesWithCamera = []
        XCTAssertEqual(try object(status)["lenses_with_camera"] as? [String], [])
    }

    func testTheSingleMicrophoneHasItsLevelAndClippedSamples() throws {
        var status = status()
        status.audioPeak = -6.04
        status.clippedSamples = 12
        let microphone = try XCTUnwrap(try object(status)["microphone"] as? [String: Any])
        XCTAssertEqual(microphone["peak_dbfs"] as? Double, -6)
        XCTAssertEqual(microphone["clipped_samples"] as? Int, 12)
        // Silence (the meter's floor) is null, as a voice's is; no clip yet leaves the count null.
        status.audioPeak = -120
        status.clippedSamples = nil
        let silent = try XCTUnwrap(try object(status)["microphone"] as? [String: Any])
        XCTAssertTrue(silent["peak_dbfs"] is NSNull, "\(silent)")
        XCTAssertTrue(silent["clipped_samples"] is NSNull, "\(silent)")
    }

    func testNoMicrophoneFieldWithoutOneOrForARigOfVoices() throws {
        var status = status()
        XCTAssertNil(try object(status)["microphone"], "a rig without a microphone has no meter")
        status.audioPeak = -20
        status.voices = [VoiceStatus(name: "host")]
        XCTAssertNil(try object(status)["microphone"], "a rig of voices has a meter per voice instead")
    }
}
