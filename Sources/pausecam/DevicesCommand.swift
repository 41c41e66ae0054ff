import Foundation
import PauseCamCore
import PauseCamSystem

/// `pausecam devices [--json] [--rig RIG]`: the cameras present, like `v4l2-ctl --list-devices`, with their
/// formats, sizes, rates and PauseCam controls; with a rig, which lens each camera serves and which lenses have
/// no camera, and the rig's USB bandwidth plan. With no camera it says so and how to check permissions — never an
/// empty table.
///
/// Called by `main.swift` after it has parsed the arguments and loaded the rig. Returns the exit status: 0 when
/// the listing was made, 1 when udev could not be read or the rig's rules are ambiguous.
func runDevices(json: Bool, rig: Rig?) -> Int32 {
    let cameras: [CameraDescription]
    do {
        cameras = try UdevDeviceManager().describeCameras()
    } catch {
        printError("pausecam devices: \(error)")
        return 1
    }
    var match: CameraMatcher.Result?
    var matchError: String?
    if let rig {
        do {
            match = try CameraMatcher.match(cameras.map(\.identity), to: rig.lenses)
        } catch {
            matchError = "rig \"\(rig.name)\": \(error)"
        }
    }
    // Microphones: the sound cards udev knows, with what `audio: {match: …}` compares.
    let microphones = (try? UdevSoundCards().microphones()) ?? []
    let report = DevicesReport(cameras: cameras, rig: rig, match: match, matchError: matchError,
                               microphones: microphones)
    if json {
        print(report.json())
    } else {
        print(report.text(), terminator: "")
        if let rig { print(usbBandwidthPlanText(rig: rig, cameras: cameras), terminator: "") }
        print(microphones.isEmpty ? "No microphones found (no sound card in udev's sound subsystem).\n"
              : "Microphones:\n" + microphones.map { card in
                  "  card \(card.card) \"\(card.name)\" (ALSA \(card.pcmName))"
                      + (card.usb.map { " usb \($0)" } ?? "") + (card.serial.map { " serial \($0)" } ?? "")
                      + (card.path.map { " path \($0)" } ?? "") + "\n"
              }.joined(), terminator: "")
    }
    if let matchError, !json { printError("pausecam devices: \(matchError)") }
    return matchError == nil ? 0 : 1
}

private func printError(_ text: String) {
    StandardStreamWriter.error.write(text + "\n")
}

/// The listing `pausecam devices` prints, built from what the device manager and the matcher found.
struct DevicesReport {
    var cameras: [CameraDescription]
    var rig: Rig?
    var match: CameraMatcher.Result?
    var matchError: String?
    /// The sound cards, by card number: the same facts in the text and the JSON.
    var microphones: [MicrophoneIdentity] = []

    static let noCameraAdvice = """
        No cameras found.
        If a camera is plugged in, check that its device node exists and that you may open it:
          ls -l /dev/video*        (nodes are usually owned by group "video")
          id -nG                   (your groups; "video" should be among them)
          sudo usermod -aG video "$USER"   then log out and in again
        `v4l2-ctl --list-devices` (package v4l-utils) lists what the kernel sees.

        """

    /// Human-readable text, one block per camera.
    func text() -> String {
        var out = ""
        if cameras.isEmpty { out += Self.noCameraAdvice }
        for camera in cameras {
            let id = camera.identity
            out += "\(id.name) (\(id.bus ?? id.path ?? "unknown bus")):\n"
            out += "\t\(id.devicePath)\n"
            var facts: [String] = []
            if let driver = id.driver { facts.append("driver \(driver)") }
            if let serial = id.serial { facts.append("serial \(serial)") }
            if let usb = id.usb { facts.append("usb \(usb)") }
            if let path = id.path { facts.append("path \(path)") }
            if !facts.isEmpty { out += "\t" + facts.joined(separator: ", ") + "\n" }
            if let problem = camera.problem { out += "\tcannot open: \(problem)\n" }
            if !camera.modes.isEmpty {
                out += "\tformats:\n"
                for format in orderedFormats(camera.modes) {
                    let sizes = camera.modes.filter { $0.pixelFormat == format }.map { mode in
                        "\(mode.width)x\(mode.height)" + (mode.rates.isEmpty ? ""
                            : "@" + mode.rates.map(\.description).joined(separator: "/"))
                    }
                    out += "\t  \(format): " + sizes.joined(separator: " ") + "\n"
                }
            } else if camera.problem == nil {
                out += "\tformats: none reported\n"
            }
            if !camera.controls.isEmpty {
                out += "\tcontrols:\n"
                for control in camera.controls {
                    out += "\t  " + Self.controlLine(control.id, control.info, current: control.current) + "\n"
                }
            }
            if let ptz = Self.ptzLine(camera) { out += "\t\(ptz)\n" }
            if let rig, let match {
                if let lens = match.lens(servedBy: id) {
                    out += "\tlens: \(lens)\n"
                    if let advice = rateWarning(camera, lens: lens) { out += "\twarning: \(advice)\n" }
                } else {
                    out += "\tlens: none (no lens of rig \"\(rig.name)\" matches this camera)\n"
                }
            }
            out += "\n"
        }
        if let rig, let match {
            for lensName in match.unmatchedLenses {
                let rule = rig.lens(named: lensName).flatMap { lens -> String? in
                    if case .camera(let rule) = lens.source { return rule.description }
                    return nil
                } ?? "?"
                out += "lens \(lensName): no camera matches \(rule)\n"
            }
        }
        return out
    }

