import Foundation

/// Plans a rig's cameras against the USB buses they sit on, before anything streams: the cause of most
/// "`VIDIOC_STREAMON`: No space left on device" failures is several cameras reserving more periodic bandwidth on
/// one bus than the bus has (USB isochronous bandwidth is reserved when a stream starts, whatever it then sends).
/// Pure: the caller reads sysfs and the rig; `USBBandwidthReport` puts the result in words.
///
/// What each stream needs, in bits per second:
/// - YUYV (uncompressed): width × height × 2 bytes × fps, every byte of every frame.
/// - MJPEG with the camera's `dwMaxPayloadTransferSize` known: that many bytes every service interval (8,000 a
///   second at high speed and above, 1,000 at full speed) — what the UVC driver reserves.
/// - MJPEG otherwise: an estimate of 4 bits per pixel × width × height × fps (a quarter of YUYV; webcam JPEGs
///   are usually smaller, so the estimate leans towards warning), capped at what one stream can reserve at the
///   camera's speed. Some cameras reserve that cap whatever the mode, which is why a bus that fits only by the
///   estimate gets the verdict `mayNotFit` rather than `fits`.
/// The budgets per speed are `USBSpeed.periodicBudget` (their sources are documented there).
public enum USBBandwidthPlanner {
    /// The MJPEG estimate's bits per pixel when the camera's payload size is unknown.
    public static let mjpegEstimateBitsPerPixel: Int64 = 4

    /// The share of one lens's stream at the speed its camera runs at.
    public static func share(of load: USBCameraLoad) -> USBBandwidthPlan.Share {
        let mode = load.mode
        let speed = load.placement.speed
        let pixelsPerSecondTimes = { (bitsPerPixel: Int64) -> Int64 in
            // Rounded up: a stream never needs less than its exact figure.
            let numerator = Int64(mode.width) * Int64(mode.height) * bitsPerPixel * Int64(mode.rate.numerator)
            let denominator = Int64(mode.rate.denominator)
            return (numerator + denominator - 1) / denominator
        }
        let limit = speed.endpointLimit
        switch mode.encoding {
        case .yuyv:
            let bits = pixelsPerSecondTimes(16)
            return .init(load: load, bitsPerSecond: bits, estimated: false, worstCase: bits,
                         exceedsOneStream: limit.map { bits > $0 } ?? false)
        case .mjpeg:
            if let payload = mode.payloadBytesPerInterval {
                let bits = Int64(payload) * 8 * speed.intervalsPerSecond
                return .init(load: load, bitsPerSecond: bits, estimated: false, worstCase: bits,
                             exceedsOneStream: limit.map { bits > $0 } ?? false)
            }
            let estimate = pixelsPerSecondTimes(mjpegEstimateBitsPerPixel)
            let capped = limit.map { min(estimate, $0) } ?? estimate
            return .init(load: load, bitsPerSecond: capped, estimated: true, worstCase: limit ?? capped,
                         exceedsOneStream: limit == 0)
        }
    }

    /// The plan for `loads` (the rig's camera lenses with a known place), given every bus present (`buses`, which
    /// may include buses without cameras: they are where a fix can move one) and the rig's `standby`.
    /// A load on a bus not in `buses` (a declared place on a machine without it) gets a bus at its own speed; so
    /// does a declared place whose speed cannot be on the bus of that number here (a USB 2.0 camera declared on a
    /// bus that is SuperSpeed on this machine): the rig describes another machine, and its declaration wins.
    public static func plan(_ loads: [USBCameraLoad], buses: [USBBus], standby: Rig.Standby) -> USBBandwidthPlan {
        var known = buses
        for load in loads {
            let placement = load.placement
            if let index = known.firstIndex(where: { $0.number == placement.bus }) {
                if placement.declared && known[index].speed.isSuperSpeed != placement.speed.isSuperSpeed {
                    known[index] = USBBus(number: placement.bus, speed: placement.speed)
                }
            } else {
                known.append(USBBus(number: placement.bus, speed: placement.speed))
            }
        }
        let busNumbers = Set(loads.map(\.placement.bus)).sorted()
        var plans: [USBBandwidthPlan.Bus] = busNumbers.map { number in
            let bus = known.first { $0.number == number }!
            let shares = loads.filter { $0.placement.bus == number }.map(share(of:))
            let demand = self.demand(shares.map(\.bitsPerSecond), standby: standby)
            let worst = self.demand(shares.map(\.worstCase), standby: standby)
            let verdict: USBBandwidthPlan.Verdict
            if shares.contains(where: \.exceedsOneStream) || demand > bus.speed.periodicBudget {
                verdict = .doesNotFit
            } else if worst > bus.speed.periodicBudget {
                verdict = .mayNotFit
            } else {
                verdict = .fits
            }
            let notes = shares.filter(\.load.placement.isSuperSpeedCameraOnSlowerLink).map { share in
                let placement = share.load.placement
                return "lens \(share.load.lens): its camera is USB \(placement.version ?? "3") but runs at "
                    + "\(placement.speed.megabits) Mbit/s on port \(placement.name): a USB 2 port, hub or cable is "
                    + "on its way"
            }
            return USBBandwidthPlan.Bus(bus: bus, shares: shares, demand: demand, worstCaseDemand: worst,
                                        verdict: verdict, fixes: [], notes: notes)
        }
        for index in plans.indices where plans[index].verdict != .fits {
            plans[index].fixes = fixes(for: plans[index], all: plans, known: known, standby: standby)
        }
        return USBBandwidthPlan(buses: plans)
    }

