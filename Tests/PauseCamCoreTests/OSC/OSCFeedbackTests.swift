import XCTest
@testable import PauseCamCore

/// The feedback messages: the whole set, the changes between two states, and the state taken from a status.
final class OSCFeedbackTests: XCTestCase {
    static let idle = OSCFeedbackState(state: "idle", timerSeconds: 0, timerText: "00:00:00.0", scene: 0,
                                       sceneName: "", lens: "main", zoom: 1,
                                       tally: [.init(lens: "wide", state: "off"), .init(lens: "main", state: "off")],
                                       droppedFrames: 0)

    func testTheWholeSetInTableOrder() {
        var state = Self.idle
        state.diskMinutes = 42
        state.group = OSCFeedbackState.Group(state: "idle", online: 2, connected: true)
        XCTAssertEqual(OSCFeedback.all(state).map(\.description), [
            "/pausecam/state ,s \"idle\"",
            "/pausecam/recording ,i 0",
            "/pausecam/paused ,i 0",
            "/pausecam/timer ,f 0.0",
            "/pausecam/timer/text ,s \"00:00:00.0\"",
            "/pausecam/scene ,i 0",
            "/pausecam/scene/name ,s \"\"",
            "/pausecam/lens ,s \"main\"",
            "/pausecam/zoom ,f 1.0",
            "/pausecam/tally/wide ,s \"off\"",
            "/pausecam/tally/wide/program ,i 0",
            "/pausecam/tally/main ,s \"off\"",
            "/pausecam/tally/main/program ,i 0",
            "/pausecam/disk/minutes ,i 42",
            "/pausecam/dropped ,i 0",
            "/pausecam/group/state ,s \"idle\"",
            "/pausecam/group/online ,i 2",
            "/pausecam/group/connected ,i 1",
        ])
    }

    func testChangesTable() {
        func changed(_ edit: (inout OSCFeedbackState) -> Void) -> [String] {
            var new = Self.idle
            edit(&new)
            return OSCFeedback.changes(from: Self.idle, to: new).map(\.description)
        }
        XCTAssertEqual(changed { _ in }, [], "nothing changed, nothing sent")
        XCTAssertEqual(changed { $0.timerSeconds = 3; $0.timerText = "00:00:03.0" }, [],
                       "the timer alone goes with the once-a-second set")
        XCTAssertEqual(changed { $0.state = "recording"; $0.scene = 1; $0.sceneName = "Intro"
                                 $0.tally[1].state = "program" }, [
            "/pausecam/state ,s \"recording\"", "/pausecam/recording ,i 1", "/pausecam/paused ,i 0",
            "/pausecam/timer ,f 0.0", "/pausecam/timer/text ,s \"00:00:00.0\"",
            "/pausecam/scene ,i 1", "/pausecam/scene/name ,s \"Intro\"",
            "/pausecam/tally/main ,s \"program\"", "/pausecam/tally/main/program ,i 1",
        ])
        XCTAssertEqual(changed { $0.lens = "wide" }, ["/pausecam/lens ,s \"wide\""])
        XCTAssertEqual(changed { $0.zoom = 1.001 }, [], "a ramp's last digits are no change")
        XCTAssertEqual(changed { $0.zoom = 2 }, ["/pausecam/zoom ,f 2.0"])
        XCTAssertEqual(changed { $0.droppedFrames = 3 }, ["/pausecam/dropped ,i 3"])
        XCTAssertEqual(changed { $0.diskMinutes = 90 }, ["/pausecam/disk/minutes ,i 90"])
        XCTAssertEqual(changed { $0.group = .init(state: "mixed", online: 3, connected: false) }, [
            "/pausecam/group/state ,s \"mixed\"", "/pausecam/group/online ,i 3", "/pausecam/group/connected ,i 0",
        ])
        XCTAssertEqual(OSCFeedback.changes(from: nil, to: Self.idle), OSCFeedback.all(Self.idle),
                       "the first state is sent whole")
    }

    func testStateFromStatusTable() {
        let base = RigStatus(state: .idle, scene: 0, timer: .zero, lens: "main", digitalZoom: 1, droppedFrames: 0,
                             moviePath: nil)
        let rows: [(Session.State, String, String?, [String])] = [
            (.idle, "main", nil, ["off", "off", "off"]),
            (.idle, "main", "tele", ["off", "off", "preview"]),
            (.recording, "main", nil, ["off", "program", "off"]),
            (.recording, "main", "wide", ["preview", "program", "off"]),
            (.paused, "tele", nil, ["off", "off", "off"]),
            (.stopping, "main", nil, ["off", "off", "off"]),
        ]
        let lenses = ["wide", "main", "tele"]
        for (state, lens, preview, tally) in rows {
            var status = base
            status.state = state
            status.lens = lens
            status.tally = TallyBoard(lenses: lenses, activeLens: lens, previewLens: preview, state: state).entries
            let feedback = OSCFeedbackState(status: status, lenses: lenses, sceneName: nil)
            XCTAssertEqual(feedback.tally.map(\.state), tally, "\(state) on \(lens), preview \(preview ?? "none")")
            XCTAssertEqual(feedback.state, state.rawValue)
            XCTAssertEqual(feedback.sceneName, "")
        }
        var status = base
        status.timer = .seconds(83)
        status.lensZoom = 3
        status.digitalZoom = 1.5
        XCTAssertNil(OSCFeedbackState(status: status, lenses: [], sceneName: nil).diskMinutes, "unknown until measured")
        status.timeLeft = RecordingTimeLeft(freeBytes: 1_000_000_000, keepFree: 0, bytesPerSecond: 1_000_000)
        let feedback = OSCFeedbackState(status: status, lenses: [], sceneName: "Intro")
        XCTAssertEqual(status.timeLeft.seconds, 1000)
        XCTAssertEqual(feedback.diskMinutes, 16, "1000 s is 16 whole minutes")
        XCTAssertEqual(feedback.timerSeconds, 83)
        XCTAssertEqual(feedback.timerText, "00:01:23.0")
        XCTAssertEqual(feedback.zoom, 4.5)
    }

    func testGroupStateTable() {
        let rows: [(String, [(state: String, online: Bool)], String, Int)] = [
            ("idle", [], "idle", 1),
            ("recording", [("recording", true), ("recording", true)], "recording", 3),
            ("recording", [("paused", true)], "mixed", 2),
            ("recording", [("idle", false)], "recording", 1),
        ]
        for (own, others, state, online) in rows {
            let group = OSCFeedbackState.Group(own: own, others: others, connected: true)
            XCTAssertEqual(group.state, state, "\(own) \(others)")
            XCTAssertEqual(group.online, online, "\(own) \(others)")
        }
    }

    func testLensNamesBecomeOneAddressPart() {
        XCTAssertEqual(OSCFeedback.addressPart("main"), "main")
        XCTAssertEqual(OSCFeedback.addressPart("top left/#2"), "top_left__2")
        XCTAssertEqual(OSCFeedback.addressPart("a*b?{c}[d],e"), "a_b__c__d__e")
    }
}
