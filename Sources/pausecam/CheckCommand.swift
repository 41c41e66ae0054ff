import Foundation
import PauseCamCore
import PauseCamSystem

/// `pausecam check RIG…`: validates each rig file without opening any output file. Every error of every file goes
/// to standard error as `FILE:LINE:COLUMN: message`; a clean rig gets a summary on standard output, and, when it has
/// camera lenses, whether each connected camera can deliver the movie's frame rate (`V4L2RateCheck`: formats,
/// sizes and intervals only, never streaming, never setting a control), or that its camera is not connected; and,
/// with `live: webcam:`, whether its v4l2loopback device can be written (a warning with the command that fixes it).
/// Returns the exit status: 0 when all rigs are clean, 2 when any has an error (or no rig was named). A rig's
/// warnings (`RigWarning`: a control step on a lens without the control, an output folder that cannot be used)
/// go to standard error as `FILE:LINE:COLUMN: warning: message` and do not change the status; nor does a camera
/// too slow for the movie, a warning on standard output, nor the USB bandwidth plan printed after it
/// (`usbBandwidthPlanText`), whatever its verdict.
///
/// With `--measure` (`pausecam check --measure RIG`) each clean rig's canvas size and rate are also measured: x264's
/// speed per preset on camera-like frames and the preset `auto` chooses, printed and stored in the cache. A rig
/// with ISOs also gets each ISO's size, rate and encoder (x264, or MJPEG passed through) and whether the program
/// and the ISOs fit together (`EncoderLoad`); a rig with `live.stream` destinations gets each stream's size, rate
/// and x264 preset (its URL redacted) counted in the same load. When they do not fit, that is an error at
/// `output.iso` (the rig file when it has no ISO; exit status 2), as `run` and `shell` refuse the rig.
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
            if measure {
                status = max(status, printMeasurement(of: rig, path: path))
            } else if rig.output.preset == EncoderPresetChoice.auto {
                StandardStreamWriter.output.write(autoPresetText(of: rig))
            }
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
            if let webcam = rig.live?.webcam {
                StandardStreamWriter.output.write(webcamCheckText(V4L2LoopbackFinder().examine(.init(webcam))))
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

/// Measures the encoder for `rig`'s output (always, ignoring the cache, which it refreshes) and prints the result,
/// with the ISOs' and live streams' load when the rig has any. Returns 2 when they do not fit with the program.
private func printMeasurement(of rig: Rig, path: String) -> Int32 {
    let output = rig.output
    let environment = ProcessInfo.processInfo.environment
    let cache = EncoderSpeedCache(environment: environment)
    let measurement: EncoderSpeedMeasurement
    do {
        measurement = try EncoderPresetSetup.measureAndStore(width: output.width, height: output.height,
                                                             rate: output.rate, cache: cache,
                                                             environment: environment,
                                                             notify: { writeStandardError($0.text + "\n") })
    } catch {
        writeStandardError("the encoder speed could not be measured: \(error)\n")
        return 1
    }
    let isAuto = output.preset == EncoderPresetChoice.auto
    let isos = isoLoad(of: rig)
    let preset = isAuto ? isos.choose(measurement) : output.preset
    StandardStreamWriter.output.write(measurement.report(autoChoice: isos.choose(measurement),
                                                         because: isos.choiceReason))
    if !isAuto, let warning = EncoderPresetChoice.warning(for: output.preset, in: measurement) {
        StandardStreamWriter.output.write("  warning: \(warning)\n")
    }
    StandardStreamWriter.output.write(isos.report(at: preset, in: measurement))
    if let refusal = isos.refusal(at: preset, in: measurement, presetIsAuto: isAuto) {
        let mark = output.isoMark ?? SourceMark(file: path, line: 0, column: 0)
        writeStandardError(RigError(refusal, at: mark).description + "\n")
        return 2
    }
    return 0
}

/// The rig's ISOs as `check` can know them without a session: a file lens's movie is read for its size, rate and
/// codec; a camera lens counts at the size, rate and format its rig entry gives (a camera whose `format:` is not
/// `mjpeg` counts as encoded, the safe side: the run decides on the camera's actual format).
func isoLoad(of rig: Rig) -> EncoderLoad {
    var formats: [String: CameraFormat] = [:]
    for role in rig.output.iso {
        guard let lens = rig.lens(named: role), case .file(let path, _) = lens.source else { continue }
        formats[role] = try? FileLens.format(ofMovieAt: RigWiring.expandDirectory(path))
    }
    return EncoderLoad(rig: rig, formats: formats)
}

private func writeStandardError(_ text: String) {
    StandardStreamWriter.error.write(text)
}

/// The one line `check` prints for a `preset: auto` rig without `--measure`: the preset auto takes here from the
/// cached measurement (for the program with its ISOs and live streams), or that the first real-clock recording
/// measures it.
private func autoPresetText(of rig: Rig) -> String {
    let output = rig.output
    let cache = EncoderSpeedCache(environment: ProcessInfo.processInfo.environment)
    guard let measurement = cache.measurement(width: output.width, height: output.height, rate: output.rate) else {
        return "  preset auto: x264's speed at \(output.width)x\(output.height) at \(output.rate) fps is not measured on "
            + "this machine yet; the first recording measures it (a few seconds), or `pausecam check --measure` now\n"
    }
    let isos = isoLoad(of: rig)
    return "  preset auto takes \(isos.choose(measurement)) here" + (isos.choiceReason.map { " (\($0))" } ?? "")
        + " (cached measurement)\n"
}
