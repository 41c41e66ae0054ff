import XCTest
@testable import PauseCamCore

/// `doctor`'s group section from facts: every blocker a member's `record` meets — no `group.host`, a broker that
/// does not answer, an unsynchronised clock with `require_sync: true` — is a blocker with its fix; the same clock
/// with `require_sync: false` only warns.
final class DoctorExaminationGroupTests: XCTestCase {
    private let unsynchronised = ClockSynchronisation(unsynchronised: true, maximumErrorMicroseconds: 16_000_000,
                                                      estimatedErrorMicroseconds: 16_000_000)
    private let synchronised = ClockSynchronisation(unsynchronised: false, maximumErrorMicroseconds: 100,
                                                    estimatedErrorMicroseconds: 20)

    private func group(host: String? = "cam-a", broker: DoctorFacts.Group.Broker = .answered, requireSync: Bool = true,
                       clock: ClockSynchronisation?) -> DoctorFacts.Group {
        DoctorFacts.Group(name: "studio", host: host, brokerAddress: "mqtt://127.0.0.1:1883", broker: broker,
                          requireSync: requireSync, rate: FrameRate(30), clock: clock)
    }

    func testEachBlockerOfRecordIsABlockerWithItsFix() throws {
        let section = DoctorExamination.group(group(host: nil, broker: .noAnswer("connection refused"),
                                                    clock: unsynchronised))
        XCTAssertEqual(section.findings.map(\.severity), [.blocker, .blocker, .blocker])
        XCTAssertEqual(section.findings[1].what,
                       "group studio: the broker at mqtt://127.0.0.1:1883 does not answer (connection refused)")
        XCTAssertTrue(section.findings[1].fixes[0].contains("sudo systemctl start mosquitto"), "\(section.findings[1])")
        XCTAssertEqual(section.findings[2].why, "`record` is refused on it (group: {require_sync: true})")
        XCTAssertTrue(section.findings[2].fixes.contains { $0.contains("chrony") }, "\(section.findings[2])")
        XCTAssertTrue(section.findings[2].fixes.contains { $0.contains("require_sync: false") }, "\(section.findings[2])")

        // Through the whole examination: doctor's exit status says the rig cannot record.
        var facts = DoctorFacts(user: DoctorFacts.User(name: "ana", uid: 1000, groups: [], configuredGroups: []),
                                rigName: "Member", needsCameras: false, needsSound: false)
        facts.group = group(clock: unsynchronised)
        XCTAssertEqual(DoctorReport.exitStatus(DoctorExamination.sections(of: facts)), 1)
        facts.group = group(clock: synchronised)
        XCTAssertEqual(DoctorReport.exitStatus(DoctorExamination.sections(of: facts)), 0)
    }

    func testRequireSyncFalseTurnsTheClockIntoAWarningWithoutAdviceToAllowIt() {
        let section = DoctorExamination.group(group(requireSync: false, clock: unsynchronised))
        XCTAssertEqual(section.findings.map(\.severity), [.ok, .warning])
        XCTAssertFalse(section.findings[1].fixes.contains { $0.contains("require_sync") }, "\(section.findings[1])")
        let fine = DoctorExamination.group(group(clock: synchronised))
        XCTAssertEqual(fine.findings.map(\.severity), [.ok, .ok])
        XCTAssertEqual(DoctorExamination.group(group(clock: nil)).findings.map(\.severity), [.ok, .note])
    }
}
