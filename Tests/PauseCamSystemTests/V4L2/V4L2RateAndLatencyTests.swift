import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// What keeps a real camera on the movie's clock: its `latency:` is taken off every timestamp, and auto exposure is
/// kept from lowering the frame rate in a dim room unless the rig allows it.
final class V4L2RateAndLatencyTests: XCTestCase {
    private static let modes = [V4L2Mode(pixelFormat: .yuyv, width: 4, height: 2, rates: [FrameRate(30)])]

    func testALensLatencyIsTakenOffEveryTimestamp() throws {
        let device = V4L2FakeDevice(modes: Self.modes)
        let pixels = [UInt8](0..<16)
        device.play([
            .frame(V4L2DequeuedBuffer(index: 0, bytesUsed: 16, flags: .timestampMonotonic, sequence: 1,
                                      seconds: 100, microseconds: 40_000), pixels),
            .failure(ENODEV),
        ])
        let lens = Rig.Lens(name: "wide", source: .camera(.device("/dev/video9")), format: .yuyv,
                            latency: .milliseconds(40))
        let camera = try V4L2Camera(device: device, lens: lens, warn: { _ in })
        let recorder = V4L2CameraRecorder()
        try camera.start(deliver: recorder.deliver, onEnd: recorder.onEnd)
        wait(for: [recorder.ended], timeout: 60)
        camera.stop()
        XCTAssertEqual(recorder.delivered.map(\.pts), [.seconds(100)], "stamped at 100.040 s, lit at 100.000 s")
    }

    private func camera(withPriorityControl: Bool) -> V4L2FakeDevice {
        let device = V4L2FakeDevice(modes: [])
        if withPriorityControl {
            let id = V4L2ControlID.exposureAutoPriority.id
            device.controls[id] = V4L2ControlInfo(id: id, name: "exposure_dynamic_framerate", type: .boolean,
                                                  minimum: 0, maximum: 1, defaultValue: 1)
        }
        return device
    }

    func testExposurePriorityIsTurnedOffUnlessTheRigAsks() {
        let id = V4L2ControlID.exposureAutoPriority.id
        for (asked, expected) in [(nil, Int32(0)), (false, 0), (true, 1)] as [(Bool?, Int32)] {
            let device = camera(withPriorityControl: true)
            var warnings: [String] = []
            V4L2Controls(device: device, cameraName: "cam") { warnings.append($0) }
                .apply(Rig.Controls(exposurePriority: asked))
            XCTAssertEqual(device.controlWrites.filter { $0.0 == id }.map(\.1), [expected], "asked \(String(describing: asked))")
            XCTAssertEqual(warnings, [])
        }
    }

    func testACameraWithoutTheControlIsWarnedAboutOnlyWhenTheRigAsked() {
        var warnings: [String] = []
        V4L2Controls(device: camera(withPriorityControl: false), cameraName: "cam") { warnings.append($0) }
            .apply(Rig.Controls())
        XCTAssertEqual(warnings, [], "the default needs no control")
        V4L2Controls(device: camera(withPriorityControl: false), cameraName: "cam") { warnings.append($0) }
            .apply(Rig.Controls(exposurePriority: true))
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.contains("exposure_dynamic_framerate") ?? false, "\(warnings)")
    }
}
