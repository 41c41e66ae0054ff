import PauseCamCore
import XCTest

/// Doctor's "Live" section: present only for a rig with a webcam; a usable loopback is ok, anything else a blocker
/// that carries the fixes.
final class DoctorExaminationLiveTests: XCTestCase {
    private let member = DoctorFacts.User(name: "ana", uid: 1000, groups: ["video", "audio"],
                                                configuredGroups: ["video", "audio"])

    func testNoWebcamNoLiveSection() {
        let facts = DoctorFacts(user: member, rigName: "Desk")
        XCTAssertFalse(DoctorExamination.sections(of: facts).contains { $0.title == "Live" })
    }

    func testAReadyLoopbackIsOK() {
        var facts = DoctorFacts(user: member, rigName: "Desk")
        facts.webcam = DoctorFacts.Webcam(target: "label \"PauseCam\"",
                                          outcome: .ready(device: "/dev/video10", card: "PauseCam"))
        let live = DoctorExamination.sections(of: facts).first { $0.title == "Live" }
        XCTAssertEqual(live?.severity, .ok)
        XCTAssertEqual(live?.findings.first?.what,
                       "webcam label \"PauseCam\": /dev/video10 (\"PauseCam\") is a v4l2loopback device that takes the program")
    }

    func testAnUnusableWebcamBlocksWithItsFixes() {
        var facts = DoctorFacts(user: member, rigName: "Desk")
        facts.webcam = DoctorFacts.Webcam(target: "/dev/video10", outcome: .unusable(
            problem: "the v4l2loopback kernel module is not loaded", fixes: ["load it with `sudo modprobe v4l2loopback`"]))
        let sections = DoctorExamination.sections(of: facts)
        let live = sections.first { $0.title == "Live" }
        XCTAssertEqual(live?.severity, .blocker)
        XCTAssertEqual(live?.findings.first?.fixes, ["load it with `sudo modprobe v4l2loopback`"])
        XCTAssertEqual(DoctorExamination.blockers(in: sections).map(\.what),
                       ["webcam /dev/video10: the v4l2loopback kernel module is not loaded"])
    }
}
