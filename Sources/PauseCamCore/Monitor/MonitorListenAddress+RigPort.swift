import Foundation

/// Each rig's own monitor port, so a bookmark of a rig's page always reaches that rig: with two PauseCams on one
/// machine the first free port of a shared list went to whichever started first, and a bookmark drove the other.
///
/// The port is `rigPorts.lowerBound` + (FNV-1a, 32 bits, of the rig's socket name `ControlSocketLocation.slug`, in
/// UTF-8) modulo the range's size: "Studio A" and "studio-a" share a socket and so a port; two different rigs
/// share one with a chance of 1 in 640. `web.listen` or `--web` gives a rig another.
extension MonitorListenAddress {
    /// The ports a rig's own port is drawn from (640 of them, above 8360, where the monitor has always listened).
    public static let rigPorts = 8360...8999

    /// The loopback port of the rig named `rigName`.
    public static func rigPort(rigName: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in ControlSocketLocation.slug(rigName).utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return rigPorts.lowerBound + Int(hash % UInt32(rigPorts.count))
    }

    /// The loopback address of the rig named `rigName`.
    public static func rigAddress(rigName: String) -> MonitorListenAddress {
        MonitorListenAddress(host: standard.host, port: rigPort(rigName: rigName))
    }

    /// What to tell when the rig's own `port` is taken: by `holder` (another PauseCam, as "PauseCam \"Desk\" (pid
    /// 4242)") or by a program not known, and where the monitor serves instead (`fallback`, or nowhere).
    public static func rigPortTaken(_ port: Int, rigName: String, holder: String?, fallback: String?) -> String {
        "port \(port), rig \"\(rigName)\"'s own, is taken by " + (holder ?? "another program")
            + (fallback.map { "; serving on \($0) instead, so a bookmark of port \(port) does not reach this rig" }
               ?? "; no monitor")
            + ". Give this rig another port with web: {listen: 127.0.0.1:PORT} (or --web), or free port \(port)"
    }
}
