/// The rig's `group:`: the machines that record one script together, over one MQTT broker, on a shared clock
/// (README, "Groups"). Validated by `RigDecoder`; paths are kept as written (the composition root resolves them, as
/// it does `output.directory`).
public struct GroupSettings: Sendable, Equatable {
    /// The group's name (`name:`): one topic level, shared by every member.
    public var name: String
    /// The broker every member connects to (`broker:`).
    public var broker: GroupBrokerAddress
    /// This member's name in the group (`host:`, default the machine's hostname, which the composition root hands
    /// the decoder in `RigSurroundings.hostName`); `nil` only when neither was known (a rig decoded without asking
    /// the machine, as `ctl` reads a rig's name).
    public var host: String?
    /// How far ahead of now a command published by a member takes effect (`lead:`, default 250 ms): long enough
    /// for the broker to reach every member first, so no member applies it late.
    public var lead: MediaTime
    /// Whether `record` is refused while the kernel says the clock is unsynchronised (`require_sync:`, default
    /// true): members' movies line up only as well as their clocks agree.
    public var requireSync: Bool
    /// The broker account (`username:`), if the broker wants one.
    public var username: String?
    /// The file holding the account's password (`password_file:`), so the rig itself holds no secret.
    public var passwordFile: String?
    /// TLS (with `mqtts://` only): the CA certificate that signs the broker's (`cafile:`), and this member's own
    /// certificate and key for brokers that ask for one (`certfile:`, `keyfile:`, given together).
    public var caFile: String?
    /// This member's client certificate (`certfile:`), for a broker that asks for one.
    public var certFile: String?
    /// The client certificate's private key (`keyfile:`).
    public var keyFile: String?

    /// `lead:` when the rig names none.
    public static let defaultLead = MediaTime.milliseconds(250)
    /// The longest `lead:`: beyond it a command feels broken to the person who gave it.
    public static let maximumLead = MediaTime.seconds(10)

    public init(name: String, broker: GroupBrokerAddress, host: String?, lead: MediaTime = defaultLead,
                requireSync: Bool = true, username: String? = nil, passwordFile: String? = nil,
                caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil) {
        self.name = name
        self.broker = broker
        self.host = host
        self.lead = lead
        self.requireSync = requireSync
        self.username = username
        self.passwordFile = passwordFile
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
    }

    /// The group's topics.
    public var topics: GroupTopics { GroupTopics(group: name) }
}
