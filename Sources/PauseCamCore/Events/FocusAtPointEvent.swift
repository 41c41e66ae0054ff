/// What became of `focus at X Y` (a tap on the monitor's program picture) on the lens the picture shows: the
/// camera's region of interest, one-shot autofocus in its place, or nothing because the camera has neither.
/// The words are the command's reply; the values are for programs (`ctl watch`, the page).
public struct FocusAtPointEvent: Sendable, Equatable {
    /// The lens whose picture was tapped.
    public var lens: String
    /// The point, each from 0 (left, top) to 1 (right, bottom) of the program picture.
    public var x: Double
    public var y: Double
    /// What the lens's camera did.
    public var result: Result

    /// What the lens's camera did with the point.
    public enum Result: Sendable, Equatable {
        /// The camera focuses and exposes for `region`, in the pixels of the `cameraWidth`×`cameraHeight` picture
        /// it delivers.
        case regionOfInterest(region: PixelRect, cameraWidth: Int, cameraHeight: Int)
        /// The camera has no region of interest: it was asked for one-shot autofocus instead.
        case oneShotAutofocus
        /// The camera has neither a region of interest nor autofocus (a virtual or movie-file lens): nothing
        /// changed.
        case noFocusControl
        /// The camera refused the setting, for `reason`.
        case failed(reason: String)

        /// The stable name `ctl watch` prints in `result`.
        public var name: String {
            switch self {
            case .regionOfInterest: return "region_of_interest"
            case .oneShotAutofocus: return "one_shot_autofocus"
            case .noFocusControl: return "no_focus_control"
            case .failed: return "failed"
            }
        }
    }

    public init(lens: String, x: Double, y: Double, result: Result) {
        self.lens = lens
        self.x = x
        self.y = y
        self.result = result
    }

    /// The reply's words, which the shell prints and the page shows beside the EV slider.
    public var text: String {
        switch result {
        case .regionOfInterest(let region, let width, let height):
            return "region of interest set to \(region.width)x\(region.height) at \(region.x),\(region.y) of "
                + "\(width)x\(height) on lens \(lens)"
        case .oneShotAutofocus:
            return "one-shot autofocus on lens \(lens) (no region of interest on this camera)"
        case .noFocusControl:
            return "lens \(lens) has no focus control (no region of interest, no autofocus); nothing changed"
        case .failed(let reason):
            return "focus at a point on lens \(lens): \(reason)"
        }
    }
}
