/// `web:`: where the browser monitor listens.
extension RigDecoder {
    /// The keys of `web:`.
    enum WebKey: String, RigKey {
        case listen
    }

    /// `web: {listen: "127.0.0.1:8360"}`; `nil` when the key is absent or wrong (a wrong one is reported).
    mutating func webListen(_ node: YAMLNode, _ path: KeyPath) -> MonitorListenAddress? {
        guard let f = fields(node, path, WebKey.self), let n = f[.listen],
              let written = text(n, path.child(WebKey.listen)) else { return nil }
        guard let address = MonitorListenAddress(written) else {
            report("\"\(written)\" is not \(MonitorListenAddress.syntax)", at: n.mark, path: path.child(WebKey.listen))
            return nil
        }
        return address
    }
}
