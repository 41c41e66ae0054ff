import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// A camera opened by `format: auto` says which encoding it streams in and why; the clip's sidecar keeps that under
/// the lens (`format_choice`), and leaves it out for any other device.
final class FormatChoiceSidecarTests: XCTestCase {
    /// A virtual lens standing in for a V4L2 camera whose `format: auto` chose MJPEG.
    final class AutoFormatCamera: Camera, @unchecked Sendable {
        let displayName = "Auto main"
        let formatChoice: String? = "MJPEG: shares controller 0000:00:14.0 with lens wide"
        private let lens: VirtualLens
        var format: CameraFormat { lens.format }
        init(serialContext: any SerialContext) {
            lens = VirtualLens(lens: "main", color: RGBColor(hex: "#20c040")!, width: 64, height: 36,
                               rate: FrameRate(30), serialContext: serialContext)
        }
        func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) throws {
            try lens.start(deliver: deliver, onEnd: onEnd)
        }
        func stop() { lens.stop() }
    }

    func testTheSidecarKeepsTheAutoFormatChoiceOfTheLensAndNoneForAnother() throws {
        var rig = EngineFixture.makeRig()
        rig.lenses = rig.lenses.filter { $0.name == "main" || $0.name == "wide" }
        rig.audio = Rig.AudioInput(device: .none)
        let serialContext = SimulatedSerialContext()
        let other = VirtualLens(lens: "wide", color: RGBColor(hex: "#2040c0")!, width: 64, height: 36,
                                rate: FrameRate(30), serialContext: serialContext)
        let controller = EngineFixture.makeController(rig: rig, cameras: ["main": AutoFormatCamera(serialContext: serialContext),
                                                           "wide": other],
                                       microphone: nil, sinkFactory: RecordingSinkFactory(), store: MemorySidecarStore(),
                                       serialContext: serialContext,
                                       wallClock: { Date(timeIntervalSince1970: 1_800_000_000) },
                                       outputDirectory: "/videos", finishing: InlineWorker(), devices: InlineWorker(),
                                       notify: { _ in })
        controller.startDevices()
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        for step: Command in [.record(name: nil), .wait(.seconds(1)), .stop] {
            XCTAssertTrue(runner.perform(step).ok, "\(step)")
        }
        let clip = try XCTUnwrap(runner.finishClip())
        let byRole = Dictionary(uniqueKeysWithValues: clip.sidecar.devices.map { ($0.role, $0) })
        XCTAssertEqual(byRole["main"]?.formatChoice, "MJPEG: shares controller 0000:00:14.0 with lens wide")
        XCTAssertNotNil(byRole["wide"])
        XCTAssertNil(byRole["wide"]?.formatChoice)
        let json = String(decoding: try clip.sidecar.encoded(), as: UTF8.self)
        XCTAssertTrue(json.contains("\"format_choice\" : \"MJPEG: shares controller 0000:00:14.0 with lens wide\""), json)
        XCTAssertEqual(json.components(separatedBy: "format_choice").count, 2, json)
    }
}
