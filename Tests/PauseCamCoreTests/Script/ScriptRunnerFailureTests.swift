import XCTest
@testable import PauseCamCore

/// `set -e` for scene scripts: the first failed step ends the script and is named; `on_error: continue` and
/// `--keep-going` run every step and list the failures.
final class ScriptRunnerFailureTests: XCTestCase {
    private let steps: [Command] = [.record(name: "Intro"), .wait(.seconds(1)), .lens(.named("nosuch")),
                                    .wait(.seconds(30)), .stop]
    private let marks = (10...14).map { SourceMark(file: "rigs/desk.yaml", line: $0, column: 7) }

    func testTheFirstFailedStepEndsTheScriptAndIsNamedByFileAndLine() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        let start = fixture.runner.now
        let script = Rig.Script(name: "intro", steps: steps, stepMarks: marks)
        var reported: [String] = []
        let outcome = fixture.runner.run(script, onError: nil) { step, _ in reported.append(step.word) }
        guard case .stopped(let failure) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(failure.index, 2)
        XCTAssertEqual(failure.mark, marks[2])
        XCTAssertEqual(failure.step, "lens nosuch")
        XCTAssertTrue(failure.description.hasPrefix("rigs/desk.yaml:12: step \"lens nosuch\" failed: no lens"),
                      failure.description)
        XCTAssertEqual(reported, ["record", "wait", "lens"])
        // The 30 s wait never ran; the clip in progress is saved with its one second.
        XCTAssertEqual(fixture.runner.now - start, .seconds(1))
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertEqual(clip.sidecar.duration, 1, accuracy: 1.0 / 30 + 1e-9)
    }

    func testAStepWithoutAMarkIsNamedByItsNumber() {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        let outcome = fixture.runner.run(Rig.Script(name: "s", steps: steps), onError: nil) { _, _ in }
        guard case .stopped(let failure) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(failure.description.hasPrefix("step 3 \"lens nosuch\" failed: no lens"), failure.description)
    }

    func testContinueRunsEveryStepAndListsTheFailures() {
        for (onError, scriptPolicy) in [(Rig.Script.OnError?.some(.continue), Rig.Script.OnError.stop),
                                        (nil, .continue)] {
            let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
            let start = fixture.runner.now
            let script = Rig.Script(name: "s", steps: steps, stepMarks: marks, onError: scriptPolicy)
            let outcome = fixture.runner.run(script, onError: onError) { _, _ in }
            XCTAssertEqual(outcome, .completed(failedSteps: [
                ScriptStepFailure(index: 2, mark: marks[2], step: "lens nosuch",
                                  message: "no lens \"nosuch\"; lenses: wide, main, tele")]))
            XCTAssertFalse(outcome.succeeded)
            XCTAssertEqual(fixture.runner.now - start, .seconds(31))
        }
    }

    func testTheShellsEntryPointFollowsTheScriptsPolicy() {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        XCTAssertFalse(fixture.runner.run(Rig.Script(name: "s", steps: steps)) { _, _ in })
        let clean = Rig.Script(name: "ok", steps: [.record(name: nil), .wait(.seconds(1)), .stop])
        _ = fixture.runner.finishClip()
        XCTAssertTrue(fixture.runner.run(clean) { _, _ in })
    }
}
