import Foundation
import XCTest
@testable import PauseCamCore

/// A PTZ camera under the lens commands: presets with `optical:` and `ptz:`, `zoom F` optical before digital, ramps
/// stepped at the output rate on the device worker, and the position restored when the camera comes back.
final class PTZLensTests: XCTestCase {
    private func rig() -> Rig {
        var rig = EngineFixture.makeRig()
        rig.lenses = rig.lenses.filter { $0.name != "tele" }
        rig.lenses[1].opticalMax = 4  // main: 100…500 is 1×…4×
        var desk = Rig.ZoomPreset(name: "desk", lens: "main", ramp: .seconds(1))
        desk.ptz = PTZPosition(zoom: 400, pan: -3600, tilt: 0)
        var far = Rig.ZoomPreset(name: "far", lens: "main")
        far.ptz = PTZPosition(zoom: 900, pan: 1000)
        var onWide = Rig.ZoomPreset(name: "onwide", lens: "wide")
        onWide.ptz = PTZPosition(zoom: 200)
        rig.zoomPresets = [desk, far, onWide]
        return rig
    }

    func testAPresetMovesTheCameraOnTheDeviceWorkerOnly() throws {
        let serialContext = SimulatedSerialContext()
        let camera = PTZFakeCamera(lens: "main", serialContext: serialContext)
        let worker = HeldWorker()
        let fixture = EngineFixture.makeFixture(rig: rig(), cameras: ["main": camera], devices: worker,
                                                serialContext: serialContext)
        worker.runAll()
        serialContext.runDue()
        var preset = rig().zoomPresets[0]
        preset.ramp = .zero
        let reply = serialContext.perform { fixture.controller.zoom(.preset("desk"), at: serialContext.clock.now()) }
        XCTAssertTrue(reply.ok, reply.message)
        XCTAssertTrue(camera.moves.isEmpty, "nothing is set on the serial context")
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(2))).ok)
        XCTAssertTrue(camera.moves.isEmpty, "still nothing until the device worker runs")
        XCTAssertGreaterThan(worker.waiting, 0)
        worker.runAll()
        XCTAssertEqual(camera.moves.count, 1, "the ramp's 30 steps waited in one slot: only the newest is set")
        XCTAssertEqual(camera.holds, PTZPosition(zoom: 400, pan: -3600, tilt: 0))
    }

    func testARampStepsOncePerOutputFrameAndEndsExactlyOnThePreset() throws {
        let serialContext = SimulatedSerialContext()
        let camera = PTZFakeCamera(lens: "main", serialContext: serialContext)
        let fixture = EngineFixture.makeFixture(rig: rig(), cameras: ["main": camera], serialContext: serialContext)
        serialContext.runDue()
        let start = serialContext.clock.now()
        let reply = fixture.runner.perform(.zoom(.preset("desk")))
        XCTAssertEqual(reply.message, "zoom 3.25x = main 3.25x (zoom_absolute 400, pan_absolute -3600, tilt_absolute 0)")
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(2))).ok)

        let moves = camera.moves
        XCTAssertEqual(moves.count, 30, "one step per output frame of the 1 s ramp at 30 fps")
        XCTAssertEqual(moves.last?.position, PTZPosition(zoom: 400, pan: -3600, tilt: 0))
        XCTAssertEqual(moves.last?.time, start + .seconds(1), "the target exactly at the ramp's end")
        let zooms = moves.compactMap(\.position.zoom)
        XCTAssertEqual(zooms, zooms.sorted(), "the zoom only moves towards the preset")
        XCTAssertEqual(Set(zooms).count, zooms.count, "no step repeats a value")
        for (earlier, later) in zip(moves, moves.dropFirst()) {
            XCTAssertEqual(try later.time.subtracting(earlier.time), MediaTime(value: 1, timescale: 30))
        }
    }

    func testZoomFactorUsesTheOpticsFirstThenDigitalAndStatusCountsThem() throws {
        let serialContext = SimulatedSerialContext()
        let camera = PTZFakeCamera(lens: "main", serialContext: serialContext)
        let fixture = EngineFixture.makeFixture(rig: rig(), cameras: ["main": camera], serialContext: serialContext)
        serialContext.runDue()

        XCTAssertEqual(fixture.runner.perform(.zoom(.factor(2.5))).message, "zoom 2.5x = main 2.5x (zoom_absolute 300)")
        XCTAssertEqual(camera.holds.zoom, 300)
        XCTAssertEqual(fixture.controller.switcher.targetZoom, 1, "no digital zoom while the optics reach")
        XCTAssertEqual(serialContext.perform { fixture.controller.status.lensZoom }, 2.5, accuracy: 1e-9)

        XCTAssertEqual(fixture.runner.perform(.zoom(.factor(6))).message, "zoom 6x = main 4x (zoom_absolute 500) × digital 1.5x")
        XCTAssertEqual(camera.holds.zoom, 500)
        XCTAssertEqual(fixture.controller.switcher.targetZoom, 1.5, accuracy: 1e-9)

        XCTAssertEqual(fixture.runner.perform(.zoom(.factor(1))).message, "zoom 1x = main 1x (zoom_absolute 100)")
        XCTAssertEqual(camera.holds.zoom, 100, "back to the widest")
    }

    func testOutOfRangeValuesAreClampedWithAWarningAndAFixedLensSaysItHasNoPTZ() throws {
        let serialContext = SimulatedSerialContext()
        let camera = PTZFakeCamera(lens: "main", serialContext: serialContext)
        let fixture = EngineFixture.makeFixture(rig: rig(), cameras: ["main": camera], serialContext: serialContext)
        serialContext.runDue()
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)

        let far = fixture.runner.perform(.zoom(.preset("far")))
        XCTAssertTrue(far.ok, far.message)
        XCTAssertEqual(far.message.split(separator: "\n").map(String.init), [
            "zoom 4x = main 4x (zoom_absolute 500, pan_absolute 0)",
            "warning: zoom_absolute 900 is outside 100…500 on Fake PTZ main; using 500 (noted in the clip's sidecar)",
            "warning: pan_absolute 1000 is outside -36000…36000 step 3600 on Fake PTZ main; using 0 (noted in the clip's sidecar)",
        ])
        XCTAssertEqual(camera.holds, PTZPosition(zoom: 500, pan: 0))

        let wide = fixture.runner.perform(.zoom(.preset("onwide")))
        XCTAssertTrue(wide.ok, wide.message)
        XCTAssertTrue(wide.message.hasSuffix("warning: lens wide (Virtual wide (#d03030)) has no PTZ control; "
                                             + "zoom_absolute 200 not set (noted in the clip's sidecar)"), wide.message)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertEqual(clip.sidecar.warnings.filter { $0.contains("not set") || $0.contains("outside") }.count, 3,
                       "\(clip.sidecar.warnings)")
    }

    func testAReopenedCameraIsMovedBackAndAPositionItDoesNotHoldIsNoted() throws {
        let serialContext = SimulatedSerialContext()
        let first = PTZFakeCamera(lens: "main", serialContext: serialContext)
        let fixture = EngineFixture.makeFixture(rig: rig(), cameras: ["main": first], serialContext: serialContext)
        serialContext.runDue()
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.zoom(.preset("desk"))).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(2))).ok)

        let replugged = PTZFakeCamera(lens: "main", serialContext: serialContext)
        replugged.reports = [.tiltAbsolute: 3600]  // it will not hold the tilt
        serialContext.perform { fixture.controller.attach(replugged, lens: "main") }
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())

        XCTAssertEqual(replugged.moves.map(\.position), [PTZPosition(zoom: 400, pan: -3600, tilt: 0)],
                       "one move, straight to the last position")
        XCTAssertEqual(clip.sidecar.warnings.filter { $0.contains("asked") }.map { $0.contains("tilt_absolute: asked 0, camera reports 3600") }, [true],
                       "\(clip.sidecar.warnings)")
    }
}
