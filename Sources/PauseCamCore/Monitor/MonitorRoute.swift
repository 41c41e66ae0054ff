import Foundation

/// The monitor's addresses: what a method and path ask for, or the HTTP status that refuses them (400 for a path
/// with `..`, 404 for an unknown one, 405 for a known one with another method). Pure, so the table is tested
/// without a server.
public enum MonitorRoute: Sendable, Equatable {
    case page
    case script
    case styleSheet
    case status
    case rigDescription
    case events
    case command
    case programStream
    case programStill
    case lensStill(String)
    /// `/last.jpg`: the thumbnail of the clip saved last in this session.
    case lastThumbnail
    /// `/last.mov`: the movie saved last in this session, with byte ranges (what a `<video>` element asks for).
    case lastMovie
    /// `/clips.json`: the last few clips saved in this session, newest first, each with its number.
    case recentClips
    /// `/clips/N.mov`: the recent clip numbered N (numbers count the session's saves from 1), with byte ranges.
    case recentMovie(Int)
    /// `/clips/N.jpg`: that clip's thumbnail.
    case recentThumbnail(Int)

    /// The outcome of routing one request.
    public enum Resolution: Sendable, Equatable {
        case route(MonitorRoute)
        /// Refused: the status, a reason, and for 405 the methods the path takes.
        case refuse(status: Int, reason: String, allow: String?)
    }

    /// Routes `method` and `path` (without the query).
    public static func resolve(method: String, path: String) -> Resolution {
        if path.split(separator: "/", omittingEmptySubsequences: false).contains("..") || path.contains("/../")
            || path.hasSuffix("/..") || path.contains("..") {
            return .refuse(status: 400, reason: "a path with \"..\" is refused", allow: nil)
        }
        let route: MonitorRoute
        switch path {
        case "/", "/index.html": route = .page
        case "/app.js": route = .script
        case "/app.css": route = .styleSheet
        case "/status.json": route = .status
        case "/rig.json": route = .rigDescription
        case "/events": route = .events
        case "/command": route = .command
        case "/program.mjpg": route = .programStream
        case "/program.jpg": route = .programStill
        case "/last.jpg": route = .lastThumbnail
        case "/last.mov": route = .lastMovie
        case "/clips.json": route = .recentClips
        default:
            if let recent = recentClipRoute(path) {
                route = recent
                break
            }
            let prefix = "/lens/", suffix = ".jpg"
            guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.count > prefix.count + suffix.count else {
                return .refuse(status: 404, reason: "no such page: \(path)", allow: nil)
            }
            let role = String(path.dropFirst(prefix.count).dropLast(suffix.count))
            guard !role.contains("/") else { return .refuse(status: 404, reason: "no such page: \(path)", allow: nil) }
            route = .lensStill(role)
        }
        let allowed = route == .command ? ["POST"] : ["GET", "HEAD"]
        guard allowed.contains(method) else {
            return .refuse(status: 405, reason: "\(path) takes \(allowed.joined(separator: " or ")), not \(method)",
                           allow: allowed.joined(separator: ", "))
        }
        return .route(route)
    }

    /// `/clips/N.mov` or `/clips/N.jpg` with N a plain decimal number from 1 to 999999999; `nil` for anything else.
    static func recentClipRoute(_ path: String) -> MonitorRoute? {
        let prefix = "/clips/"
        guard path.hasPrefix(prefix) else { return nil }
        let name = path.dropFirst(prefix.count)
        let isMovie = name.hasSuffix(".mov"), isThumbnail = name.hasSuffix(".jpg")
        guard isMovie || isThumbnail else { return nil }
        let digits = name.dropLast(4)
        guard (1...9).contains(digits.count), digits.allSatisfy({ ("0"..."9").contains($0) }),
              let number = Int(digits), number >= 1 else { return nil }
        return isMovie ? .recentMovie(number) : .recentThumbnail(number)
    }

    /// Whether this route streams for as long as the viewer stays (counted against the viewer limit).
    public var isStream: Bool { self == .programStream || self == .events }

    /// The command line a `POST /command` body holds: one line of the shell's grammar, a trailing line end
    /// allowed; `nil` when it is empty or holds any other control character.
    public static func commandLine(fromBody body: [UInt8]) -> String? {
        guard let written = String(validating: body, as: UTF8.self) else { return nil }
        var scalars = written.unicodeScalars
        while let last = scalars.last, last == "\n" || last == "\r" { scalars.removeLast() }
        let text = String(scalars)
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty,
              !text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            return nil
        }
        return trimmed
    }
}
