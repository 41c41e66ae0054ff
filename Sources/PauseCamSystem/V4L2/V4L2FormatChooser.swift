import PauseCamCore

/// Chooses a camera mode for a rig lens, a pure function of what the lens asks and what the camera offers.
///
/// - Pixel format: `mjpeg` → MJPEG (or JPEG); `yuyv` → YUYV; `any` → MJPEG when offered (several cameras fit on
///   one USB bus only compressed), else YUYV. `auto` is resolved before (`USBFormatAutoResolution`); one left
///   unresolved (nothing says where the camera sits) acts as `any`. Formats libv4l2 emulates are used only when nothing native fits.
/// - Size: the requested size if offered, else the largest not larger than it, else the smallest larger one;
///   without a request, the largest.
/// - Rate: the requested rate if offered at that size, else the fastest not faster than it, else the slowest;
///   without a request, the fastest up to 30 fps (a 60 fps mode would only cost USB bandwidth and CPU).
public enum V4L2FormatChooser {
    /// The frame rate asked for when the lens names none.
    public static let defaultRateCap = FrameRate(30)

    /// Picks a mode; throws `V4L2Error.noUsableFormat` naming what the camera offers when no format fits.
    public static func choose(format wanted: Rig.Lens.CaptureFormat, width: Int?, height: Int?, rate: FrameRate?,
                              from modes: [V4L2Mode], device: String) throws -> V4L2FormatChoice {
        let preference: [[V4L2PixelFormat]]
        switch wanted {
        case .mjpeg: preference = [[.mjpeg, .jpeg]]
        case .yuyv: preference = [[.yuyv]]
        case .any, .auto: preference = [[.mjpeg, .jpeg], [.yuyv]]
        }
        var candidates: [V4L2Mode] = []
        for emulated in [false, true] where candidates.isEmpty {
            for group in preference where candidates.isEmpty {
                candidates = modes.filter { group.contains($0.pixelFormat) && $0.emulated == emulated }
            }
        }
        guard !candidates.isEmpty else {
            var offered: [String] = []
            for mode in modes where !offered.contains(mode.pixelFormat.description) {
                offered.append(mode.pixelFormat.description)
            }
            let names = preference.flatMap { $0 }.map(\.description).joined(separator: " or ")
            throw V4L2Error.noUsableFormat(device: device, wanted: names,
                                           offered: offered.isEmpty ? "nothing" : offered.joined(separator: ", "))
        }
        let mode = chooseSize(candidates, width: width, height: height)
        return V4L2FormatChoice(pixelFormat: mode.pixelFormat, width: mode.width, height: mode.height,
                                rate: chooseRate(mode.rates, wanted: rate))
    }

    private static func chooseSize(_ modes: [V4L2Mode], width: Int?, height: Int?) -> V4L2Mode {
        let byArea = modes.sorted { ($0.width * $0.height, $0.width) > ($1.width * $1.height, $1.width) }
        guard width != nil || height != nil else { return byArea[0] }
        if let exact = byArea.first(where: { (width == nil || $0.width == width) && (height == nil || $0.height == height) }) {
            return exact
        }
        let fits = { (m: V4L2Mode) in m.width <= (width ?? Int.max) && m.height <= (height ?? Int.max) }
        return byArea.first(where: fits) ?? byArea.last!
    }

    private static func chooseRate(_ rates: [FrameRate], wanted: FrameRate?) -> FrameRate? {
        guard !rates.isEmpty else { return wanted }
        let target = wanted ?? defaultRateCap
        if let exact = rates.first(where: { $0.frameDuration == target.frameDuration }) { return exact }
        let notFaster = rates.filter { $0.frameDuration >= target.frameDuration }
        return notFaster.min { $0.frameDuration < $1.frameDuration } ?? rates.max { $0.frameDuration < $1.frameDuration }
    }
}
