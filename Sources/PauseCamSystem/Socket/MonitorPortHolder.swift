import Foundation
import PauseCamCore

/// Which running PauseCam of this user serves its monitor on a port: each control socket in the user's socket
/// folder is asked `status --json`, and the one whose `web` address has that port is named with its rig and pid.
/// Used only when a rig's own monitor port is taken, to say by whom.
public enum MonitorPortHolder {
    /// How long one PauseCam may take to answer; a stopped one (Ctrl-Z) costs this much and is passed over.
    static let answerMilliseconds: Int32 = 500

    /// "PauseCam \"Desk\" (pid 4242)" for the PauseCam serving on `port`, leaving out the socket `excluding` (this
    /// process's own); `nil` when none of them does.
    public static func describe(port: Int, socketDirectory: String, excluding: String? = nil) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: socketDirectory)) ?? []
        for name in names.sorted() where name.hasSuffix(".sock") {
            let path = socketDirectory + "/" + name
            guard path != excluding, let status = status(socket: path),
                  let web = status["web"] as? String, let url = URLComponents(string: web), url.port == port else { continue }
            let rig = (status["rig"] as? String).map { VisibleText.escaped($0) } ?? String(name.dropLast(".sock".count))
            let pid = ControlSocketPaths.holderPID(socket: path).map { " (pid \($0))" } ?? ""
            return "PauseCam \"\(rig)\"\(pid)"
        }
        return nil
    }

    /// The `status --json` object of the PauseCam at `socket`, or `nil` when it does not answer in time.
    private static func status(socket: String) -> [String: Any]? {
        guard let client = try? ControlClient(path: socket, timeoutMilliseconds: answerMilliseconds),
              (try? client.send("status --json")) != nil,
              let line = client.readLine(timeoutMilliseconds: answerMilliseconds),
              let reply = ControlReply(line: line), reply.ok else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(reply.message.utf8)) as? [String: Any]
    }
}
