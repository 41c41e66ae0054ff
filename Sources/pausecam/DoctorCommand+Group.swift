import Foundation
import PauseCamCore
import PauseCamSystem

extension DoctorCommand {
    /// What a group member's `record` needs beyond its devices, gathered for `DoctorExamination.group`: whether the
    /// broker answers (a connection with the rig's credentials under a client ID of doctor's own, so a running
    /// member keeps its session; `GroupCtlInbox` waits for the answer, at most a few seconds) and the kernel's view of
    /// the clock. `nil` for a rig without a group.
    static func groupFacts(for rig: Rig) -> DoctorFacts.Group? {
        guard let settings = rig.group else { return nil }
        return DoctorFacts.Group(name: settings.name, host: settings.host, brokerAddress: settings.broker.description,
                                 broker: probe(settings), requireSync: settings.requireSync, rate: rig.output.rate,
                                 clock: RigWiring.clockSynchronisation())
    }

    private static func probe(_ settings: GroupSettings) -> DoctorFacts.Group.Broker {
        let topics = GroupTopics(group: settings.name)
        let clientID = "pausecam-\(settings.name)-doctor-\(ProcessInfo.processInfo.processIdentifier)"
        do {
            let bus = try MQTTGroupBus(options: RigWiring.brokerOptions(settings, clientID: clientID))
            let inbox = GroupCtlInbox(decoder: GroupMessageDecoder(topics: topics))
            try bus.start(subscriptions: [topics.everyStatus], will: nil) { inbox.take($0) }
            defer { bus.stop() }
            let answered = inbox.wait(until: Date().addingTimeInterval(4), for: { $0.connected || $0.lost != nil })
            if answered, inbox.lost == nil { return .answered }
            return .noAnswer(inbox.lost ?? "no answer within 4 s")
        } catch {
            return .noAnswer("\(error)")
        }
    }
}
