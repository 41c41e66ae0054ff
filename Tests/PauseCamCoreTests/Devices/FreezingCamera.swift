import Foundation
@testable import PauseCamCore
import PauseCamVirtual

/// A virtual lens that can freeze: it stays started but its frames stop reaching `deliver` (a USB camera whose
/// stream hung), until a later start thaws it when the test says so. It can also take settings and report values,
/// like a V4L2 camera (`CameraSettingsRestoring`). Runs on the simulated context only.
final class FreezingCamera: Camera, CameraSettingsRestoring, @unchecked Sendable {
    private let inner: VirtualLens
    var displayName: String { inner.displayName }
    var format: CameraFormat { inner.format }
    /// True while frames are swallowed.
    var frozen = false
    /// How many times `start` was called.
    private(set) var starts = 0
    private(set) var stops = 0
    /// The start (counting from 1) that brings frames back; `nil`: a freeze lasts for ever.
    var thawOnStart: Int?
    /// What the camera was asked, in order.
    private(set) var appliedControls: [Rig.Controls] = []
    private(set) var exposures: [Rig.ExposurePreset.Setting] = []
    private(set) var focuses: [Command.FocusChoice] = []
    /// What the camera says it holds, by control; a control missing here is one it will not report.
    var reports: [CameraControlName: Int] = [:]

    init(lens: String, serialContext: SimulatedSerialContext) {
        inner = VirtualLens(lens: lens, color: RGBColor(hex: "#20c040")!, width: 64, height: 36, rate: FrameRate(30),
                            serialContext: serialContext)
    }

    func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) throws {
        starts += 1
        if let thawOnStart, starts >= thawOnStart { frozen = false }
        try inner.start(deliver: { [self] frame in if !frozen { deliver(frame) } }, onEnd: onEnd)
    }

    func stop() {
        stops += 1
        inner.stop()
    }

    func applyLensControls(_ controls: Rig.Controls) { appliedControls.append(controls) }
    func reportedValue(of control: CameraControlName) -> Int? { reports[control] }
    func setExposure(_ setting: Rig.ExposurePreset.Setting) throws -> [String] {
        exposures.append(setting)
        return []
    }
    func setFocus(_ setting: Command.FocusChoice) throws -> [String] {
        focuses.append(setting)
        return []
    }
}
