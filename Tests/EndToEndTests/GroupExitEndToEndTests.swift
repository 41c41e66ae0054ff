import Foundation
import PauseCamCore
import PauseCamTestHelpers
import XCTest

/// A group member's session ends while it records — `quit`, the end of its input, SIGTERM, SIGHUP, a double
/// Ctrl-C, or SIGTERM to `pausecam run` — with the broker up: the member stops and saves its own clip at once, as a
/// rig without a group does, and never waits for its commands to come back from the broker.
final class GroupExitEndToEndTests: XCTestCase {
    private enum WayOut: String, CaseIterable {
        case quit, endOfInput, terminate, hangUp, doubleInterrupt

        var status: Int32 {
            switch self {
            case .quit, .endOfInput: return 0
            case .terminate: return 143
            case .hangUp: return 129
            case .doubleInterrupt: return 130
            }
        }
    }

    func testEveryWayOutOfAMembersShellSavesItsClip() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try ProcessRunner.temporaryDirectory("group-exit")
        let rig = try GroupMemberRig.write(host: "cam-a", broker: broker.url, in: directory)
        for way in WayOut.allCases {
            let output = directory.appendingPathComponent(way.rawValue)
            let member = try RunningCommand(["shell", rig.path, "--output", output.path], keepInputOpen: true)
            let transcript = { "\(way): " + member.stdout + member.stderr }
            XCTAssertTrue(member.waitFor("joined group studio"), transcript())
            member.send("record Take")
            XCTAssertTrue(member.waitFor("recording scene 1"), transcript())
            // The shell's own wait: the clip holds a second of pictures before the member is asked to end.
            member.send("wait 1s")
            XCTAssertTrue(member.waitFor("waited 00:00:01.0"), transcript())
            let process = member.process.processIdentifier
            switch way {
            case .quit: member.send("quit")
            case .endOfInput: member.closeInput()
            case .terminate: kill(process, SIGTERM)
            case .hangUp: kill(process, SIGHUP)
            case .doubleInterrupt:
                kill(process, SIGINT)
                XCTAssertTrue(member.waitFor("press Ctrl-C again"), transcript())
                kill(process, SIGINT)
            }
            XCTAssertEqual(member.waitForExit(seconds: 60), way.status, transcript())
            let sidecar = try GroupMemberRig.assertSaved(host: "cam-a", in: output, context: transcript())
            XCTAssertEqual(sidecar.scenes.map(\.title), ["Take"], transcript())
            XCTAssertGreaterThanOrEqual(sidecar.duration, 0.9, transcript())
            XCTAssertTrue(member.stdout.contains("* saved "), transcript())
        }
    }

    /// `pausecam run` of a group rig, stopped by SIGTERM in the middle of its script's long wait: the clip is saved
    /// with the scenes recorded so far, and the exit status is 143.
    func testSIGTERMToAMembersRunSavesItsClip() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try ProcessRunner.temporaryDirectory("group-run-exit")
        let rig = try GroupMemberRig.write(host: "cam-a", broker: broker.url, in: directory)
        let output = directory.appendingPathComponent("out")
        let run = try RunningCommand(["run", rig.path, "--script", "long", "--output", output.path])
        let transcript = { run.stdout + run.stderr }
        XCTAssertTrue(run.waitFor("resume Second: sent to group studio"), transcript())
        kill(run.process.processIdentifier, SIGTERM)
        XCTAssertEqual(run.waitForExit(seconds: 60), 143, transcript())
        XCTAssertFalse(run.stdout.contains("no clip was recorded"), transcript())
        XCTAssertTrue(run.stdout.contains("movie:   \(output.path)/group-cam-a.mov"), transcript())
        let sidecar = try GroupMemberRig.assertSaved(host: "cam-a", in: output, context: transcript())
        XCTAssertEqual(sidecar.scenes.map(\.title), ["First", "Second"], transcript())
    }
}
