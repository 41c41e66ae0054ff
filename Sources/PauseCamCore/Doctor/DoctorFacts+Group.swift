extension DoctorFacts {
    /// A group member's rig (`group:`) as found on this machine: what its `record` needs beyond the devices — a
    /// name in the group, a broker that answers, and a clock the group's grid can trust.
    public struct Group: Sendable, Equatable {
        /// Whether the broker answered a connection.
        public enum Broker: Sendable, Equatable {
            /// It accepted the connection (with the rig's credentials).
            case answered
            /// No answer, or a refusal, and why ("connection refused", "no answer within 3 s").
            case noAnswer(String)
        }

        /// `group.name`.
        public var name: String
        /// `group.host`; `nil` when the rig names none (such a rig does not start).
        public var host: String?
        /// The broker's address as the rig writes it (`mqtt://broker.local:1883`).
        public var brokerAddress: String
        public var broker: Broker
        /// `group.require_sync`.
        public var requireSync: Bool
        /// The rig's frame rate: the clock is judged against a quarter frame of it.
        public var rate: FrameRate
        /// The kernel's view of the clock's synchronisation; `nil` when it could not be read.
        public var clock: ClockSynchronisation?

        public init(name: String, host: String?, brokerAddress: String, broker: Broker, requireSync: Bool,
                    rate: FrameRate, clock: ClockSynchronisation?) {
            self.name = name
            self.host = host
            self.brokerAddress = brokerAddress
            self.broker = broker
            self.requireSync = requireSync
            self.rate = rate
            self.clock = clock
        }
    }
}
