import PauseCamCore

extension MQTTClient {
    /// How one client connects: the broker, who it is, its credentials and TLS files, and its timing.
    public struct Options: Sendable {
        public var broker: MQTTBrokerAddress
        /// The MQTT client identifier; unique per broker (the broker hands a second connection with the same
        /// identifier the session and drops the first), so a member uses its group and host name.
        public var clientID: String
        public var username: String?
        /// The password (read from the group's password file by `MQTTPasswordFile`); sent only with a username.
        public var password: String?
        /// The files for `mqtts://`: without a CA file the system's trusted authorities verify the broker.
        public var tls: TLSFiles
        /// How often the client and the broker check that the other is there (MQTT keep-alive, at least 5 s):
        /// the broker publishes a vanished client's will after one and a half times this without a word.
        public var keepAliveSeconds: Int
        /// The wait before the first reconnect after a loss, growing (1, 4, 9 … times this: libmosquitto's
        /// exponential backoff) up to `maximumReconnectDelaySeconds`; whole seconds, as libmosquitto takes them.
        public var reconnectDelaySeconds: Int
        public var maximumReconnectDelaySeconds: Int
        /// How long the first connection may go unanswered (no CONNACK) before the client says so with a `lost`
        /// event (`MQTTError.unreachable`), while it goes on trying: a broker that hangs, or a port that takes
        /// connections and says nothing, is told about as soon as one that refuses.
        public var firstAnswerSeconds: Int

        public init(broker: MQTTBrokerAddress, clientID: String, username: String? = nil, password: String? = nil,
                    tls: TLSFiles = TLSFiles(), keepAliveSeconds: Int = 10, reconnectDelaySeconds: Int = 1,
                    maximumReconnectDelaySeconds: Int = 5, firstAnswerSeconds: Int = 5) {
            self.broker = broker
            self.clientID = clientID
            self.username = username
            self.password = password
            self.tls = tls
            self.keepAliveSeconds = keepAliveSeconds
            self.reconnectDelaySeconds = reconnectDelaySeconds
            self.maximumReconnectDelaySeconds = maximumReconnectDelaySeconds
            self.firstAnswerSeconds = firstAnswerSeconds
        }
    }

    /// The PEM files of a TLS connection, as Mosquitto's clients take them (`--cafile`, `--cert`, `--key`).
    public struct TLSFiles: Sendable, Equatable {
        /// The authority that signed the broker's certificate; nil: the system's trusted authorities.
        public var caFile: String?
        /// This client's certificate and key, for a broker that requires client certificates; both or neither.
        public var certificateFile: String?
        public var keyFile: String?

        public init(caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
        }
    }

    /// What the connection tells its owner, in order, on libmosquitto's network thread.
    public enum Event: Sendable, Equatable {
        /// Connected and subscribed (the broker acknowledged every subscription): messages published to those
        /// topics from now on arrive. Comes again after every reconnect. Kept (retained) messages come with the
        /// subscription: Mosquitto 2.0.11 sends them just after, but MQTT does not promise that order.
        case connected
        /// The connection ended, or the first one could not be made (`MQTTError.unreachable`: refused at once, or
        /// no answer within `Options.firstAnswerSeconds`); the client reconnects by itself (with backoff) and says
        /// `connected` when it is up.
        case lost(MQTTError)
        /// The broker refused this client (credentials, a subscription, another client took the identifier):
        /// final, the client does not retry; nothing follows.
        case refused(MQTTError)
        /// A message on a subscribed topic (`retained`: the broker kept it and sent it on subscribing).
        case message(GroupBusMessage)
    }
}
