import Foundation
import PauseCamCore
import PauseCamSystem

extension RigWiring {
    /// Joins the rig's group (`group:`) on its broker: a `GroupMember` on an `MQTTGroupBus`, reading the real-time
    /// and monotonic clocks together and the kernel's view of their synchronisation. Every command of the group is
    /// applied on the serial context at its slot's capture time (`CommandSource.group`); notices go to the
    /// controller, and the member's retained status follows the engine's state. `nil` for a rig without a group.
    static func joinGroup(rig: Rig, clock: ClockKind, controller: RigController,
                          serialContext: any SerialContext) throws -> GroupMember? {
        guard let settings = rig.group else { return nil }
        guard clock == .real else {
            throw UsageError("group \(settings.name): a group records on the shared real clock; "
                             + "leave out --clock simulated")
        }
        guard let host = settings.host else {
            throw UsageError("group \(settings.name): this member has no name; write group.host: NAME in the rig")
        }
        let bus: MQTTGroupBus
        do {
            bus = try MQTTGroupBus(options: brokerOptions(settings, clientID: "pausecam-\(settings.name)-\(host)"))
        } catch {
            throw UsageError("group \(settings.name): \(error)")
        }
        let bound = SerialContextBound.confining(controller, to: serialContext)
        let member = GroupMember(
            bus: bus, settings: settings, host: host, rate: rig.output.rate,
            readClocks: {
                let pair = ClockPairReading.read()
                return ClockReading(realtimeNanoseconds: pair.realtimeNanoseconds,
                                    capture: .nanoseconds(pair.monotonicNanoseconds))
            },
            readClockStatus: { clockSynchronisation() },
            execute: { application in
                serialContext.schedule(at: application.captureTime) {
                    // A member that left (the session ends) applies nothing more, even what was already scheduled.
                    guard let member = bound.value.group, !member.hasStopped else { return }
                    _ = bound.value.execute(application.command, at: application.captureTime,
                                            from: .group(host: application.from))
                }
            },
            notify: { notice in
                serialContext.schedule(at: .zero) { bound.value.groupNoticed(notice) }
            })
        serialContext.perform { bound.value.group = member }
        publishStatus(of: member, every: .seconds(1), from: serialContext.clock.now(), controller: bound)
        return member
    }

    /// Keeps the member's retained status current (state, scene, timer, dropped frames) while the rig runs, so
    /// `ctl --group status` shows a live timer and a recent "seen"; after `stop()` the member publishes nothing.
    private static func publishStatus(of member: GroupMember, every period: MediaTime, from time: MediaTime,
                                      controller: SerialContextBound<RigController>) {
        controller.serialContext.schedule(at: time + period) {
            member.updateStatus(controller.value.groupStatus)
            publishStatus(of: member, every: period, from: time + period, controller: controller)
        }
    }
}
