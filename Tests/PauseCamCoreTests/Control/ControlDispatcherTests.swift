import Foundation
import XCTest
@testable import PauseCamCore

/// The control socket's and the pedals' way into the engine: one request line, one command, carried out on the
/// serial context and told to the engine's listeners with its source.
final class ControlDispatcherTests: XCTestCase {
    private func dispatcher(_ fixture: EngineFixture.Fixture, web: String? = nil) -> ControlDispatcher {
        ControlDispatcher(controller: fixture.controller, serialContext: fixture.serialContext,
                          parser: CommandParser(rig: fixture.controller.rig), rigName: "Test rig", webAddress: web)
    }

    private func reply(_ answer: ControlDispatcher.Answer) -> ControlReply? {
        if case .reply(let reply) = answer { return reply }
        return nil
    }

    func testACommandIsCarriedOutAndToldWithItsSource() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        let dispatcher = dispatcher(fixture)
        let recorded = try XCTUnwrap(reply(dispatcher.answer("record Intro", from: .remote)))
        XCTAssertTrue(recorded.ok, recorded.message)
        XCTAssertEqual(fixture.controller.status.state, .recording)
        _ = fixture.runner.perform(.wait(.seconds(1)))
        let marked = try XCTUnwrap(reply(dispatcher.answer("mark good", from: .signal(name: "SIGUSR2"))))
        XCTAssertTrue(marked.ok, marked.message)
        let commands = fixture.box.commands
        XCTAssertEqual(commands.map(\.line), ["record Intro", "mark good"])
        XCTAssertEqual(commands.map(\.source), [.remote, .signal(name: "SIGUSR2")])
        XCTAssertEqual(commands.last?.state, .recording)
        XCTAssertEqual(commands.last?.scene, 1)
        XCTAssertGreaterThanOrEqual(commands.last?.movieTime ?? .zero, .seconds(1))
    }

    /// Refusals are replies with `ok` false, told too; `status` is answered but not told (a polling status bar
    /// would flood every listener); `wait` belongs to scripts and the shell.
    func testRefusalsStatusAndWait() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        let dispatcher = dispatcher(fixture)
        let refused = try XCTUnwrap(reply(dispatcher.answer("pause")))
        XCTAssertFalse(refused.ok)
        XCTAssertTrue(refused.message.contains("not recording"), refused.message)
        XCTAssertEqual(fixture.box.commands.map(\.ok), [false])

        let status = try XCTUnwrap(reply(dispatcher.answer("status")))
        XCTAssertTrue(status.ok)
        XCTAssertTrue(status.message.hasPrefix("state idle"), status.message)
        XCTAssertEqual(fixture.box.commands.count, 1, "status is not told")

        let wait = try XCTUnwrap(reply(dispatcher.answer("wait 1s")))
        XCTAssertFalse(wait.ok)
        let unknown = try XCTUnwrap(reply(dispatcher.answer("fly away")))
        XCTAssertFalse(unknown.ok)
        XCTAssertEqual(fixture.box.commands.count, 1, "what never reached the engine is not told")
    }

    func testStatusJSONCarriesTheMonitorsAddressAndWatchIsAnswered() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        let json = try XCTUnwrap(reply(dispatcher(fixture, web: "http://127.0.0.1:8360/").answer("status --json")))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.message.utf8)) as? [String: Any])
        XCTAssertEqual(object["web"] as? String, "http://127.0.0.1:8360/")
        XCTAssertEqual(object["rig"] as? String, "Test rig")
        XCTAssertEqual(object["state"] as? String, "idle")
        let off = try XCTUnwrap(reply(dispatcher(fixture).answer("status --json")))
        let offObject = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(off.message.utf8)) as? [String: Any])
        XCTAssertTrue(offObject["web"] is NSNull)
        guard case .watch(let watching) = dispatcher(fixture).answer("watch") else {
            return XCTFail("watch is not a watch answer")
        }
        XCTAssertTrue(watching.ok)
    }
}
