import PauseCamCore

/// Turns the rig's `format: auto` lenses into `mjpeg` or `yuyv` on this machine: every camera lens is placed where
/// sysfs says its camera sits (or where its `usb_port:` declares), given the YUYV and MJPEG modes
/// `V4L2FormatChooser` would pick from what its camera lists, and `USBFormatAutoChoice` decides. `pausecam check`
/// plans and prints the result; a session opens each camera in the format chosen here.
public enum USBFormatAutoResolution {
    /// One choice per `format: auto` camera lens that has a place (connected, or declared with `usb_port:`), in
    /// rig order. Lenses with another `format:` take part only as neighbours on a controller.
    public static func choices(rig: Rig, cameras: [CameraDescription], match: CameraMatcher.Result?,
                               buses: [USBBus]) -> [USBFormatAutoChoice.Choice] {
        guard rig.lenses.contains(where: { $0.format == .auto }) else { return [] }
        var candidates: [USBFormatAutoChoice.Candidate] = []
        for lens in rig.lenses {
            guard case .camera = lens.source else { continue }
            let camera = match?.camera(for: lens.name).flatMap { identity in
                cameras.first { $0.identity == identity }
            }
            let rate = lens.rate ?? rig.output.rate
            if let camera, !camera.modes.isEmpty {
                func mode(_ format: Rig.Lens.CaptureFormat) -> USBStreamMode? {
                    guard let choice = try? V4L2FormatChooser.choose(format: format, width: lens.width,
                                                                     height: lens.height, rate: rate,
                                                                     from: camera.modes,
                                                                     device: camera.identity.devicePath) else {
                        return nil
                    }
                    return USBStreamMode(encoding: choice.pixelFormat.isJPEG ? .mjpeg : .yuyv, width: choice.width,
                                         height: choice.height, rate: choice.rate ?? rate)
                }
                candidates.append(.init(lens: lens.name, placement: camera.usbPlacement, yuyv: mode(.yuyv),
                                        mjpeg: mode(.mjpeg)))
                continue
            }
            // No camera, or one that lists no modes (it could not be opened): a UVC camera offers both encodings,
            // so both are assumed at the size and rate the lens asks for.
            guard let placement = camera?.usbPlacement ?? lens.usbPort else { continue }
            let width = lens.width ?? rig.output.width, height = lens.height ?? rig.output.height
            candidates.append(.init(lens: lens.name, placement: placement,
                                    yuyv: USBStreamMode(encoding: .yuyv, width: width, height: height, rate: rate),
                                    mjpeg: USBStreamMode(encoding: .mjpeg, width: width, height: height, rate: rate)))
        }
        let auto = Set(rig.lenses.filter { $0.format == .auto }.map(\.name))
        return USBFormatAutoChoice.choose(candidates, buses: buses).filter { auto.contains($0.lens) }
    }

    /// `rig` with each chosen lens's `format: auto` replaced by its encoding; lenses without a choice keep `auto`
    /// (which acts as `any`).
    public static func resolve(_ rig: Rig, with choices: [USBFormatAutoChoice.Choice]) -> Rig {
        var resolved = rig
        for index in resolved.lenses.indices where resolved.lenses[index].format == .auto {
            let name = resolved.lenses[index].name
            switch choices.first(where: { $0.lens == name })?.encoding {
            case .mjpeg: resolved.lenses[index].format = .mjpeg
            case .yuyv: resolved.lenses[index].format = .yuyv
            case nil: break
            }
        }
        return resolved
    }
}
