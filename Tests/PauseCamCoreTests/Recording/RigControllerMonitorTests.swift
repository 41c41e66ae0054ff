import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// What the engine hands the live monitor: every lens's frames while someone watches (idle included, before the
/// intake gate), nothing while nobody does, and the program's lens and digital zoom as they change.
final class RigControllerMonitorTests: XCTestCase {
    /// A `MonitorTap` that counts what it is given.
    final class RecordingTap: MonitorTap, @unchecked Sendable {
        private let lock = NSLock()
        private var watched = false
        private var offeredFrames: [String: Int] = [:]
        private var told: [(lens: String, digitalZoom: Double)] = []

        var isWatched: Bool {
            get { lock.withLock { watched } }
            set { lock.withLock { watched = newValue } }
        }
        var offered: [String: Int] { lock.withLock { offeredFrames } }
        var programs: [(lens: String, digitalZoom: Double)] { lock.withLock { told } }

        func offer(_ frame: VideoFrame) { lock.withLock { offeredFrames[frame.lens, default: 0] += 1 } }
        func programChanged(lens: String, digitalZoom: Double) { lock.withLock { told.append((lens, digitalZoom)) } }
    }

    private func makeEngine(_ tap: RecordingTap) -> (RigController, ScriptRunner) {
        let serialContext = SimulatedSerialContext()
        let rig = EngineFixture.makeRig()
        var cameras: [String: any Camera] = [:]
        for lens in rig.lenses {
            guard case .virtual(let color) = lens.source else { continue }
            cameras[lens.name] = VirtualLens(lens: lens.name, color: color, width: lens.width!, height: lens.height!,
                                             rate: lens.rate!, serialContext: serialContext)
        }
        let controller = EngineFixture.makeController(rig: rig, cameras: cameras, microphone: nil, sinkFactory: RecordingSinkFactory(),
                                       store: MemorySidecarStore(), serialContext: serialContext,
                                       wallClock: { Date(timeIntervalSince1970: 1_800_000_000) },
                                       outputDirectory: "/videos", finishing: InlineWorker(), devices: InlineWorker(), monitor: tap, notify: { _ in })
        controller.startDevices()
        return (controller, ScriptRunner(controller: controller, serialContext: serialContext))
    }

    func testEveryLensIsOfferedWhileIdleOnlyWhileWatched() {
        let tap = RecordingTap()
        let (controller, runner) = makeEngine(tap)
        XCTAssertTrue(runner.perform(.wait(.seconds(1))).ok)
        XCTAssertEqual(tap.offered, [:], "offered while nobody watched")

        tap.isWatched = true
        XCTAssertTrue(runner.perform(.wait(.seconds(1))).ok)
        XCTAssertNil(controller.clips.recorder, "idle: the intake is closed")
        XCTAssertEqual(Set(tap.offered.keys), ["wide", "main", "tele"])
        for (lens, count) in tap.offered { XCTAssertEqual(count, 30, "one second of \(lens) at 30 fps") }
    }

    func testTheProgramIsToldAtStartThroughAZoomRampAndAtASwitchWithItsOwnZoom() throws {
        let tap = RecordingTap()
        let (_, runner) = makeEngine(tap)
        XCTAssertEqual(tap.programs.first?.lens, "main")
        XCTAssertEqual(tap.programs.first?.digitalZoom, 1)

        XCTAssertTrue(runner.perform(.zoom(.preset("2x"))).ok)  // main, 2× digital over 400 ms
        XCTAssertTrue(runner.perform(.wait(.seconds(1))).ok)
        let ramp = tap.programs.dropFirst().map(\.digitalZoom)
        XCTAssertEqual(ramp.last, 2)
        XCTAssertGreaterThanOrEqual(ramp.filter { $0 > 1 && $0 < 2 }.count, 4, "the ramp's progress: \(ramp)")
        XCTAssertEqual(ramp, ramp.sorted(), "a zoom in only grows")
        XCTAssertTrue(tap.programs.allSatisfy { $0.lens == "main" })

        let toldBefore = tap.programs.count
        XCTAssertTrue(runner.perform(.lens(.named("tele"))).ok)
        XCTAssertTrue(runner.perform(.wait(.milliseconds(100))).ok)
        let afterSwitch = tap.programs.dropFirst(toldBefore)
        XCTAssertEqual(afterSwitch.map(\.lens), ["tele"], "told once")
        XCTAssertEqual(afterSwitch.first?.digitalZoom, 1, "the new lens with its own zoom, not main's 2×")
    }
}
