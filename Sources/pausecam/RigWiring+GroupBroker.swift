import Foundation
import PauseCamCore
import PauseCamSystem

extension RigWiring {
    /// The MQTT client options of the rig's group (`settings`) for `clientID`: its broker, credentials (the
    /// password read from its file) and TLS files, `~` and variables expanded. A member and `doctor`'s broker
    /// check connect alike.
    static func brokerOptions(_ settings: GroupSettings, clientID: String) throws -> MQTTClient.Options {
        MQTTClient.Options(
            broker: MQTTBrokerAddress(host: settings.broker.host, port: settings.broker.port,
                                      usesTLS: settings.broker.tls),
            clientID: clientID, username: settings.username,
            password: try settings.passwordFile.map { path throws(MQTTError) in
                try MQTTPasswordFile.read(path: RigWiring.expandDirectory(path))
            },
            tls: MQTTClient.TLSFiles(caFile: settings.caFile.map(RigWiring.expandDirectory),
                                     certificateFile: settings.certFile.map(RigWiring.expandDirectory),
                                     keyFile: settings.keyFile.map(RigWiring.expandDirectory)),
            // Sooner than a script's wait for the broker gives up (`GroupMember.brokerWait`): the member says why.
            firstAnswerSeconds: 3)
    }

    /// The kernel's view of the clock's synchronisation (`adjtimex`), as Core judges it; `nil` when unreadable.
    /// `PAUSECAM_FAULT_CLOCK_STATUS` stands in for it in tests (`unsynchronised`, or `synchronised` with
    /// `:ESTERROR_µs`), so a test behaves the same whether this machine runs a time service or not.
    static func clockSynchronisation(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> ClockSynchronisation? {
        if let fault = environment["PAUSECAM_FAULT_CLOCK_STATUS"] {
            let parts = fault.split(separator: ":")
            let error = parts.count > 1 ? Int64(parts[1]).map { min(max($0, 0), 16_000_000) } ?? 0 : 0
            return ClockSynchronisation(unsynchronised: parts.first == "unsynchronised",
                                        maximumErrorMicroseconds: parts.first == "unsynchronised" ? 16_000_000 : error,
                                        estimatedErrorMicroseconds: parts.first == "unsynchronised" ? 16_000_000 : error)
        }
        return KernelClockStatus.read().map {
            ClockSynchronisation(unsynchronised: $0.unsynchronised,
                                 maximumErrorMicroseconds: $0.maximumErrorMicroseconds,
                                 estimatedErrorMicroseconds: $0.estimatedErrorMicroseconds)
        }
    }
}
