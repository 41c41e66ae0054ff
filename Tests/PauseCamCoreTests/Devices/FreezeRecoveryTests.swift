import Foundation
import XCTest
@testable import PauseCamCore

/// A camera that streams but stops sending frames, through the engine on the simulated clock: the watchdog
/// restarts it, tells each step, notes it in the clip's sidecar, and the movie keeps its frame rate throughout.
final class FreezeRecoveryTests: XCTestCase {
    private func oneLensRig() -> Rig {
        var rig = EngineFixture.makeRig()
        rig.lenses = rig.lenses.filter { $0.name == "main" }
        return rig
    }

    private func watchdogEvents(_ events: [EngineEvent]) -> [EngineEvent] {
        events.filter {
            switch $0 {
            case .cameraRestarting, .cameraRestartFailed, .cameraRecovered, .cameraGaveUp: return true
            default: return false
            }
        }
    }

    func testAFrozenActiveCameraIsRestartedAndTheMovieStaysConstantRate() throws {
        let serialContext = SimulatedSerialContext()
        let camera = FreezingCamera(lens: "main", serialContext: serialContext)
        camera.thawOnStart = 2
        let fixture = EngineFixture.makeFixture(rig: oneLensRig(), cameras: ["main": camera],
                                                serialContext: serialContext)
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        camera.frozen = true
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(4))).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())

        let expected: [EngineEvent] = [
            .cameraRestarting(lens: "main", attempt: 1, of: 3, reopen: false, silence: .seconds(2)),
            .cameraRecovered(lens: "main", restarts: 1)]
        XCTAssertEqual(watchdogEvents(fixture.events), expected, "\(fixture.events)")
        XCTAssertEqual(expected.map(\.text),
                       ["lens main has sent no frame for 2.0 s: restarting its camera's stream (attempt 1 of 3)",
                        "lens main sends frames again after 1 restart"])
        XCTAssertEqual(camera.starts, 2, "one restart")
        XCTAssertEqual(camera.stops, 1, "the stream was stopped before it was started again")
        XCTAssertEqual(camera.appliedControls.count, 2, "the restart re-applies the lens's controls")
        for line in expected.map(\.text) { XCTAssertTrue(clip.sidecar.warnings.contains(line), "\(clip.sidecar.warnings)") }

        // Every slot of the 5 s clip is filled, at the output's rate: held over the freeze, live again after.
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        let frame = FrameRate(30).frameDuration
        let times = sink.video.map(\.time)
        XCTAssertEqual(times.first, .zero)
        for (a, b) in zip(times, times.dropFirst()) { XCTAssertEqual(b - a, frame, "gap after \(a)") }
        XCTAssertGreaterThanOrEqual(sink.video.count, 149)
        // The restart came at 3 s: from its first frame on, no slot repeats the picture before it.
        let live = 91..<(sink.video.count)
        XCTAssertEqual(live.filter { sink.pictures[$0] == sink.pictures[$0 - 1] }, [])
        XCTAssertTrue((45..<89).allSatisfy { sink.pictures[$0] == sink.pictures[$0 - 1] }, "held during the freeze")
    }

    func testAStreamRestartThatDoesNotHelpIsFollowedByAReopenWhoseCameraServesTheLens() throws {
        let serialContext = SimulatedSerialContext()
        let stuck = FreezingCamera(lens: "main", serialContext: serialContext)
        let fresh = FreezingCamera(lens: "main", serialContext: serialContext)
        let opener = ReopeningOpener(fresh: fresh)
        let log = EventLog()
        let hub = makeHub(camera: stuck, opener: opener, serialContext: serialContext, log: log)
        stuck.frozen = true
        let start = serialContext.clock.now()
        serialContext.perform { _ = hub.startCamera(lens: "main") }
        // The hub's timers hold it weakly: it must live through the wait.
        withExtendedLifetime(hub) { _ = serialContext.advance(until: start + .seconds(6)) }

        XCTAssertEqual(log.events, [
            .cameraRestarting(lens: "main", attempt: 1, of: 3, reopen: false, silence: .seconds(2)),
            .cameraRestarting(lens: "main", attempt: 2, of: 3, reopen: true, silence: .seconds(4)),
            .cameraRecovered(lens: "main", restarts: 2),
        ])
        XCTAssertEqual(opener.reopened, ["/dev/video4"])
        XCTAssertTrue(opener.closed.first === stuck, "the frozen camera is handed over to be closed")
        XCTAssertTrue(hub.cameras["main"] === fresh)
        XCTAssertEqual(fresh.starts, 1)
        XCTAssertEqual(fresh.appliedControls.count, 1, "the reopened camera gets the lens's controls")
        XCTAssertEqual(log.reports, log.events.map(\.text), "each step is noted for the clip's sidecar")
    }

    func testACameraThatCannotBeReopenedIsGivenUpOnAfterThreeRestarts() throws {
        let serialContext = SimulatedSerialContext()
        let stuck = FreezingCamera(lens: "main", serialContext: serialContext)
        let opener = ReopeningOpener(fresh: nil)
        let log = EventLog()
        let hub = makeHub(camera: stuck, opener: opener, serialContext: serialContext, log: log)
        stuck.frozen = true
        let start = serialContext.clock.now()
        serialContext.perform { _ = hub.startCamera(lens: "main") }
        withExtendedLifetime(hub) { _ = serialContext.advance(until: start + .seconds(20)) }
        XCTAssertEqual(log.events, [
            .cameraRestarting(lens: "main", attempt: 1, of: 3, reopen: false, silence: .seconds(2)),
            .cameraRestarting(lens: "main", attempt: 2, of: 3, reopen: true, silence: .seconds(4)),
            .cameraRestartFailed(lens: "main", attempt: 2, of: 3, reason: "Device or resource busy"),
            .cameraRestarting(lens: "main", attempt: 3, of: 3, reopen: true, silence: .seconds(8)),
            .cameraRestartFailed(lens: "main", attempt: 3, of: 3, reason: "Device or resource busy"),
            .cameraGaveUp(lens: "main", restarts: 3, silence: .seconds(16)),
        ])
        XCTAssertEqual(log.events.last?.text,
                       "lens main has sent no frame for 16.0 s, even after 3 restarts: PauseCam stops trying (the movie "
                       + "holds its last picture, then the slate); unplug and replug its camera, or try another USB port")
        XCTAssertEqual(stuck.starts, 2, "the first start and the stream restart; reopens failed")
        withExtendedLifetime(hub) { _ = serialContext.advance(until: start + .seconds(60)) }
        XCTAssertEqual(log.events.count, 6, "given up: nothing more is tried or told")

    }

    func testAStoppedCameraIsNotRestarted() {
        let serialContext = SimulatedSerialContext()
        let camera = FreezingCamera(lens: "main", serialContext: serialContext)
        let log = EventLog()
        let hub = makeHub(camera: camera, opener: ReopeningOpener(fresh: nil), serialContext: serialContext, log: log)
        let start = serialContext.clock.now()
        serialContext.perform { _ = hub.startCamera(lens: "main") }
        serialContext.advance(until: start + .seconds(1))
        serialContext.perform { hub.stopCamera(lens: "main") }
        withExtendedLifetime(hub) { _ = serialContext.advance(until: start + .seconds(30)) }
        XCTAssertEqual(log.events, [])
        XCTAssertEqual(camera.starts, 1)
    }

    // MARK: Fakes

    /// Opens nothing new; reopens the frozen camera's node as `fresh` (or fails when there is none).
    final class ReopeningOpener: DeviceOpening, @unchecked Sendable {
        let fresh: FreezingCamera?
        var reopened: [String] = []
        var closed: [any Camera] = []
        init(fresh: FreezingCamera?) { self.fresh = fresh }

        struct Busy: Error, CustomStringConvertible { var description: String { "Device or resource busy" } }

        func openCamera(_ identity: CameraIdentity, for lens: Rig.Lens) throws -> any Camera { throw Busy() }
        func reopenCamera(_ camera: any Camera, node: String, for lens: Rig.Lens) throws -> any Camera {
            closed.append(camera)
            guard let fresh else { throw Busy() }
            reopened.append(node)
            return fresh
        }
        func openMicrophone(on card: MicrophoneIdentity, lensNode: String?,
                            opened: @escaping @Sendable (any Microphone) -> Void) {}
    }

    final class EventLog {
        var events: [EngineEvent] = []
        var reports: [String] = []
    }

    private func makeHub(camera: any Camera, opener: ReopeningOpener, serialContext: SimulatedSerialContext,
                         log: EventLog) -> DeviceHub {
        let rig = Rig(name: "Freeze rig", output: Rig.OutputSettings(width: 64, height: 36, rate: FrameRate(30)),
                      lenses: [Rig.Lens(name: "main", source: .camera(.device("/dev/video4")))])
        let hub = DeviceHub(rig: rig, cameras: ["main": camera], microphone: nil, serialContext: serialContext,
                            devices: InlineWorker(), opener: opener, lensNodes: ["main": "/dev/video4"],
                            notify: { log.events.append($0) })
        hub.report = { report in
            if case .clipWarning(let text) = report { log.reports.append(text) }
        }
        return hub
    }
}
