import Foundation

/// The USB bandwidth plan in words, as `pausecam check` and `pausecam devices --rig` print it: per bus its budget,
/// each camera lens with its port, mode and share, the total, the verdict and the fixes; then the camera lenses
/// that could not be placed and why.
public enum USBBandwidthReport {
    /// A camera lens left out of the plan, and why ("not connected; `usb_port:` places it for the plan").
    public struct Unplanned: Sendable, Equatable {
        /// The lens's name in the rig.
        public var lens: String
        /// Why it has no place, and what gives it one.
        public var reason: String
        public init(lens: String, reason: String) {
            self.lens = lens
            self.reason = reason
        }
    }

    /// The report, indented by two spaces under a heading; empty when there is nothing to plan or to say.
    /// `formatChoices` are the `format: auto` lenses' encodings (already planned in them), each printed with why.
    public static func text(of plan: USBBandwidthPlan, unplanned: [Unplanned], standby: Rig.Standby,
                            formatChoices: [USBFormatAutoChoice.Choice] = [],
                            standbyChoices: [USBStandbyAutoChoice.Choice] = []) -> String {
        guard !plan.buses.isEmpty || !unplanned.isEmpty || !formatChoices.isEmpty else { return "" }
        let megabits = USBBandwidthPlanner.megabits
        let heading: String
        switch standby {
        case .hot: heading = "standby hot: every lens streams at once"
        case .cold: heading = "standby cold: the active lens and, during a switch, the next one stream"
        case .auto: heading = "standby auto: hot on a bus with room for all its lenses, cold on the others"
        }
        var out = "  USB bandwidth (periodic budget per bus; \(heading)):\n"
        for bus in plan.buses {
            let budget = bus.budget
            func percent(_ bits: Int64) -> String {
                budget > 0 ? "\((bits * 100 + budget / 2) / budget) %" : "no periodic budget"
            }
            out += "    \(bus.bus.description): budget \(megabits(budget))\n"
            for share in bus.shares {
                let load = share.load
                var line = "      \(load.lens): port \(load.placement.name)"
                    + (load.placement.declared ? " (declared)" : "") + ", \(load.placement.speed.megabits) Mbit/s, "
                    + "\(load.mode), " + (share.estimated ? "about " : "") + megabits(share.bitsPerSecond)
                    + " (\(percent(share.bitsPerSecond)))"
                if share.estimated && share.worstCase > share.bitsPerSecond {
                    line += ", up to \(megabits(share.worstCase))"
                }
                if share.exceedsOneStream, let limit = load.placement.speed.endpointLimit {
                    line += ": more than one stream can carry at \(load.placement.speed.megabits) Mbit/s "
                        + "(\(megabits(limit)))"
                }
                out += line + "\n"
            }
            out += "      total \(megabits(bus.demand)) (\(percent(bus.demand))): "
            switch bus.verdict {
            case .fits:
                out += "fits\n"
            case .mayNotFit:
                out += "may not fit: within the budget by the MJPEG estimate, not if the cameras reserve the most a "
                    + "stream can (\(megabits(bus.worstCaseDemand)))\n"
            case .doesNotFit:
                out += "does not fit: a camera will fail to start (VIDIOC_STREAMON: No space left on device)\n"
            }
            for fix in bus.fixes { out += "      fix: \(fix)\n" }
            for note in bus.notes { out += "      note: \(note)\n" }
        }
        for choice in formatChoices {
            out += "    \(choice.lens): format auto: " + (choice.encoding?.rawValue ?? "no choice") + " (\(choice.reason))\n"
        }
        for choice in standbyChoices {
            out += "    \(choice.lens): standby auto: \(choice.standby.rawValue) (\(choice.reason))\n"
        }
        for lens in unplanned { out += "    \(lens.lens): not planned: \(lens.reason)\n" }
        return out
    }
}
