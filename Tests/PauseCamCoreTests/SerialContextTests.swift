import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// The engine's classes have no locks: their entry points check that they run on the serial context, and the
/// devices' callbacks do not keep (or crash on) a controller that is gone. Tested like swift-nio tests its loop
/// checks: the predicate itself, and a context whose check reports instead of trapping.
final class SerialContextTests: XCTestCase {
    /// A simulated context whose serial context is only the inside of `perform` and its events, and whose
    /// check records a violation instead of trapping.
    final class StrictSerialContext: SerialContext, @unchecked Sendable {
        let inner = SimulatedSerialContext()
        private let lock = NSLock()
        private var depth = 0
        private var recorded: [String] = []
        var violations: [String] { lock.withLock { recorded } }
        var clock: any Clock { inner.clock }
        var isOnSerialContext: Bool { lock.withLock { depth > 0 } }
        func serialContextViolated(in function: StaticString, file: StaticString, line: UInt) {
            lock.withLock { recorded.append("\(function)") }
        }
        private func inside<T>(_ work: () throws -> T) rethrows -> T {
            lock.withLock { depth += 1 }
            defer { lock.withLock { depth -= 1 } }
            return try work()
        }
        func schedule(at time: MediaTime, _ work: @escaping @Sendable () -> Void) {
            inner.schedule(at: time) { [self] in inside(work) }
        }
        func perform<T>(_ work: () throws -> T) rethrows -> T { try inside(work) }
        func advance(until time: MediaTime) -> Bool { inner.advance(until: time) }
        func interrupt() { inner.interrupt() }
    }

    private func makeController(serialContext: StrictSerialContext) -> RigController {
        let rig = EngineFixture.makeRig()
        var cameras: [String: any Camera] = [:]
        for lens in rig.lenses {
            guard case .virtual(let color) = lens.source else { continue }
            cameras[lens.name] = VirtualLens(lens: lens.name, color: color, width: 64, height: 36, rate: FrameRate(30),
                                             serialContext: serialContext.inner)
        }
        return EngineFixture.makeController(rig: rig, cameras: cameras, microphone: VirtualMicrophone(serialContext: serialContext.inner),
                             sinkFactory: RecordingSinkFactory(), store: MemorySidecarStore(), serialContext: serialContext,
                             wallClock: { Date(timeIntervalSince1970: 0) }, outputDirectory: "/v", finishing: InlineWorker(), devices: InlineWorker(), notify: { _ in })
    }

    func testEntryPointsCalledOffTheSerialContextAreReported() {
        let serialContext = StrictSerialContext()
        let controller = makeController(serialContext: serialContext)
        controller.startDevices()
        _ = controller.execute(.status, at: serialContext.clock.now())
        _ = controller.status
        // `status` twice: once inside `execute(.status)` (its status line), once read directly.
        XCTAssertEqual(serialContext.violations, ["startDevices()", "execute(_:at:from:)", "status", "status"])
    }

    func testTheEngineDrivenThroughTheSerialContextNeverTripsTheCheck() throws {
        let serialContext = StrictSerialContext()
        let controller = makeController(serialContext: serialContext)
        serialContext.perform { controller.startDevices() }
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        let script = Rig.Script(name: "s", steps: [.record(name: nil), .wait(.seconds(1)), .pause, .wait(.seconds(1)),
                                                   .resume(name: nil), .mark("here"), .wait(.seconds(1)), .stop])
        XCTAssertEqual(runner.run(script, onError: nil) { _, _ in }, .completed(failedSteps: []))
        XCTAssertNotNil(runner.finishClip())
        serialContext.perform { controller.stopDevices() }
        XCTAssertEqual(serialContext.violations, [])
    }

    func testARecorderCalledOffTheSerialContextIsReported() throws {
        let serialContext = StrictSerialContext()
        let controller = makeController(serialContext: serialContext)
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        serialContext.perform { controller.startDevices() }
        XCTAssertTrue(runner.perform(.record(name: nil)).ok)
        let recorder = try XCTUnwrap(controller.clips.recorder)
        _ = recorder.mark("off the context")
        XCTAssertEqual(serialContext.violations, ["mark(_:)"])
    }

    func testSimulatedSerialContextIsOnlyTheDrivingThreadsContextWhileItRuns() {
        let serialContext = SimulatedSerialContext()
        XCTAssertTrue(serialContext.isOnSerialContext, "set-up before the loop runs is allowed")
        final class Box: @unchecked Sendable { var inside = false; var otherThread = true }
        let box = Box()
        serialContext.schedule(at: serialContext.clock.now() + .seconds(1)) {
            box.inside = serialContext.isOnSerialContext
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                box.otherThread = serialContext.isOnSerialContext
                done.signal()
            }
            done.wait()
        }
        serialContext.advance(until: serialContext.clock.now() + .seconds(2))
        XCTAssertTrue(box.inside)
        XCTAssertFalse(box.otherThread, "another thread while the loop runs is off the serial context")
    }

    /// A camera that keeps its callbacks, like a capture thread that outlives the rig.
    final class HeldCamera: Camera, @unchecked Sendable {
        var displayName: String { "held" }
        var format: CameraFormat { CameraFormat(width: 2, height: 2, rate: FrameRate(30), pixelFormat: .yuv420p) }
        var deliver: (@Sendable (VideoFrame) -> Void)?
        var onEnd: (@Sendable (String) -> Void)?
        func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) {
            self.deliver = deliver
            self.onEnd = onEnd
        }
        func stop() {}
    }

    func testDeviceCallbacksDoNotKeepOrCrashOnAControllerThatIsGone() {
        let serialContext = SimulatedSerialContext()
        let camera = HeldCamera()
        weak var gone: RigController?
        do {
            let rig = Rig(name: "r", audio: Rig.AudioInput(device: .none),
                          lenses: [Rig.Lens(name: "main", source: .virtual(color: RGBColor(hex: "#ffffff")!))])
            let controller = EngineFixture.makeController(rig: rig, cameras: ["main": camera], microphone: nil,
                                           sinkFactory: RecordingSinkFactory(), store: MemorySidecarStore(),
                                           serialContext: serialContext, wallClock: { Date() }, outputDirectory: "/v",
                                           finishing: InlineWorker(), devices: InlineWorker(), notify: { _ in })
            controller.startDevices()
            XCTAssertTrue(ScriptRunner(controller: controller, serialContext: serialContext).perform(.record(name: nil)).ok)
            gone = controller
        }
        XCTAssertNil(gone, "the camera's callbacks keep the controller alive")
        // With `unowned` captures these traps; with `weak` they do nothing.
        camera.deliver?(VideoFrame(pts: serialContext.clock.now(), width: 2, height: 2, format: .yuv420p, planes: [],
                                   lens: "main"))
        camera.onEnd?("unplugged")
        // Nor do the controller's own timers (the health check, every 2 s), with `unowned` a trap as well.
        serialContext.advance(until: serialContext.clock.now() + .seconds(3))
        XCTAssertEqual(serialContext.pendingCount, 0)
    }
}
