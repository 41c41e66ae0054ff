/// How a lens's picture is turned before it is fitted into the canvas (`rotate:` and `mirror:` of a rig lens): a
/// camera mounted on its side or upside down, or a presenter's view that should read like a mirror.
///
/// The picture is first turned clockwise by `rotation`, then, when `mirrored`, flipped left to right as it is then
/// seen. A quarter turn swaps the picture's width and height, so a 1280x720 camera turned 90° is a 720x1280 picture,
/// letterboxed or pillarboxed into the canvas like any lens of another aspect. The orientation is fixed for a clip:
/// it belongs to the lens, not to a command.
public struct PictureOrientation: Sendable, Hashable, CustomStringConvertible {
    /// A clockwise turn by a multiple of 90°; the raw value is the angle in degrees, as a rig writes it.
    public enum Rotation: Int, Sendable, Hashable, CaseIterable {
        case none = 0
        case quarter = 90
        case half = 180
        case threeQuarters = 270

        /// True for 90° and 270°: the turns that swap width and height.
        public var swapsSides: Bool { self == .quarter || self == .threeQuarters }
    }

    /// The clockwise turn.
    public var rotation: Rotation
    /// Whether the turned picture is flipped left to right.
    public var mirrored: Bool

    public init(rotation: Rotation = .none, mirrored: Bool = false) {
        self.rotation = rotation
        self.mirrored = mirrored
    }

    /// The picture as the camera delivers it: nothing to do, and nothing copied.
    public static let upright = PictureOrientation()

    /// True when the picture is used as delivered.
    public var isUpright: Bool { rotation == .none && !mirrored }

    /// The size a `width`×`height` picture has once oriented.
    public func orientedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        rotation.swapsSides ? (height, width) : (width, height)
    }

    /// "rotated 90°, mirrored", "mirrored", "upright": what `pausecam check` shows.
    public var description: String {
        var parts: [String] = []
        if rotation != .none { parts.append("rotated \(rotation.rawValue)°") }
        if mirrored { parts.append("mirrored") }
        return parts.isEmpty ? "upright" : parts.joined(separator: ", ")
    }
}
