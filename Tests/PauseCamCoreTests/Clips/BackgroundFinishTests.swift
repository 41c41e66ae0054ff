import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// The serial context never waits: a stopped clip is finished by a worker while the next one records, and devices'
/// samples reach the context through bounded mailboxes, one drain per batch.
final class BackgroundFinishTests: XCTestCase {
    /// A worker that keeps its jobs until the test lets them run: a remux that takes as long as the test wants.
    final class HeldWorker: BackgroundWorker, @unchecked Sendable {
        private let lock = NSLock()
        private var jobs: [@Sendable () -> Void] = []
        func submit(_ work: @escaping @Sendable () -> Void) { lock.withLock { jobs.append(work) } }
        var held: Int { lock.withLock { jobs.count } }
        func release() {
            let taken = lock.withLock { () -> [@Sendable () -> Void] in
                defer { jobs = [] }
                return jobs
            }
            for job in taken { job() }
        }
    }

    /// A camera whose frames the test delivers by hand, from its own thread, in bursts.
    final class BurstCamera: Camera, @unchecked Sendable {
        let displayName = "Burst main"
        let format = CameraFormat(width: 64, height: 36, rate: FrameRate(30), pixelFormat: .yuv420p)
        private let lens: VirtualLens
        private let lock = NSLock()
        private var deliver: (@Sendable (VideoFrame) -> Void)?
        init(serialContext: any SerialContext) {
            lens = VirtualLens(lens: "main", color: RGBColor(hex: "#20c040")!, width: 64, height: 36,
                               rate: FrameRate(30), serialContext: serialContext)
        }
        func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) {
            lock.withLock { self.deliver = deliver }
        }
        func stop() { lock.withLock { deliver = nil } }
        /// Delivers the frames captured at `times`, one after the other, as a camera thread would.
        func burst(_ times: [MediaTime]) {
            let deliver = lock.withLock { self.deliver }
            for time in times { deliver?(lens.render(pts: time, previous: nil)) }
        }
    }

    func testRecordRightAfterStopStartsWhileTheFirstClipIsStillBeingFinished() throws {
        let worker = HeldWorker()
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig(), finishing: worker)
        for step: Command in [.record(name: nil), .wait(.seconds(1)), .stop, .wait(RigController.stopGrace)] {
            XCTAssertTrue(fixture.runner.perform(step).ok, "\(step)")
        }
        let first = try XCTUnwrap(fixture.factory.sinks.first)
        XCTAssertFalse(first.finished, "the stopped clip was finished before its worker ran")
        let second = fixture.runner.perform(.record(name: nil))
        XCTAssertTrue(second.ok, second.message)
        XCTAssertFalse(first.finished, "the first clip was finished on the serial context")
        XCTAssertEqual(fixture.controller.status.state, .recording)
        XCTAssertEqual(fixture.controller.status.saving, [first.moviePath])
        XCTAssertTrue(fixture.controller.statusLine().contains("saving \((first.moviePath as NSString).lastPathComponent)…"))
        XCTAssertNil(fixture.controller.clips.outcome.savedClip)
        XCTAssertFalse(fixture.events.contains { if case .clipSaved = $0 { true } else { false } })
        // The second clip records on while the first waits for its remux.
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        XCTAssertEqual(fixture.controller.status.timer, .seconds(1))

        worker.release()
        XCTAssertTrue(first.finished)
        fixture.serialContext.runDue()
        XCTAssertEqual(fixture.controller.clips.outcome.savedClip?.moviePath, first.moviePath)
        XCTAssertEqual(fixture.controller.status.saving, [])
        XCTAssertEqual(fixture.events.filter { if case .clipSaved = $0 { true } else { false } }.count, 1, "\(fixture.events)")
        XCTAssertEqual(first.video.count, 30)
    }

    /// On the simulated clock the "saved" event comes one session second after the hand-over, however long the
    /// worker takes: never before (even when the worker was done at once), and never later (the event waits).
    func testSavedEventsComeAtAFixedSessionTimeWithTheSimulatedPolicy() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig(), finishing: SerialQueueWorker(label: "test"),
                                                savedEvents: .after(.seconds(1)))
        for step: Command in [.record(name: nil), .wait(.seconds(1)), .stop, .wait(RigController.stopGrace)] {
            XCTAssertTrue(fixture.runner.perform(step).ok, "\(step)")
        }
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertTrue(fixture.runner.perform(.wait(.milliseconds(900))).ok)
        XCTAssertFalse(fixture.events.contains { if case .clipSaved = $0 { true } else { false } }, "saved before its session time")
        XCTAssertEqual(fixture.controller.status.saving.count, 1)
        XCTAssertTrue(fixture.runner.perform(.wait(.milliseconds(100))).ok)
        XCTAssertEqual(fixture.events.filter { if case .clipSaved = $0 { true } else { false } }.count, 1, "\(fixture.events)")
        XCTAssertEqual(fixture.controller.status.saving, [])
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertEqual(clip.moviePath, fixture.factory.sinks[1].moviePath)
    }

    /// A burst of ten frames into a mailbox of four: one drain is scheduled, not ten; the four newest arrive in
    /// order; the six oldest are dropped and counted in the clip's sidecar under the lens.
    func testABurstIsOneDrainKeepsTheNewestAndCountsTheRestInTheSidecar() throws {
        var rig = EngineFixture.makeRig()
        rig.lenses = rig.lenses.filter { $0.name == "main" }
        rig.audio = Rig.AudioInput(device: .none)
        let serialContext = SimulatedSerialContext()
        let camera = BurstCamera(serialContext: serialContext)
        let factory = RecordingSinkFactory()
        let box = EngineFixture.EventBox()
        let controller = EngineFixture.makeController(rig: rig, cameras: ["main": camera], microphone: nil, sinkFactory: factory,
                                       store: MemorySidecarStore(), serialContext: serialContext,
                                       wallClock: { Date(timeIntervalSince1970: 1_800_000_000) },
                                       outputDirectory: "/videos", finishing: InlineWorker(), devices: InlineWorker(), notify: { box.record($0) })
        controller.startDevices()
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        let start = serialContext.clock.now()
        XCTAssertTrue(runner.perform(.record(name: nil)).ok)
        let pending = serialContext.pendingCount
        // Six frames more than the lens's mailbox holds.
        let burst = RigController.videoMailboxCapacity(for: rig.lens(named: "main"), output: rig.output) + 6
        camera.burst((0..<burst).map { start + MediaTime(value: Int64($0), timescale: 30) })
        XCTAssertEqual(serialContext.pendingCount, pending + 1, "one drain for the whole burst")
        XCTAssertTrue(runner.perform(.wait(MediaTime(value: Int64(burst), timescale: 30))).ok)
        camera.burst([start + MediaTime(value: Int64(burst), timescale: 30),
                      start + MediaTime(value: Int64(burst + 1), timescale: 30)])
        XCTAssertTrue(runner.perform(.stop).ok)
        let clip = try XCTUnwrap(runner.finishClip())
        XCTAssertEqual(clip.sidecar.devices.map(\.role), ["main"])
        XCTAssertEqual(clip.sidecar.devices.first?.dropped, 6)
        XCTAssertTrue(clip.sidecar.warnings.contains { $0.contains("6 frames from main dropped") }, "\(clip.sidecar.warnings)")
        XCTAssertTrue(box.events.contains {
            if case .clipSaved(let clip) = $0 { clip.mailboxDrops == [.init(role: "main", count: 6)] } else { false }
        }, "\(box.events)")
        // The frames kept reached the movie in order, from the newest of the burst on.
        let times = try XCTUnwrap(factory.sinks.first).video.map(\.time)
        XCTAssertEqual(times, times.sorted())
        XCTAssertFalse(times.isEmpty)
    }
}
