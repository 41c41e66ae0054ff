/// What `format: auto` means for each camera lens: the encoding that fits the USB plan at the lens's size and
/// rate. Uncompressed YUYV gives the better picture and costs no JPEG decoding, but it is the bus's heaviest load
/// (1280x720 at 30 fps is more than one USB 2.0 stream can carry); MJPEG is a fraction of it. So:
///
/// - a lens whose camera shares its host controller with another camera lens streams MJPEG when the camera offers
///   it (several cameras fit on one controller only compressed, and the streams start and stop during switches);
/// - a lens alone on its controller streams YUYV when its YUYV mode fits its bus on its own, else MJPEG;
/// - a lens not on USB (a capture card, vivid) has no plan: it gets what `format: any` takes, MJPEG when offered
///   (so `auto` can be the default without changing such a rig);
/// - a camera that offers only one of the two gets that one.
///
/// Pure: the caller says which mode each encoding would give the lens on its camera (what `V4L2FormatChooser`
/// picks for `mjpeg` and for `yuyv`), and the buses present; the plan itself is `USBBandwidthPlanner`'s.
public enum USBFormatAutoChoice {
    /// One camera lens to decide for.
    public struct Candidate: Sendable, Equatable {
        /// The lens's name in the rig.
        public var lens: String
        /// Where its camera sits; `nil` when it is not on USB.
        public var placement: USBPlacement?
        /// The YUYV mode the camera would stream for this lens; `nil` when it offers no YUYV.
        public var yuyv: USBStreamMode?
        /// The MJPEG mode the camera would stream for this lens; `nil` when it offers no MJPEG.
        public var mjpeg: USBStreamMode?

        public init(lens: String, placement: USBPlacement?, yuyv: USBStreamMode?, mjpeg: USBStreamMode?) {
            self.lens = lens
            self.placement = placement
            self.yuyv = yuyv
            self.mjpeg = mjpeg
        }
    }

    /// The encoding chosen for one lens, and why in words (for the session's log and the sidecar).
    public struct Choice: Sendable, Equatable {
        /// The lens's name in the rig.
        public var lens: String
        /// `nil` when the camera offers neither (the session's format error says so).
        public var encoding: USBStreamMode.Encoding?
        /// What decided it ("shares controller 0000:00:14.0 with lens tele").
        public var reason: String
    }

    /// One choice per candidate, in the order given. `buses` are the buses present (their controllers say which
    /// lenses share one); a placement on a bus not listed counts as its own controller.
    public static func choose(_ candidates: [Candidate], buses: [USBBus]) -> [Choice] {
        func controller(of placement: USBPlacement) -> String {
            buses.first { $0.number == placement.bus }?.controller ?? "bus \(placement.bus)"
        }
        return candidates.map { candidate in
            let name = candidate.lens
            guard let yuyv = candidate.yuyv else {
                guard candidate.mjpeg != nil else {
                    return Choice(lens: name, encoding: nil, reason: "the camera offers neither MJPEG nor YUYV")
                }
                return Choice(lens: name, encoding: .mjpeg, reason: "the camera offers no YUYV")
            }
            guard let mjpeg = candidate.mjpeg else {
                return Choice(lens: name, encoding: .yuyv, reason: "the camera offers no MJPEG")
            }
            guard let placement = candidate.placement else {
                return Choice(lens: name, encoding: .mjpeg, reason: "not on USB: no bus plan, so as `format: any`")
            }
            let own = controller(of: placement)
            let sharing = candidates.filter { other in
                other.lens != name && other.placement.map { controller(of: $0) == own } == true
            }.map(\.lens)
            if !sharing.isEmpty {
                return Choice(lens: name, encoding: .mjpeg, reason: "shares controller \(own) with lens"
                              + (sharing.count == 1 ? " " : "es ") + sharing.joined(separator: ", "))
            }
            let alone = USBBandwidthPlanner.plan([USBCameraLoad(lens: name, placement: placement, mode: yuyv)],
                                                 buses: buses, standby: .hot)
            if alone.verdict == .fits {
                return Choice(lens: name, encoding: .yuyv, reason: "alone on controller \(own), and \(yuyv) fits")
            }
            let needs = alone.buses.first?.shares.first.map { USBBandwidthPlanner.megabits($0.bitsPerSecond) } ?? "?"
            return Choice(lens: name, encoding: .mjpeg,
                          reason: "\(yuyv) needs \(needs), more than its bus carries; \(mjpeg) instead")
        }
    }
}
