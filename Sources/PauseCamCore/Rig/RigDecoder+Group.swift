/// `group:`: the machines that record together over an MQTT broker (`GroupSettings`).
extension RigDecoder {
    /// The keys of `group:`.
    enum GroupKey: String, RigKey {
        case name, broker, host, lead
        case requireSync = "require_sync"
        case username
        case passwordFile = "password_file"
        case cafile, certfile, keyfile
    }

    /// `group: {name: studio, broker: "mqtt://broker.local:1883", …}`; `nil` when it is wrong (every problem is
    /// reported). `host` defaults to the machine's hostname from the surroundings, which must then be a usable
    /// topic level too.
    mutating func group(_ node: YAMLNode, _ path: KeyPath) -> GroupSettings? {
        guard let f = fields(node, path, GroupKey.self, required: [.name, .broker]) else { return nil }
        let name = f[.name].flatMap { topicLevel($0, path.child(GroupKey.name), what: "group name") }
        var broker: GroupBrokerAddress?
        if let n = f[.broker], let written = text(n, path.child(GroupKey.broker)) {
            broker = GroupBrokerAddress(written)
            if broker == nil {
                report("\"\(written)\" is not a broker URL; write \(GroupBrokerAddress.syntax)", at: n.mark,
                       path: path.child(GroupKey.broker))
            }
        }
        var host: String?
        if let n = f[.host] {
            host = topicLevel(n, path.child(GroupKey.host), what: "host name")
        } else if let machine = surroundings.hostName {
            if let problem = GroupTopics.problem(withLevel: machine) {
                report("this machine's hostname cannot name a member: \(problem); write group.host: NAME",
                       at: node.mark, path: path)
            } else {
                host = machine
            }
        }
        let lead = f[.lead].flatMap {
            duration($0, path.child(GroupKey.lead), max: GroupSettings.maximumLead, positive: true)
        }
        let requireSync = f[.requireSync].flatMap { bool($0, path.child(GroupKey.requireSync)) }
        let username = f[.username].flatMap { text($0, path.child(GroupKey.username)) }
        let passwordFile = f[.passwordFile].flatMap { text($0, path.child(GroupKey.passwordFile)) }
        if let n = f.keyNode(.passwordFile), f[.username] == nil {
            report("password_file needs a username beside it (MQTT sends no password without a user name)",
                   at: n.mark, path: path)
        }
        var files: [GroupKey: String] = [:]
        for key in [GroupKey.cafile, .certfile, .keyfile] {
            guard let n = f[key], let written = text(n, path.child(key)) else { continue }
            files[key] = written
            if let broker, !broker.tls, let keyNode = f.keyNode(key) {
                report("\(key.rawValue) is for a TLS broker; write the broker as mqtts://\(broker.host):8883 "
                       + "(or remove \(key.rawValue))", at: keyNode.mark, path: path)
            }
        }
        for (key, other) in [(GroupKey.certfile, GroupKey.keyfile), (.keyfile, .certfile)]
        where f[key] != nil && f[other] == nil {
            report("\(key.rawValue) needs \(other.rawValue) beside it (a client certificate and its key go together)",
                   at: f.keyNode(key)?.mark ?? node.mark, path: path)
        }
        // Read when the member starts, by this process: a named pipe or a device would hang that start.
        let readFiles = [(GroupKey.passwordFile, passwordFile, "a regular file with the password on its first line")]
            + [GroupKey.cafile, .certfile, .keyfile].map { ($0, files[$0], "a PEM file") }
        for (key, written, what) in readFiles {
            guard let written, let n = f[key], let problem = surroundings.movieFileProblem(written) else { continue }
            report("\(written) \(problem); give \(what)", at: n.mark, path: path.child(key))
        }
        guard let name, let broker else { return nil }
        return GroupSettings(name: name, broker: broker, host: host, lead: lead ?? GroupSettings.defaultLead,
                             requireSync: requireSync ?? true, username: username, passwordFile: passwordFile,
                             caFile: files[.cafile], certFile: files[.certfile], keyFile: files[.keyfile])
    }

    /// A group or host name: one level of an MQTT topic (`GroupTopics.problem(withLevel:)`).
    private mutating func topicLevel(_ node: YAMLNode, _ path: KeyPath, what: String) -> String? {
        guard let written = text(node, path) else { return nil }
        if let problem = GroupTopics.problem(withLevel: written) {
            report("not a usable \(what): \(problem)", at: node.mark, path: path)
            return nil
        }
        return written
    }
}
