import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// `RigController` with `preroll:` on the simulated clock: a lens switch made before the press stays where it was
/// in the scene taken back, and the ring's memory stays within the rig's budget, the clip told when it was reached.
final class RigControllerPrerollTests: XCTestCase {
    func rig(memory: Int = Rig.Preroll.defaultMemory) -> Rig {
        var rig = EngineFixture.makeRig()
        rig.preroll = Rig.Preroll(length: .seconds(3), memoryBytes: memory)
        return rig
    }

    func testTheScenesPrerollKeepsTheLensesAsTheyWere() throws {
        let fixture = EngineFixture.makeFixture(rig: rig())
        let steps: [Command] = [.wait(.seconds(4)), .lens(.named("tele")), .wait(.milliseconds(1500)),
                                .record(name: nil), .wait(.seconds(1)), .stop]
        for step in steps { XCTAssertTrue(fixture.runner.perform(step).ok, "\(step)") }
        _ = try XCTUnwrap(fixture.runner.finishClip())
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        // Pressed at 5.5 s: the scene begins at 2.5 s; main until the switch at 4 s, then tele.
        XCTAssertEqual(sink.video.count, 4 * 30)
        XCTAssertEqual(sink.video.first?.lens, "main")
        XCTAssertEqual(sink.video.filter { $0.lens == "main" }.count, 45)
        XCTAssertEqual(sink.video.last?.lens, "tele")
    }

    func testTheRingStaysWithinItsBudgetAndTheClipIsTold() throws {
        // A 64×36 frame is 3,456 bytes: 100 kB holds under a second of pictures and sound.
        let budget = 100_000
        let fixture = EngineFixture.makeFixture(rig: rig(memory: budget))
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(5))).ok)
        let ring = try XCTUnwrap(fixture.serialContext.perform { fixture.controller.prerollState?.ring })
        XCTAssertGreaterThan(ring.budgetDrops, 0)
        XCTAssertLessThanOrEqual(ring.largestBytes, budget)
        XCTAssertGreaterThan(ring.largestBytes, budget / 2, "the ring kept far less than it could")
        for step: Command in [.record(name: nil), .wait(.seconds(1)), .stop] {
            XCTAssertTrue(fixture.runner.perform(step).ok, "\(step)")
        }
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertTrue(clip.sidecar.warnings.contains { $0.contains("preroll: the kept frames reached the memory budget") },
                      "\(clip.sidecar.warnings)")
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        XCTAssertGreaterThan(sink.video.count, 30, "the preroll gave nothing")
        XCTAssertLessThan(sink.video.count, 2 * 30, "the preroll reached further back than its budget holds")
    }
}
