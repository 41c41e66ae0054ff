import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// The program's injected faults: none asked for is no hooks at all, and a finish held by the remux gate goes on
/// once the gate file exists. (The delays and the SIGKILL at a step are shown through the binary:
/// `SlowEncoderEndToEndTests`, `RecordingEndToEndTests`, `InPlaceFinishEndToEndTests`.)
final class InjectedFaultsTests: XCTestCase {
    func testNoFaultAskedForIsEmpty() {
        XCTAssertTrue(InjectedFaults().isEmpty)
        XCTAssertFalse(InjectedFaults(encodeDelay: .milliseconds(1)).isEmpty)
        XCTAssertFalse(InjectedFaults(openDelay: .milliseconds(1)).isEmpty)
        XCTAssertFalse(InjectedFaults(remuxGate: "/nonexistent").isEmpty)
        XCTAssertFalse(InjectedFaults(killAt: .switched).isEmpty)
    }

    func testAFinishWaitsForTheGateFileAndGoesOnOnceItExists() throws {
        let folder = try MovieWriterFixture.directory("remux-gate")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gate = folder + "/open"
        let faults = InjectedFaults(remuxGate: gate)
        let passed = Flag()
        let done = expectation(description: "the finish went on")
        Thread.detachNewThread {
            faults.willFinishMovie(folder + "/clip.mov")
            passed.raise()
            done.fulfill()
        }
        // The finish is still held: nothing has made the gate yet. (A held finish could only be seen as not having
        // passed; that it stays held is what the end-to-end background-finish tests rely on.)
        XCTAssertFalse(passed.isRaised, "the finish went on before the gate existed")
        XCTAssertTrue(FileManager.default.createFile(atPath: gate, contents: Data()))
        wait(for: [done], timeout: 30)
        XCTAssertTrue(passed.isRaised)
    }

    func testAStepOtherThanTheOneAskedForDoesNothing() {
        let faults = InjectedFaults(killAt: .linked)
        for step in InPlaceFinishStep.allCases where step != .linked { faults.didReachFinishStep(step) }
        // Still alive: only `.linked` kills.
    }
}

/// A flag one thread raises and another reads.
private final class Flag: Sendable {
    private let raised = Guarded(false)
    var isRaised: Bool { raised.withLock { $0 } }
    func raise() { raised.withLock { $0 = true } }
}
