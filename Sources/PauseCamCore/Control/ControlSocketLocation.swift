/// Where a running PauseCam listens: `$XDG_RUNTIME_DIR/pausecam/<rig-name-slug>.sock`, or, when XDG_RUNTIME_DIR is
/// unset (a cron job, `su` without a login session), `/tmp/pausecam-<uid>/`. Both directories must be private to
/// the user (0700, owned by them): the system side checks that before it trusts one. Pure text, so `pausecam ctl`
/// and the recorder compute the same path from the same rig name.
public enum ControlSocketLocation {
    /// The directory of the sockets for this user. A relative XDG_RUNTIME_DIR is ignored, as the XDG spec says.
    public static func directory(environment: [String: String], userID: UInt32) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/pausecam"
        }
        return "/tmp/pausecam-\(userID)"
    }

    /// The socket of the rig named `rigName`.
    public static func socketPath(rigName: String, environment: [String: String], userID: UInt32) -> String {
        socketPath(rigName: rigName, directory: directory(environment: environment, userID: userID))
    }

    /// The socket of the rig named `rigName` in the sockets' `directory`.
    public static func socketPath(rigName: String, directory: String) -> String {
        directory + "/" + slug(rigName) + ".sock"
    }

    /// The longest socket path, in bytes: `sockaddr_un.sun_path` holds 108 on Linux, the last one the NUL.
    public static let maximumPathBytes = 107

    /// The lock file beside a socket: it holds the pid of the process that owns the socket, under `flock`.
    public static func lockPath(socket: String) -> String { socket + ".lock" }

    /// A file name for a rig name: ASCII letters and digits in lower case, every other run of characters one "-",
    /// no "-" at either end; "rig" when nothing is left ("Studio A / Desk" → "studio-a-desk").
    public static func slug(_ rigName: String) -> String {
        var slug = ""
        var pendingDash = false
        for scalar in rigName.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                if pendingDash && !slug.isEmpty { slug.append("-") }
                pendingDash = false
                slug.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return slug.isEmpty ? "rig" : String(slug.lowercased().prefix(80))
    }
}
