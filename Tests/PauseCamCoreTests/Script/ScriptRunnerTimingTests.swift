import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// A command takes its time on the caller's clock before it is queued; long waits report progress.
final class ScriptRunnerTimingTests: XCTestCase {
    /// A simulated context whose serial context is `backlog` behind: `perform` first lets that much time pass
    /// (the frames queued in front of the command), as a busy real queue would.
    final class BackloggedSerialContext: SerialContext, @unchecked Sendable {
        let inner = SimulatedSerialContext()
        var backlog = MediaTime.zero
        var clock: any Clock { inner.clock }
        var isOnSerialContext: Bool { inner.isOnSerialContext }
        func schedule(at time: MediaTime, _ work: @escaping @Sendable () -> Void) { inner.schedule(at: time, work) }
        func perform<T>(_ work: () throws -> T) rethrows -> T {
            if backlog > .zero { inner.advance(until: inner.clock.now() + backlog) }
            return try inner.perform(work)
        }
        func advance(until time: MediaTime) -> Bool { inner.advance(until: time) }
        func interrupt() { inner.interrupt() }
    }

    /// The test rig's virtual lenses, running, on a `BackloggedSerialContext` (no backlog yet).
    static func backloggedRig() -> (BackloggedSerialContext, RigController, ScriptRunner) {
        let rig = EngineFixture.makeRig()
        let serialContext = BackloggedSerialContext()
        var cameras: [String: any Camera] = [:]
        for lens in rig.lenses {
            guard case .virtual(let color) = lens.source else { continue }
            cameras[lens.name] = VirtualLens(lens: lens.name, color: color, width: 64, height: 36, rate: FrameRate(30),
                                             serialContext: serialContext.inner)
        }
        let controller = EngineFixture.makeController(rig: rig, cameras: cameras, microphone: nil, sinkFactory: RecordingSinkFactory(),
                                       store: MemorySidecarStore(), serialContext: serialContext,
                                       wallClock: { Date(timeIntervalSince1970: 0) }, outputDirectory: "/v",
                                       finishing: InlineWorker(), devices: InlineWorker(), notify: { _ in })
        serialContext.perform { controller.startDevices() }
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        return (serialContext, controller, runner)
    }

