import Foundation
import PauseCamCore
import PauseCamSystem

/// `pausecam check RIG…`: validates each rig file without opening any output file. Every error of every file goes
/// to standard error as `FILE:LINE:COLUMN: message`; a clean rig gets a summary on standard output, and, when it has
/// camera lenses, whether each connected camera can deliver the movie's frame rate (`V4L2RateCheck`: formats,
/// sizes and intervals only, never streaming, never setting a control), or that its camera is not connected.
/// Returns the exit status: 0 when all rigs are clean, 2 when any has an error (or no rig was named). A rig's
/// warnings (`RigWarning`: a control step on a lens without the control, an output folder that cannot be used)
/// go to standard error as `FILE:LINE:COLUMN: warning: message` and do not change the status; nor does a camera
/// too slow for the movie, a warning on standard output, nor the USB bandwidth plan printed after it
/// (`usbBandwidthPlanText`), whatever its verdict.
///
/// With `--measure` (`pausecam check --measure RIG`) each clean rig's canvas size and rate are also measured: x264's
/// speed per preset on camera-like frames and the preset `auto` chooses, printed and stored in the cache.
func runCheck(_ paths: [String], measure: Bool = false, describeCameras: () throws -> [CameraDescription] = {
    try UdevDeviceManager().describeCameras()
}) -> Int32 {
    guard !paths.isEmpty else {
        writeStandardError("usage: pausecam check RIG…\n")
        return 2
    }
    var status: Int32 = 0
    // Asked once, and only when a rig has a camera lens: the virtual rig never touches udev.
    var cameras: Result<[CameraDescription], any Error>?
    for path in paths {
        do {
            let rig = try RigLoader.load(path: path, surroundings: .thisMachine())
            for warning in rig.warnings { writeStandardError(warning.description + "\n") }
            StandardStreamWriter.output.write(RigSummary.text(of: rig, file: path))
            if measure { status = max(status, printMeasurement(of: rig)) }
            if rig.lenses.contains(where: { if case .camera = $0.source { return true } else { return false } }) {
                if cameras == nil { cameras = Result { try describeCameras() } }
                switch cameras! {
                case .success(let described):
                    StandardStreamWriter.output.write(V4L2RateCheck.report(rig: rig, cameras: described))
                case .failure(let error):
                    StandardStreamWriter.output.write(V4L2RateCheck.report(rig: rig, cameras: nil,
                                                                           problem: "udev: \(error)"))
                }
                StandardStreamWriter.output.write(usbBandwidthPlanText(rig: rig, cameras: try? cameras!.get()))
            }
        } catch {
            writeStandardError(error.description + "\n")
            let count = error.diagnostics.count
            writeStandardError("\(path): \(count) error\(count == 1 ? "" : "s")\n")
            status = 2
        }
    }
    return status
}

/// `pausecam check --list-scripts RIG…`: the names of each rig's scripts, one a line and nothing else, for the
/// shell completions of `--script`. A rig with errors prints them on standard error (exit status 2), like `check`.
func listScripts(_ paths: [String]) -> Int32 {
    var status: Int32 = 0
    for path in paths {
        do {
            let rig = try RigLoader.load(path: path)
            StandardStreamWriter.output.write(rig.scripts.map { $0.name + "\n" }.joined())
        } catch {
            writeStandardError(error.description + "\n")
            status = 2
        }
    }
    return status
}

/// Measures the encoder for `rig`'s output (always, ignoring the cache, which it refreshes) and prints the result.
private func printMeasurement(of rig: Rig) -> Int32 {
    let output = rig.output
    let environment = ProcessInfo.processInfo.environment
    let cache = EncoderSpeedCache(environment: environment)
    do {
        let measurement = try EncoderPresetSetup.measureAndStore(width: output.width, height: output.height,
                                                                 rate: output.rate, cache: cache,
                                                                 environment: environment,
                                                                 notify: { writeStandardError($0 + "\n") })
        StandardStreamWriter.output.write(measurement.report)
        if output.preset != EncoderPresetChoice.auto,
           let warning = EncoderPresetChoice.warning(for: output.preset, in: measurement) {
            StandardStreamWriter.output.write("  warning: \(warning)\n")
        }
        return 0
    } catch {
        writeStandardError("the encoder speed could not be measured: \(error)\n")
        return 1
    }
}

private func writeStandardError(_ text: String) {
    StandardStreamWriter.error.write(text)
}
