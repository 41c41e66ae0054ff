import Foundation

/// The signalling rate of a USB device or of a bus's root hub, as Linux's sysfs `speed` attribute writes it (in
/// Mbit/s: "1.5", "12", "480", "5000", "10000", "20000"), with the periodic (isochronous and interrupt) bandwidth a
/// host may reserve on such a bus: the budget every streaming camera on one bus shares.
///
/// The figures, and where they come from:
/// - Full speed (12 Mbit/s): at most 90 % of each 1 ms frame for periodic transfers (USB 2.0 specification,
///   section 5.6.4), so 10.8 Mbit/s; one isochronous endpoint carries at most 1,023 bytes per frame (section 5.6.3).
/// - High speed (480 Mbit/s, USB 2.0): at most 80 % of each 125 µs microframe for periodic transfers (USB 2.0,
///   section 5.6.4), so 384 Mbit/s — in practice a little less, as bit stuffing and protocol overhead also come out
///   of it. One high-bandwidth isochronous endpoint carries at most 3 × 1,024 bytes per microframe (section 5.6.3),
///   196.6 Mbit/s: a UVC camera's whole stream at high speed.
/// - SuperSpeed (5,000 Mbit/s, USB 3): 51,000 bytes per 125 µs service interval, 3,264 Mbit/s — the periodic limit
///   Linux's xHCI scheduler for MediaTek hosts uses (`SS_BW_BOUNDARY` in `drivers/usb/host/xhci-mtk-sch.c`), about
///   82 % of the 4,000 Mbit/s left after 8b/10b line coding. One endpoint carries at most 3 bursts of 16 packets of
///   1,024 bytes per interval (USB 3.0 specification: `bMaxBurst` up to 16, `Mult` up to 3), 3,145.7 Mbit/s.
/// - SuperSpeed+ (10,000 and 20,000 Mbit/s): 130,000 bytes per 125 µs, 8,320 Mbit/s (`SSP_BW_BOUNDARY`, same
///   file); a 20 Gbit/s (Gen 2×2) bus is counted like a 10 Gbit/s one, and no separate endpoint limit is applied.
/// - Low speed (1.5 Mbit/s) carries no isochronous transfers at all: no camera streams there.
public enum USBSpeed: String, Sendable, Equatable, CaseIterable {
    case low = "1.5"
    case full = "12"
    case high = "480"
    case superSpeed = "5000"
    case superSpeedPlus = "10000"
    case superSpeedPlusDual = "20000"

    /// The speed sysfs's `speed` attribute names (surrounding whitespace allowed); `nil` for anything else
    /// ("unknown", an empty attribute).
    public init?(sysfs text: String) {
        self.init(rawValue: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The signalling rate in Mbit/s, as sysfs writes it.
    public var megabits: String { rawValue }

    /// The speed's usual name, as `lsusb` and vendors print it.
    public var name: String {
        switch self {
        case .low: return "USB 1.1 low speed"
        case .full: return "USB 1.1 full speed"
        case .high: return "USB 2.0 high speed"
        case .superSpeed: return "USB 3 SuperSpeed 5 Gbit/s"
        case .superSpeedPlus: return "USB 3 SuperSpeed+ 10 Gbit/s"
        case .superSpeedPlusDual: return "USB 3 SuperSpeed+ 20 Gbit/s"
        }
    }

    /// True for the SuperSpeed family (5 Gbit/s and faster), which runs on its own wires and root hub beside a
    /// USB 2.0 bus: a USB 2.0 device never shares a SuperSpeed bus's budget.
    public var isSuperSpeed: Bool { self == .superSpeed || self == .superSpeedPlus || self == .superSpeedPlusDual }

    /// Service intervals per second: 1 ms frames at low and full speed, 125 µs microframes above.
    public var intervalsPerSecond: Int64 { self == .low || self == .full ? 1_000 : 8_000 }

    /// The periodic budget of one bus at this speed, in bits per second (see the type's figures).
    public var periodicBudget: Int64 {
        switch self {
        case .low: return 0
        case .full: return 10_800_000
        case .high: return 384_000_000
        case .superSpeed: return 51_000 * 8 * 8_000
        case .superSpeedPlus, .superSpeedPlusDual: return 130_000 * 8 * 8_000
        }
    }

    /// The most one isochronous endpoint (one camera's stream) can reserve at this speed, in bits per second;
    /// `nil` where no separate limit is applied (SuperSpeed+).
    public var endpointLimit: Int64? {
        switch self {
        case .low: return 0
        case .full: return 1_023 * 8 * 1_000
        case .high: return 3 * 1_024 * 8 * 8_000
        case .superSpeed: return 3 * 16 * 1_024 * 8 * 8_000
        case .superSpeedPlus, .superSpeedPlusDual: return nil
        }
    }
}