    /// The same facts as JSON, for scripts.
    func json() -> String {
        struct Mode: Encodable { var format: String; var width: Int; var height: Int; var fps: [Double] }
        /// `current` is absent when the camera would not say.
        struct Control: Encodable { var name: String; var id: UInt32; var current: Int32?; var minimum: Int32
            var maximum: Int32; var step: Int32; var `default`: Int32 }
        struct Camera: Encodable {
            var device: String; var name: String; var driver: String?; var bus: String?; var serial: String?
            var path: String?; var usb: String?; var lens: String?; var problem: String?; var rateWarning: String?
            var modes: [Mode]; var controls: [Control]
            /// The PTZ controls among `controls` (`zoom_absolute`, `pan_absolute`, `tilt_absolute`); absent when none.
            var ptz: [String]?
        }
        /// A sound card: what the text listing shows (`card`, `name`, `alsa` the PCM that opens it, `usb`,
        /// `serial`, `path`), the fields an `audio: {match: …}` rule compares.
        struct Microphone: Encodable {
            var card: Int; var name: String; var alsa: String; var usb: String?; var serial: String?; var path: String?
        }
        struct Report: Encodable {
            var cameras: [Camera]; var microphones: [Microphone]; var unmatchedLenses: [String]?; var error: String?
            var advice: String?
        }
        let report = Report(
            cameras: cameras.map { camera in
                let id = camera.identity
                return Camera(device: id.devicePath, name: id.name, driver: id.driver, bus: id.bus, serial: id.serial,
                              path: id.path, usb: id.usb, lens: match?.lens(servedBy: id), problem: camera.problem,
                              rateWarning: match?.lens(servedBy: id).flatMap { rateWarning(camera, lens: $0) },
                              modes: camera.modes.map {
                                  Mode(format: $0.pixelFormat.description, width: $0.width, height: $0.height,
                                       fps: $0.rates.map(\.framesPerSecond))
                              },
                              controls: camera.controls.map {
                                  Control(name: "\($0.id)", id: $0.info.id, current: $0.current,
                                          minimum: $0.info.minimum, maximum: $0.info.maximum, step: $0.info.step,
                                          default: $0.info.defaultValue)
                              },
                              ptz: Self.ptzControls(camera).map { $0.map { "\($0.id)" } })
            },
            microphones: microphones.map {
                Microphone(card: $0.card, name: $0.name, alsa: $0.pcmName, usb: $0.usb, serial: $0.serial, path: $0.path)
            },
            unmatchedLenses: match?.unmatchedLenses, error: matchError,
            advice: cameras.isEmpty ? Self.noCameraAdvice.trimmingCharacters(in: .whitespacesAndNewlines) : nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(report)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// One control as the listing shows it: the value the camera holds now, then its range (with the step when it
    /// is not 1) and its power-on default — `zoom_absolute 250 (100…500, default 100)`. A camera that will not
    /// say its value gets `?`, so the line still shows the range a rig's `controls:` may use.
    static func controlLine(_ id: V4L2ControlID, _ info: V4L2ControlInfo, current: Int32?) -> String {
        let step = info.step > 1 ? " step \(info.step)" : ""
        return "\(id) \(current.map(String.init) ?? "?") (\(info.minimum)…\(info.maximum)\(step), "
            + "default \(info.defaultValue))"
    }

    /// The camera's PTZ controls (motorised zoom, pan, tilt), or `nil` when it has none.
    static func ptzControls(_ camera: CameraDescription)
        -> [(id: V4L2ControlID, info: V4L2ControlInfo, current: Int32?)]? {
        let ptz = camera.controls.filter { $0.id.ptzAxis != nil && $0.info.type == .integer }
        return ptz.isEmpty ? nil : ptz
    }

    /// `PTZ: zoom_absolute 100…500, pan_absolute -36000…36000 step 3600 (zoom presets' optical: and ptz:)`: what
    /// a zoom preset may move on this camera, said once so a PTZ webcam is told apart from a fixed one.
    static func ptzLine(_ camera: CameraDescription) -> String? {
        guard let ptz = ptzControls(camera) else { return nil }
        let ranges = ptz.map { control in
            "\(control.id) \(control.info.minimum)…\(control.info.maximum)"
                + (control.info.step > 1 ? " step \(control.info.step)" : "")
        }
        let keys = ptz.contains { $0.id == .zoomAbsolute } ? (ptz.count > 1 ? "optical: and ptz:" : "optical:") : "ptz:"
        return "PTZ: " + ranges.joined(separator: ", ") + " (zoom presets' \(keys))"
    }

    /// The warning a session would give at its start when the mode chosen for `lens` on `camera` is slower than the
    /// movie (`nil` when it keeps up, or when no mode fits, which the camera's `problem` already says). The same
    /// check as `pausecam check` (`V4L2RateCheck`).
    private func rateWarning(_ camera: CameraDescription, lens name: String) -> String? {
        guard let rig, let lens = rig.lens(named: name),
              case .tooSlow(let advice) = V4L2RateCheck.finding(lens: lens, camera: camera, output: rig.output.rate)
        else { return nil }
        return advice
    }

    private func orderedFormats(_ modes: [V4L2Mode]) -> [V4L2PixelFormat] {
        var formats: [V4L2PixelFormat] = []
        for mode in modes where !formats.contains(mode.pixelFormat) { formats.append(mode.pixelFormat) }
        return formats
    }
}