    /// What a bus must carry at once: every stream when they all stream (`hot`); with `cold` only the active lens
    /// streams, plus the next one during a switch, so the two largest.
    static func demand(_ figures: [Int64], standby: Rig.Standby) -> Int64 {
        if standby == .cold { return figures.sorted(by: >).prefix(2).reduce(0, +) }
        return figures.reduce(0, +)
    }

    /// The fixes for a bus that does not (surely) fit, most effective first.
    private static func fixes(for plan: USBBandwidthPlan.Bus, all plans: [USBBandwidthPlan.Bus], known: [USBBus],
                              standby: Rig.Standby) -> [String] {
        var fixes: [String] = []
        let budget = plan.budget
        for share in plan.shares where share.load.mode.encoding == .yuyv {
            var compressed = share.load
            compressed.mode.encoding = .mjpeg
            compressed.mode.payloadBytesPerInterval = nil
            fixes.append("`format: mjpeg` on lens \(share.load.lens) (\(share.load.mode) needs "
                         + "\(megabits(share.bitsPerSecond)); MJPEG about \(megabits(Self.share(of: compressed).bitsPerSecond)))")
        }
        // A USB 3 camera held to high speed by its port gets a SuperSpeed bus of its own by changing ports.
        let superSpeedBuses = known.filter { $0.speed.isSuperSpeed }
        for share in plan.shares where share.load.placement.isSuperSpeedCameraOnSlowerLink {
            let target = superSpeedBuses.first.map { " (\($0.description))" } ?? ""
            fixes.append("plug lens \(share.load.lens)'s camera (USB \(share.load.placement.version ?? "3")) into a "
                         + "USB 3 port\(target), with a USB 3 cable and no USB 2 hub on the way")
        }
        // Moving the largest streams to buses with room, until what stays fits.
        var staying = plan.shares.sorted { $0.worstCase > $1.worstCase }
        var used = Dictionary(uniqueKeysWithValues: plans.map { ($0.bus.number, $0.worstCaseDemand) })
        var moves: [String] = []
        var index = 0
        while demand(staying.map(\.worstCase), standby: standby) > budget && index < staying.count {
            let share = staying[index]
            let wantsSuperSpeed = share.load.placement.speed.isSuperSpeed
                || share.load.placement.isSuperSpeedCameraOnSlowerLink
            let candidates = known.filter { bus in
                guard bus.number != plan.bus.number else { return false }
                // A USB 2.0 camera on a SuperSpeed bus's ports lands on the controller's USB 2.0 bus instead.
                return wantsSuperSpeed ? bus.speed.isSuperSpeed : bus.speed == .high
            }
            var moved = false
            for bus in candidates {
                var load = share.load
                load.placement = USBPlacement(bus: bus.number, port: "?",
                                              speed: wantsSuperSpeed ? bus.speed : .high, version: load.placement.version)
                let needed = Self.share(of: load).worstCase
                let free = bus.speed.periodicBudget - (used[bus.number] ?? 0)
                guard needed <= free else { continue }
                used[bus.number, default: 0] += needed
                moves.append("move lens \(share.load.lens) to a port on \(bus.description), which has "
                             + "\(megabits(free)) free")
                staying.remove(at: index)
                moved = true
                break
            }
            if !moved { index += 1 }
        }
        if demand(staying.map(\.worstCase), standby: standby) <= budget { fixes += moves }
        if standby != .cold && plan.shares.count > 2 && !plan.shares.contains(where: \.exceedsOneStream) {
            let cold = demand(plan.shares.map(\.worstCase), standby: .cold)
            if cold <= budget {
                fixes.append("`standby: cold`: only the active lens streams (two during a switch), at most "
                             + megabits(cold))
            }
        }
        if let largest = plan.shares.max(by: { $0.bitsPerSecond < $1.bitsPerSecond }) {
            fixes.append("a smaller `size` or a lower `fps` on lens \(largest.load.lens) (the largest share, "
                         + "\(megabits(largest.bitsPerSecond)))")
        }
        return fixes
    }

    /// "442.4 Mbit/s": bits per second in megabits with one decimal, for people.
    public static func megabits(_ bitsPerSecond: Int64) -> String {
        String(format: "%.1f Mbit/s", Double(bitsPerSecond) / 1_000_000)
    }
}
