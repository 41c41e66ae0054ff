import Foundation
@testable import PauseCamCore
import PauseCamVirtual

/// A virtual lens with the motors of a PTZ webcam: `zoom_absolute` 100…500, `pan_absolute` and `tilt_absolute`
/// −36000…36000 in steps of 3600 (arc seconds), like a UVC PTZ camera reports them. It records every move it is
/// given with the session-clock time it got it, and reports the values it holds (`reports` overrides them, as a
/// camera that reopened at its own defaults would). Runs on the simulated context only.
final class PTZFakeCamera: Camera, CameraSettingsRestoring, CameraPTZ, @unchecked Sendable {
    private let inner: VirtualLens
    private let serialContext: SimulatedSerialContext
    var displayName: String { "Fake PTZ \(inner.lens)" }
    var format: CameraFormat { inner.format }
    let ptzRanges: [PTZAxis: PTZRange] = [
        .zoom: PTZRange(minimum: 100, maximum: 500, defaultValue: 100, current: 100),
        .pan: PTZRange(minimum: -36000, maximum: 36000, step: 3600, defaultValue: 0, current: 0),
        .tilt: PTZRange(minimum: -36000, maximum: 36000, step: 3600, defaultValue: 0, current: 0),
    ]
    /// Every `movePTZ` in order, with the clock's time.
    private let moved = Guarded<[(time: MediaTime, position: PTZPosition)]>([])
    var moves: [(time: MediaTime, position: PTZPosition)] { moved.withLock { $0 } }
    /// What the camera says it holds, when it should not say what it was given.
    var reports: [CameraControlName: Int] = [:]

    init(lens: String, serialContext: SimulatedSerialContext) {
        self.serialContext = serialContext
        inner = VirtualLens(lens: lens, color: RGBColor(hex: "#20c040")!, width: 64, height: 36, rate: FrameRate(30),
                            serialContext: serialContext)
    }

    func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) throws {
        try inner.start(deliver: deliver, onEnd: onEnd)
    }

    func stop() { inner.stop() }

    func movePTZ(to position: PTZPosition) throws {
        let now = serialContext.clock.now()
        moved.withLock { $0.append((now, position)) }
    }

    /// The position the moves so far left the camera in.
    var holds: PTZPosition { moves.reduce(PTZPosition()) { $0.updated(with: $1.position) } }

    func applyLensControls(_ controls: Rig.Controls) {}
    func reportedValue(of control: CameraControlName) -> Int? {
        if let reported = reports[control] { return reported }
        return PTZAxis.allCases.first { $0.control == control }.flatMap { holds[$0] }
    }
    func setExposure(_ setting: Rig.ExposurePreset.Setting) throws -> [String] { [] }
    func setFocus(_ setting: Command.FocusChoice) throws -> [String] { [] }
}

/// A `BackgroundWorker` that keeps its jobs until the test runs them: what happens on the device worker, and only
/// there, becomes visible.
final class HeldWorker: BackgroundWorker, @unchecked Sendable {
    private let jobs = Guarded<[@Sendable () -> Void]>([])
    var waiting: Int { jobs.withLock { $0.count } }
    func submit(_ work: @escaping @Sendable () -> Void) { jobs.withLock { $0.append(work) } }
    /// Runs every job submitted so far (and those they submit).
    func runAll() {
        while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { job() }
    }
}