    func testACommandTakesEffectWhenItWasGivenNotWhenTheQueueGetsToIt() throws {
        let (serialContext, controller, runner) = Self.backloggedRig()
        XCTAssertTrue(runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(runner.perform(.wait(.seconds(2))).ok)
        serialContext.backlog = .milliseconds(500)
        let given = runner.now
        XCTAssertTrue(runner.perform(.pause).ok)
        let pause = try XCTUnwrap(controller.clips.recorder?.session.pauses.last)
        // Read inside the queued block, the pause landed 500 ms late, at the backlog's end.
        XCTAssertEqual(pause.began, given)
        XCTAssertEqual(runner.now - given, .milliseconds(500))
    }

    /// A script's waits keep the script's own time: a step that takes long (here a serial context 300 ms behind at
    /// every command) shortens the wait after it, so scenes are as long as scripted, not longer by each step's cost.
    func testAScriptsWaitsDoNotAddUpTheTimeItsOtherStepsTake() throws {
        let (serialContext, _, runner) = Self.backloggedRig()
        let script = Rig.Script(name: "s", steps: [.record(name: nil), .wait(.seconds(2)), .pause, .wait(.seconds(1)),
                                                   .resume(name: nil), .wait(.seconds(2)), .stop])
        serialContext.backlog = .milliseconds(300)
        let start = runner.now
        let outcome = runner.run(script, onError: nil) { _, _ in }
        XCTAssertEqual(outcome, .completed(failedSteps: []))
        // Commands are given at 0, 2, 3 and 5 s of script time, each landing 300 ms later (after the backlog): the
        // scenes are 2 s each. Measured from the end of each command instead, each would be 300 ms longer.
        XCTAssertEqual(runner.now - start, .milliseconds(5900),
                       "the scripted 5 s, plus one backlog each for naming the script, its last step and unnaming it")
        let clip = try XCTUnwrap(runner.finishClip())
        XCTAssertEqual(clip.sidecar.scenes.map(\.duration), [2, 2])
    }

    /// A simulated context whose caller loses `loss` after each reading of the clock outside the engine's work (the
    /// script's thread preempted on a loaded machine): the time goes on while it waits to run again.
    final class PreemptedSerialContext: SerialContext, @unchecked Sendable {
        final class LosingClock: Clock, @unchecked Sendable {
            unowned let owner: PreemptedSerialContext
            init(owner: PreemptedSerialContext) { self.owner = owner }
            func now() -> MediaTime {
                let time = owner.inner.clock.now()
                if owner.inside == 0 && owner.loss > .zero {
                    owner.inside += 1
                    owner.inner.advance(until: time + owner.loss)
                    owner.inside -= 1
                }
                return time
            }
        }
        let inner = SimulatedSerialContext()
        var loss = MediaTime.zero
        var inside = 0
        private(set) lazy var losingClock = LosingClock(owner: self)
        var clock: any Clock { losingClock }
        var isOnSerialContext: Bool { inner.isOnSerialContext }
        func schedule(at time: MediaTime, _ work: @escaping @Sendable () -> Void) { inner.schedule(at: time, work) }
        func perform<T>(_ work: () throws -> T) rethrows -> T {
            inside += 1
            defer { inside -= 1 }
            return try inner.perform(work)
        }
        func advance(until time: MediaTime) -> Bool {
            inside += 1
            defer { inside -= 1 }
            return inner.advance(until: time)
        }
        func interrupt() { inner.interrupt() }
    }

    /// A script that starts with `record` records its waits in full even when its thread loses time between two
    /// readings of the clock: the script's clock starts at the `record`'s own time, not at a reading taken before
    /// it (which, 20 ms earlier, ended the scene 20 ms early: 89 frames for a scripted 3 s).
    func testAScriptsFirstRecordGetsItsWholeWaitWhenTheThreadLosesTimeBetweenReadings() throws {
        let rig = EngineFixture.makeRig()
        let serialContext = PreemptedSerialContext()
        var cameras: [String: any Camera] = [:]
        for lens in rig.lenses {
            guard case .virtual(let color) = lens.source else { continue }
            cameras[lens.name] = VirtualLens(lens: lens.name, color: color, width: 64, height: 36, rate: FrameRate(30),
                                             serialContext: serialContext.inner)
        }
        let controller = EngineFixture.makeController(rig: rig, cameras: cameras, microphone: nil, sinkFactory: RecordingSinkFactory(),
                                       store: MemorySidecarStore(), serialContext: serialContext,
                                       wallClock: { Date(timeIntervalSince1970: 0) }, outputDirectory: "/v",
                                       finishing: InlineWorker(), devices: InlineWorker(), notify: { _ in })
        serialContext.perform { controller.startDevices() }
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        serialContext.loss = .milliseconds(20)
        let script = Rig.Script(name: "s", steps: [.record(name: nil), .wait(.seconds(3)), .stop])
        XCTAssertEqual(runner.run(script, onError: nil) { _, _ in }, .completed(failedSteps: []))
        serialContext.loss = .zero
        let clip = try XCTUnwrap(runner.finishClip())
        XCTAssertEqual(clip.sidecar.scenes.map(\.duration), [3])
        XCTAssertEqual(clip.sidecar.video.framesWritten, 90)
    }

    func testALongWaitReportsProgressAndEndsWithNil() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        var reports: [WaitProgress?] = []
        fixture.runner.progress = { reports.append($0) }
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(3))).ok)
        XCTAssertEqual(reports.last, .some(nil))
        let updates = reports.compactMap { $0 }
        // One report after each 250 ms slice but the last: 11.
        XCTAssertEqual(updates.count, 11)
        XCTAssertEqual(updates.first?.scriptedTimeLeft, .milliseconds(2750))
        XCTAssertEqual(updates.last?.scriptedTimeLeft, .milliseconds(250))
        XCTAssertEqual(updates.last?.movieTime ?? .zero, .milliseconds(2750), accuracy: .milliseconds(34))
    }

    func testAShortWaitOutsideAScriptReportsNothing() {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        var reports = 0
        fixture.runner.progress = { _ in reports += 1 }
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(2))).ok)
        XCTAssertEqual(reports, 0)
    }

    func testEveryWaitOfALongScriptReportsTheScriptsTimeLeft() {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        var lefts: [MediaTime] = []
        fixture.runner.progress = { if let p = $0 { lefts.append(p.scriptedTimeLeft) } }
        let script = Rig.Script(name: "s", steps: [.record(name: nil), .wait(.seconds(1)), .pause,
                                                   .wait(.seconds(1)), .resume(name: nil), .wait(.seconds(1)), .stop])
        XCTAssertEqual(fixture.runner.run(script, onError: nil) { _, _ in }, .completed(failedSteps: []))
        XCTAssertEqual(lefts.first, .milliseconds(2750))
        XCTAssertEqual(lefts.last, .milliseconds(250))
        XCTAssertEqual(lefts, lefts.sorted(by: >))
    }
}

private func XCTAssertEqual(_ a: MediaTime, _ b: MediaTime, accuracy: MediaTime,
                            file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertLessThanOrEqual(a > b ? a - b : b - a, accuracy, "\(a.seconds) vs \(b.seconds)", file: file, line: line)
}
