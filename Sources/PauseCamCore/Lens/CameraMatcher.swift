/// Decides which camera serves which rig lens, by each lens's `match` rule — pure, so it is the same for the
/// startup enumeration, a hot-plug event and `pausecam devices`.
///
/// A lens's rule must pick at most one camera: two cameras matching one rule is an error naming both (the rig must
/// say `serial` or `path` instead). A camera claimed by two lenses is an error as well. Cameras no lens wants and
/// lenses with no camera are reported, not errors: a lens may be plugged in later.
public enum CameraMatcher {
    /// The outcome of matching a set of cameras against a rig's lenses.
    public struct Result: Sendable, Equatable {
        /// Lens name and the camera serving it, in the rig's lens order.
        public var assignments: [(lens: String, camera: CameraIdentity)]
        /// Cameras that match no lens's rule, in the order given.
        public var unmatchedCameras: [CameraIdentity]
        /// Camera lenses (not virtual ones) no present camera matches, in rig order.
        public var unmatchedLenses: [String]

        /// The camera serving `lens`, if any.
        public func camera(for lens: String) -> CameraIdentity? {
            assignments.first { $0.lens == lens }?.camera
        }

        /// The lens `camera` serves, if any.
        public func lens(servedBy camera: CameraIdentity) -> String? {
            assignments.first { $0.camera == camera }?.lens
        }

        public static func == (a: Result, b: Result) -> Bool {
            a.assignments.map(\.lens) == b.assignments.map(\.lens)
                && a.assignments.map(\.camera) == b.assignments.map(\.camera)
                && a.unmatchedCameras == b.unmatchedCameras && a.unmatchedLenses == b.unmatchedLenses
        }
    }

    /// Why matching failed; the text names the lens, the rule and every camera involved.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// More than one camera satisfies one lens's rule.
        case ambiguousRule(lens: String, rule: Rig.MatchRule, cameras: [CameraIdentity])
        /// One camera satisfies the rules of several lenses.
        case cameraClaimedTwice(camera: CameraIdentity, lenses: [String])

        public var description: String {
            switch self {
            case .ambiguousRule(let lens, let rule, let cameras):
                let names = cameras.map(CameraMatcher.describe).joined(separator: " and ")
                return "lens \"\(lens)\": match \(rule) fits \(cameras.count) cameras: \(names); "
                    + "match by serial, path or bus instead (several nodes of one device share a path; see `pausecam devices`)"
            case .cameraClaimedTwice(let camera, let lenses):
                return "camera \(CameraMatcher.describe(camera)) matches lenses "
                    + lenses.map { "\"\($0)\"" }.joined(separator: " and ") + "; give each lens its own camera"
            }
        }
    }

    /// Matches `cameras` to the camera lenses of `lenses`.
    public static func match(_ cameras: [CameraIdentity], to lenses: [Rig.Lens]) throws(Failure) -> Result {
        var assignments: [(lens: String, camera: CameraIdentity)] = []
        var unmatchedLenses: [String] = []
        for lens in lenses {
            guard case .camera(let rule) = lens.source else { continue }
            let found = cameras.filter(rule.matches)
            if found.count > 1 { throw .ambiguousRule(lens: lens.name, rule: rule, cameras: found) }
            if let camera = found.first {
                if let earlier = assignments.first(where: { $0.camera == camera }) {
                    throw .cameraClaimedTwice(camera: camera, lenses: [earlier.lens, lens.name])
                }
                assignments.append((lens.name, camera))
            } else {
                unmatchedLenses.append(lens.name)
            }
        }
        let unmatchedCameras = cameras.filter { camera in !assignments.contains { $0.camera == camera } }
        return Result(assignments: assignments, unmatchedCameras: unmatchedCameras, unmatchedLenses: unmatchedLenses)
    }

    /// The lens a newly attached `camera` serves, judged by rules alone (for hot-plug, where the other cameras
    /// are already assigned); `nil` when no camera lens's rule fits it.
    public static func lens(for camera: CameraIdentity, among lenses: [Rig.Lens]) -> Rig.Lens? {
        lenses.first { lens in
            if case .camera(let rule) = lens.source { return rule.matches(camera) }
            return false
        }
    }

    /// "/dev/video2 (HD Pro Webcam C920, serial 1234ABCD)" — enough to tell two identical models apart.
    public static func describe(_ camera: CameraIdentity) -> String {
        var details = [camera.name]
        if let serial = camera.serial { details.append("serial \(serial)") }
        if let path = camera.path { details.append("path \(path)") }
        return "\(camera.devicePath) (\(details.joined(separator: ", ")))"
    }
}
