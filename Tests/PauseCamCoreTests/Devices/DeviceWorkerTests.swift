import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// Cameras are started and stopped on the device worker, in order, never on the serial context; a start that fails
/// there comes back to the context as an event, and the bank chooses again.
final class DeviceWorkerTests: XCTestCase {
    /// A camera that cannot start (a device that went away between enumeration and STREAMON).
    final class BrokenCamera: Camera, @unchecked Sendable {
        let displayName = "Broken tele"
        let format = CameraFormat(width: 64, height: 36, rate: FrameRate(30), pixelFormat: .yuv420p)
        struct Failure: Error, CustomStringConvertible { var description: String { "VIDIOC_STREAMON: No such device" } }
        func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) throws {
            throw Failure()
        }
        func stop() {}
    }

    func testStartsWaitForTheDeviceWorkerAndStopsKeepTheirOrderAfterThem() throws {
        let worker = BackgroundFinishTests.HeldWorker()
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig(), devices: worker)
        let lenses = fixture.controller.devices.cameras.values.compactMap { $0 as? VirtualLens }
        XCTAssertEqual(lenses.count, 3)
        XCTAssertEqual(lenses.map(\.startCount), [0, 0, 0], "a camera was started on the serial context")
        fixture.controller.stopDevices()
        worker.release()
        // Each start ran before its stop: every lens was started once and is stopped now.
        XCTAssertEqual(lenses.map(\.startCount), [1, 1, 1])
        XCTAssertEqual(lenses.map(\.isRunning), [false, false, false], "a stop overtook its start")
    }

    func testAStartThatFailsOnTheWorkerIsToldAndTheBankStaysOnAWorkingLens() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig(), cameras: ["tele": BrokenCamera()])
        fixture.serialContext.runDue()
        XCTAssertTrue(fixture.events.contains(.cameraFailedToStart(lens: "tele", camera: "Broken tele",
                                                                   reason: "VIDIOC_STREAMON: No such device")),
                      "\(fixture.events)")
        XCTAssertFalse(fixture.controller.bank.running.contains("tele"))
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(fixture.runner.perform(.wait(.seconds(1))).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertEqual(clip.sidecar.scenes.first?.lenses.map(\.lens), ["main"])
    }
}
