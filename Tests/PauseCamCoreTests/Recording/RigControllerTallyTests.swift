import XCTest
@testable import PauseCamCore

/// `preview LENS|off` and the controller's tally board through real commands on the virtual rig and the simulated
/// clock.
final class RigControllerTallyTests: XCTestCase {
    private func tally(_ fixture: EngineFixture.Fixture) -> [TallyState] {
        let controller = fixture.controller
        return fixture.serialContext.perform { controller.tallyBoard.entries.map(\.state) }
    }

    func testPreviewAndProgramFollowTheCommands() {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        fixture.controller.startDevices()
        let runner = fixture.runner
        // Lenses wide, main, tele; main is the default.
        let steps: [(Command, [TallyState])] = [
            (.wait(.milliseconds(200)), [.off, .off, .off]),
            (.preview("tele"), [.off, .off, .preview]),
            (.record(name: nil, countdown: 0), [.off, .program, .preview]),
            (.wait(.milliseconds(300)), [.off, .program, .preview]),
            (.lens(.named("tele")), [.off, .off, .program]),
            (.wait(.milliseconds(300)), [.off, .off, .program]),
            (.preview("wide"), [.preview, .off, .program]),
            (.pause, [.preview, .off, .off]),
            (.resume(name: nil), [.preview, .off, .program]),
            (.preview(nil), [.off, .off, .program]),
            (.wait(.milliseconds(300)), [.off, .off, .program]),
            (.stop, [.off, .off, .off]),
            (.wait(.milliseconds(300)), [.off, .off, .off]),
        ]
        for (command, expected) in steps {
            XCTAssertTrue(runner.perform(command).ok, "\(command)")
            XCTAssertEqual(tally(fixture), expected, "after \(command)")
        }
        let controller = fixture.controller
        let status = fixture.serialContext.perform { controller.status }
        XCTAssertEqual(status.tally.map(\.lens), ["wide", "main", "tele"])
    }

    func testPreviewOfAnUnknownLensIsRefused() {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        let controller = fixture.controller
        let reply = fixture.serialContext.perform { controller.execute(.preview("side"), at: .zero) }
        XCTAssertFalse(reply.ok)
        XCTAssertTrue(reply.message.contains("unknown lens \"side\""), reply.message)
    }

    func testPreviewParsesAndPrintsBack() {
        let named = CommandParser(lenses: ["wide", "off"], zoomPresets: [], exposurePresets: [], scripts: nil)
        XCTAssertEqual(try named.parse("preview wide").get(), .preview("wide"))
        XCTAssertEqual(try named.parse("preview off").get(), .preview("off"), "a lens named off wins")
        let parser = CommandParser(lenses: ["wide"], zoomPresets: [], exposurePresets: [], scripts: nil)
        XCTAssertEqual(try parser.parse("preview OFF").get(), .preview(nil))
        guard case .failure = parser.parse("preview side") else { return XCTFail("an unknown lens was accepted") }
        guard case .failure = parser.parse("preview") else { return XCTFail("preview without a lens was accepted") }
        for command in [Command.preview(nil), .preview("wide")] {
            XCTAssertEqual(try parser.parse(CommandParser.line(for: command)).get(), command)
            XCTAssertTrue(command.isScriptStep)
        }
        XCTAssertTrue(Command.words.contains("preview"))
    }
}
