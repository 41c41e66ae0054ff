/// Which connections the HTTP server cuts so that clients who open connections and trickle their headers
/// (slowloris) cannot take the places everyone else needs. A value type: `HTTPServer` keeps it under its lock, feeds
/// it what libmicrohttpd reports, and shuts down the connections it names.
///
/// A connection is *waiting* from the moment it opens, and again each time a request on it ends, until the headers
/// of its next request are complete: a request with complete headers can be judged (and a client without the token
/// refused and closed at once), a waiting one cannot. Three rules bound the waiting ones:
///
/// - a connection waiting longer than `headerDeadline` nanoseconds is cut, however steadily it trickles (the idle
///   timeout alone never fires on a client that sends a byte every few seconds);
/// - one address keeps at most `waitingPerAddress` waiting connections: its newest pushes out its oldest, so a
///   request from the same address as a slowloris still gets in (a real client sends its headers at once);
/// - all addresses together keep at most `waitingInAll`: one more pushes out the oldest waiting connection of the
///   address that holds the most, so many addresses cannot fill the server either, and a newcomer with one
///   connection is the last to go.
///
/// `ID` names one connection (libmicrohttpd's connection pointer); times are monotonic nanoseconds.
public struct HTTPConnectionAdmission<ID: Hashable & Sendable>: Sendable {
    /// The three bounds (see the type's comment).
    public struct Limits: Sendable, Equatable {
        public var headerDeadline: UInt64
        public var waitingPerAddress: Int
        public var waitingInAll: Int

        public init(headerDeadline: UInt64, waitingPerAddress: Int, waitingInAll: Int) {
            self.headerDeadline = headerDeadline
            self.waitingPerAddress = max(1, waitingPerAddress)
            self.waitingInAll = max(1, waitingInAll)
        }
    }

    private struct Connection: Sendable {
        var address: String
        /// Since when it waits for complete headers; nil while a request is being answered, or once it was cut.
        var waitingSince: UInt64?
        /// Orders connections that started waiting at the same instant.
        var sequence: UInt64
        /// Told to the caller to be cut: never named twice.
        var cut = false
    }

    public let limits: Limits
    private var connections: [ID: Connection] = [:]
    private var nextSequence: UInt64 = 0

    public init(limits: Limits) { self.limits = limits }

    /// A connection from `address` opened at `now`; returns the connections to cut to make room (never this one).
    /// A connection whose headers were already reported complete (the notices came from two threads in the other
    /// order) only gets its address.
    public mutating func opened(_ id: ID, address: String, at now: UInt64) -> [ID] {
        if connections[id] != nil {
            connections[id]?.address = address
            return []
        }
        connections[id] = Connection(address: address, waitingSince: now, sequence: takeSequence())
        var cut: [ID] = []
        let fromAddress = waiting { $0.address == address }
        if fromAddress.count > limits.waitingPerAddress {
            cut += fromAddress.filter { $0 != id }.prefix(fromAddress.count - limits.waitingPerAddress)
        }
        for victim in cut { markCut(victim) }
        var all = waiting { _ in true }
        while all.count > limits.waitingInAll {
            var byAddress: [String: Int] = [:]
            for waitingID in all { byAddress[connections[waitingID]!.address, default: 0] += 1 }
            // The oldest connection of the address with the most waiting (the newcomer only if nothing else waits).
            let most = byAddress.values.max() ?? 0
            guard let victim = all.first(where: { $0 != id && byAddress[connections[$0]!.address] == most })
                ?? all.first(where: { $0 != id }) else { break }
            markCut(victim)
            cut.append(victim)
            all = waiting { _ in true }
        }
        return cut
    }

    /// The headers of a request on `id` are complete: it is no longer waiting (known from now on, if its opening
    /// has not been reported yet).
    public mutating func headersArrived(_ id: ID) {
        guard let connection = connections[id] else {
            connections[id] = Connection(address: "", waitingSince: nil, sequence: takeSequence())
            return
        }
        guard !connection.cut else { return }
        connections[id]?.waitingSince = nil
    }

    /// A request on `id` ended at `now`: it waits for the next request's headers.
    public mutating func requestEnded(_ id: ID, at now: UInt64) {
        guard connections[id]?.cut == false else { return }
        let sequence = takeSequence()
        connections[id]?.waitingSince = now
        connections[id]?.sequence = sequence
    }

    /// The connection is gone.
    public mutating func closed(_ id: ID) {
        connections[id] = nil
    }

    /// The connections that have waited past the deadline at `now`, to cut.
    public mutating func expired(at now: UInt64) -> [ID] {
        let late = connections.compactMap { id, connection -> ID? in
            guard let since = connection.waitingSince, now >= since, now - since >= limits.headerDeadline else { return nil }
            return id
        }
        for victim in late { markCut(victim) }
        return late
    }

    /// How many connections wait for their headers now.
    public var waitingCount: Int { connections.values.filter { $0.waitingSince != nil }.count }

    /// The waiting connections that satisfy `include`, oldest first.
    private func waiting(_ include: (Connection) -> Bool) -> [ID] {
        connections.compactMap { id, connection in
            connection.waitingSince.flatMap { include(connection) ? (id, ($0, connection.sequence)) : nil }
        }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    private mutating func takeSequence() -> UInt64 {
        defer { nextSequence &+= 1 }
        return nextSequence
    }

    private mutating func markCut(_ id: ID) {
        connections[id]?.cut = true
        connections[id]?.waitingSince = nil
    }
}
