/// `osc:`: where PauseCam takes OSC commands, from whom, and where its state goes.
extension RigDecoder {
    /// The keys of `osc:`.
    enum OscKey: String, RigKey {
        case listen, allow, feedback
    }

    /// The most addresses `allow` and `feedback` may each list.
    static let maximumOscAddresses = 32

    /// `osc: {listen: "127.0.0.1:9000", allow: [ADDRESS, …], feedback: ["HOST:PORT", …]}`; `nil` when it is wrong
    /// (every problem reported). A listen address beyond loopback without `allow` is refused: anyone on the
    /// network could start and stop the recording.
    mutating func osc(_ node: YAMLNode, _ path: KeyPath) -> OSCSettings? {
        if node.isNull { return OSCSettings() }
        guard let f = fields(node, path, OscKey.self) else { return nil }
        var ok = true
        var settings = OSCSettings()
        if let n = f[.listen], let written = text(n, path.child(OscKey.listen)) {
            if let peer = OSCPeer(written) {
                settings.listen = peer
            } else {
                report("\"\(written)\" is not an IP address and a port, such as 127.0.0.1:9000 or [::1]:9000",
                       at: n.mark, path: path.child(OscKey.listen))
                ok = false
            }
        } else if f[.listen] != nil {
            ok = false
        }
        if let n = f[.allow] {
            if let hosts = oscList(n, path.child(OscKey.allow), what: "an IP address such as 192.168.1.20", {
                OSCPeer("\($0):1") ?? OSCPeer("[\($0)]:1")
            }) {
                settings.allow = hosts.map(\.host)
            } else {
                ok = false
            }
        }
        if let n = f[.feedback] {
            if let peers = oscList(n, path.child(OscKey.feedback), what: "a host and port such as 127.0.0.1:9001", {
                OSCPeer($0, allowsZero: false)
            }) {
                settings.feedback = peers
            } else {
                ok = false
            }
        }
        if ok, settings.allow == nil, !settings.listen.isLoopback {
            report("listening on \(settings.listen) lets other machines drive the rig; name them with "
                   + "allow: [ADDRESS, …] or listen on 127.0.0.1", at: f[.listen]?.mark ?? node.mark,
                   path: path.child(OscKey.listen))
            ok = false
        }
        return ok ? settings : nil
    }

    /// A list of texts each read by `read`; `nil` when it is not a list or an entry is wrong (each reported).
    private mutating func oscList(_ node: YAMLNode, _ path: KeyPath, what: String,
                                  _ read: (String) -> OSCPeer?) -> [OSCPeer]? {
        guard let items = node.items else {
            report("expected a list of addresses, found \(node.kindDescription)", at: node.mark, path: path)
            return nil
        }
        guard items.count <= Self.maximumOscAddresses else {
            report("at most \(Self.maximumOscAddresses) addresses; found \(items.count)", at: node.mark, path: path)
            return nil
        }
        var peers: [OSCPeer] = []
        var ok = true
        for (index, item) in items.enumerated() {
            let itemPath = KeyPath(text: "\(path) \(index + 1)")
            guard let written = text(item, itemPath) else { ok = false; continue }
            guard let peer = read(written) else {
                report("\"\(written)\" is not \(what)", at: item.mark, path: itemPath)
                ok = false
                continue
            }
            peers.append(peer)
        }
        return ok ? peers : nil
    }
}
