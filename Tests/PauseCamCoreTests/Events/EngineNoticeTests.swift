import XCTest
@testable import PauseCamCore

/// A set-up fact is a case: whether it is a warning and the words people read come from the case, and programs
/// get its name, never a parse of the words.
final class EngineNoticeTests: XCTestCase {
    func testEachNoticeReadsAsBeforeAndIsAWarningByItsCase() {
        let table: [(EngineNotice, String, Bool)] = [
            (.videoOnly, "audio: none — recording video only", false),
            (.standbyChosen(lens: "tele", standby: "cold", reason: "bus full"),
             "lens tele: standby auto: cold (bus full)", false),
            (.measuringEncoder(width: 1920, height: 1080, rate: "30", cachePath: "/c/enc.json"),
             "measuring encoder speed… (once for 1920x1080 at 30 fps; cached in /c/enc.json)", false),
            (.noCameraMatches(lens: "main", rule: "usb 046d:085e"),
             "warning: lens main: no camera matches usb 046d:085e; see `pausecam devices`", true),
            (.cameraNotOpened(lens: "main", device: "/dev/video4", reason: "busy"),
             "warning: lens main: /dev/video4 could not be opened: busy", true),
            (.microphoneNotOpened(microphone: "hw:1", reason: "gone"),
             "warning: microphone hw:1 cannot be opened (gone); recording video only", true),
            (.encoderNotMeasured(preset: "ultrafast"),
             "warning: the encoder speed could not be measured; preset auto uses ultrafast", true),
            (.deviceRemark("C920: asked for 30 fps, the camera chose 24 fps"),
             "warning: C920: asked for 30 fps, the camera chose 24 fps", true),
            (.group(.brokerBack), "group: the group's broker is back", false),
            (.group(.brokerLost(reason: "refused")), "warning: group: lost the group's broker (refused); recording goes "
             + "on and commands given here apply here only until it is back", true),
            (.groupNotAnswering(group: "studio", broker: "127.0.0.1:1883"), "warning: group studio: no answer from "
             + "127.0.0.1:1883 yet; commands given here apply on this member only until it answers", true),
            (.pluggedMicrophoneNotOpened(card: 2, name: "C920", reason: "busy"), "warning: the microphone on sound card "
             + "2 (C920) was plugged in but cannot be opened: busy; recording goes on without sound", true),
        ]
        for (notice, text, isWarning) in table {
            XCTAssertEqual(EngineEvent.notice(notice).text, text)
            XCTAssertEqual(notice.isWarning, isWarning, "\(notice)")
            XCTAssertEqual(notice.text, isWarning ? "warning: " + notice.words : notice.words)
        }
    }

    func testJSONKeepsItsTypeAndNamesTheFact() {
        let warning = EngineEvent.notice(.noCameraMatches(lens: "main", rule: "a rule")).jsonFields
        XCTAssertEqual(warning["type"] as? String, "warning")
        XCTAssertEqual(warning["notice"] as? String, "no_camera_matches")
        XCTAssertEqual(warning["lens"] as? String, "main")
        XCTAssertEqual(warning["message"] as? String, "warning: lens main: no camera matches a rule; see `pausecam devices`")
        let notice = EngineEvent.notice(.videoOnly).jsonFields
        XCTAssertEqual(notice["type"] as? String, "notice")
        XCTAssertEqual(notice["notice"] as? String, "video_only")
        XCTAssertEqual(notice["message"] as? String, "audio: none — recording video only")
    }
}
