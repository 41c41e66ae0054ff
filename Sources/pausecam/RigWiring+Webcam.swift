import Foundation
import PauseCamCore
import PauseCamSystem

/// The rig's webcam (`live: {webcam: {device: …}}` or `{label: …}`): the v4l2loopback device found and opened
/// before the engine is made, so a missing module or device refuses the rig with the command that fixes it, and
/// handed to the controller as one of its live sinks.
extension RigWiring {
    /// Opens the webcam `target` names for the program's `width`×`height` at `rate`, writing `format`. The device
    /// going away later is told as `EngineEvent.webcamLost` on the serial context and the recording goes on; the
    /// output then looks for `target` again every second (as the finder resolves it: a label may come back on another
    /// node) and tells `EngineEvent.webcamBack` when it writes again. Throws `DeviceError` with the finder's words
    /// (what is wrong and what to run).
    static func openWebcam(_ target: V4L2LoopbackFinder.Target, format: Rig.Live.WebcamFormat, width: Int, height: Int,
                           rate: FrameRate, finder: V4L2LoopbackFinder = V4L2LoopbackFinder(),
                           serialContext: any SerialContext,
                           events: @escaping @Sendable (EngineEvent) -> Void) throws -> V4L2LoopbackOutput {
        do {
            let node = try finder.open(target)
            let path = node.path
            return try V4L2LoopbackOutput(
                device: node, pixelFormat: V4L2PixelFormat(format), width: width, height: height, rate: rate,
                reopen: { try finder.open(target) },
                onLost: { error in
                    serialContext.schedule(at: serialContext.clock.now()) {
                        events(.webcamLost(device: path, reason: error.description))
                    }
                },
                onBack: { device in
                    serialContext.schedule(at: serialContext.clock.now()) { events(.webcamBack(device: device)) }
                })
        } catch {
            throw DeviceError("webcam \(target): \(error)")
        }
    }
}

extension RigWiring {
    /// The rig's webcam as a live sink, opened for the program's size and rate; empty when `live:` names none.
    static func openLiveWebcam(rig: Rig, serialContext: any SerialContext,
                               events: @escaping @Sendable (EngineEvent) -> Void) throws -> [any LiveSink] {
        guard let live = rig.live, let webcam = live.webcam else { return [] }
        return [try openWebcam(V4L2LoopbackFinder.Target(webcam), format: live.webcamFormat, width: rig.output.width,
                               height: rig.output.height, rate: rig.output.rate, serialContext: serialContext,
                               events: events)]
    }
}

/// Hands the controller the live sinks the composition root opened beforehand (the webcam: opened before the
/// `RigController`, so a device that cannot be opened refuses the rig before anything starts), then those `then`
/// makes when the devices start (the stream outputs, which connect on their own threads).
struct PreparedLiveSinks: LiveSinkFactory {
    let prepared: [any LiveSink]
    let then: any LiveSinkFactory

    init(_ prepared: [any LiveSink], then: any LiveSinkFactory) {
        self.prepared = prepared
        self.then = then
    }

    /// The prepared sinks (opened for the rig's output size and rate, which is `program`'s), then the others.
    func makeLiveSinks(for program: LiveProgram, report: @escaping @Sendable (EngineEvent) -> Void) -> [any LiveSink] {
        prepared + then.makeLiveSinks(for: program, report: report)
    }
}

/// What `pausecam check` prints of the rig's webcam: the doctor's finding in one line, a warning with its fixes when
/// the device cannot be written (check reports the machine as it is; `run` refuses such a rig).
func webcamCheckText(_ webcam: DoctorFacts.Webcam) -> String {
    guard let finding = DoctorExamination.live(webcam).findings.first else { return "" }
    guard finding.severity != .ok else { return finding.what + "\n" }
    return "warning: " + finding.what + (finding.fixes.isEmpty ? "" : ": " + finding.fixes.joined(separator: "; or ")) + "\n"
}
