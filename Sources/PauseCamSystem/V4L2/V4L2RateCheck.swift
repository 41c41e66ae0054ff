import PauseCamCore

/// Whether each camera lens of a rig can deliver the movie's frame rate, judged from what the camera lists
/// (`VIDIOC_ENUM_FMT`, `ENUM_FRAMESIZES`, `ENUM_FRAMEINTERVALS`, read by `UdevDeviceManager.describeCameras`): the
/// mode a session would choose for the lens (`V4L2FormatChooser`) against `output.fps`. Nothing streams and no
/// control is set, so `pausecam check` and `pausecam devices --rig` can ask it of cameras another program is using.
///
/// One place for both commands, so they give the same advice as the start of a session (`CameraRateAdvice`).
public enum V4L2RateCheck {
    /// What the check found for one camera lens.
    public enum Finding: Sendable, Equatable {
        /// The chosen mode is at least as fast as the movie.
        case keepsUp(camera: String, choice: V4L2FormatChoice)
        /// The chosen mode is slower: the advice names the lens, the mode and the fix.
        case tooSlow(advice: String)
        /// The camera lists no rate for the chosen size (it runs at its own rate): nothing to compare.
        case rateUnknown(camera: String, choice: V4L2FormatChoice)
        /// The camera could not be asked, or offers no mode the lens accepts; the text says why.
        case notChecked(camera: String, problem: String)
        /// No connected camera matches the lens's rule.
        case notConnected
    }

    /// The finding for `lens` served by `camera` in a movie at `output` fps.
    public static func finding(lens: Rig.Lens, camera: CameraDescription, output: FrameRate) -> Finding {
        let device = camera.identity.devicePath
        if let problem = camera.problem { return .notChecked(camera: device, problem: problem) }
        let choice: V4L2FormatChoice
        do {
            choice = try V4L2FormatChooser.choose(format: lens.format, width: lens.width, height: lens.height,
                                                  rate: lens.rate ?? output, from: camera.modes, device: device)
        } catch {
            return .notChecked(camera: device, problem: "\(error)")
        }
        guard let rate = choice.rate else { return .rateUnknown(camera: device, choice: choice) }
        let delivered = CameraFormat(width: choice.width, height: choice.height, rate: rate,
                                     pixelFormat: choice.pixelFormat.isJPEG ? .yuv422p : .yuyv422)
        if let advice = CameraRateAdvice.warning(lens: lens.name, camera: device, delivered: delivered, output: output,
                                                 format: lens.format, asked: lens.rate) {
            return .tooSlow(advice: advice)
        }
        return .keepsUp(camera: device, choice: choice)
    }

    /// The findings for every camera lens of `rig`, in the rig's lens order, given the cameras present and how the
    /// matcher assigned them. Virtual and file lenses have no camera and are left out.
    public static func findings(rig: Rig, cameras: [CameraDescription],
                                match: CameraMatcher.Result) -> [(lens: String, finding: Finding)] {
        rig.lenses.compactMap { lens in
            guard case .camera = lens.source else { return nil }
            guard let identity = match.camera(for: lens.name),
                  let camera = cameras.first(where: { $0.identity == identity }) else {
                return (lens.name, .notConnected)
            }
            return (lens.name, finding(lens: lens, camera: camera, output: rig.output.rate))
        }
    }

    /// The lines `pausecam check` prints under a rig's summary: a heading, then one line per camera lens ("wide:
    /// /dev/video0 keeps up: 30 fps at 1280x720 MJPG", "wide: warning: …", "tele: not connected: rate not
    /// checked"). Empty for a rig without camera lenses. `cameras` is `nil` when udev could not be read (`problem`).
    public static func report(rig: Rig, cameras: [CameraDescription]?, problem: String? = nil) -> String {
        guard rig.lenses.contains(where: { if case .camera = $0.source { return true } else { return false } }) else {
            return ""
        }
        let heading = "  camera rates (for \(rig.output.rate) fps):\n"
        guard let cameras else {
            return heading + "    not checked: \(problem ?? "the cameras could not be listed")\n"
        }
        let match: CameraMatcher.Result
        do {
            match = try CameraMatcher.match(cameras.map(\.identity), to: rig.lenses)
        } catch {
            return heading + "    not checked: \(error)\n"
        }
        return heading + findings(rig: rig, cameras: cameras, match: match).map { lens, finding in
            "    \(lens): " + text(of: finding) + "\n"
        }.joined()
    }

    /// One finding in words, without the lens name.
    public static func text(of finding: Finding) -> String {
        switch finding {
        case .keepsUp(let camera, let choice):
            return "\(camera) keeps up: \(choice.rate.map(\.description) ?? "?") fps at "
                + "\(choice.width)x\(choice.height) \(choice.pixelFormat)"
        case .tooSlow(let advice):
            return "warning: \(advice)"
        case .rateUnknown(let camera, let choice):
            return "\(camera) lists no frame rate for \(choice.width)x\(choice.height) \(choice.pixelFormat): "
                + "rate not checked"
        case .notChecked(let camera, let problem):
            return "\(camera): rate not checked: \(problem)"
        case .notConnected:
            return "not connected: rate not checked"
        }
    }
}
