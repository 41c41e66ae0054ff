import Foundation
import PauseCamCore
import PauseCamSystem

/// The tally outputs of a running rig: TSL UMD 5.0 over UDP and GPIO lamps (`tally:`), and a group member's MQTT
/// tally topics. A tick on the serial context, every frame of the movie, reads the controller's `TallyBoard`; the
/// `TallyRepeater` says when it goes out (at once on a change, every second anyway). Used on the serial context only.
final class TallyOutputs: @unchecked Sendable {
    private let controller: RigController
    private let serialContext: any SerialContext
    private let tsl: (settings: TallySettings.TSL, sender: TSLUDPSender)?
    private let lamps: (chip: GPIOChip, lamps: TallyLamps)?
    private let group: GroupMember?
    private let notify: @Sendable (EngineNotice) -> Void
    private let tick: MediaTime
    private var repeater = TallyRepeater()
    private var stopped = false
    /// The outputs whose failure was told already (told once each).
    private var told: Set<String> = []

    private init(controller: RigController, serialContext: any SerialContext,
                 tsl: (settings: TallySettings.TSL, sender: TSLUDPSender)?, lamps: (chip: GPIOChip, lamps: TallyLamps)?,
                 group: GroupMember?, tick: MediaTime, notify: @escaping @Sendable (EngineNotice) -> Void) {
        self.controller = controller
        self.serialContext = serialContext
        self.tsl = tsl
        self.lamps = lamps
        self.group = group
        self.tick = tick
        self.notify = notify
    }

    /// The rig's tally outputs, ticking from now; `nil` when the rig has no `tally:` and no group. An output that
    /// cannot be opened is told (`EngineNotice.tallyNotShown`) and left out: a lamp never stops a recording.
    static func start(rig: Rig, controller: RigController, serialContext: any SerialContext, group: GroupMember?,
                      notify: @escaping @Sendable (EngineNotice) -> Void) -> TallyOutputs? {
        guard rig.tally != nil || group != nil else { return nil }
        var tsl: (TallySettings.TSL, TSLUDPSender)?
        if let settings = rig.tally?.tsl {
            do {
                tsl = (settings, try TSLUDPSender(host: settings.destination.host, port: settings.destination.port))
            } catch {
                notify(.tallyNotShown(output: "tsl \(settings.destination)", reason: "\(error)"))
            }
        }
        var lamps: (GPIOChip, TallyLamps)?
        if let settings = rig.tally?.gpio {
            do {
                let chip = try GPIOChip(name: settings.chip)
                lamps = (chip, TallyLamps(settings: settings, lines: chip))
            } catch {
                notify(.tallyNotShown(output: "gpio \(settings.chip)", reason: "\(error)"))
            }
        }
        let outputs = TallyOutputs(controller: controller, serialContext: serialContext, tsl: tsl, lamps: lamps,
                                   group: group, tick: rig.output.rate.frameDuration, notify: notify)
        let now = serialContext.clock.now()
        serialContext.schedule(at: now) { outputs.check(at: now) }
        return outputs
    }

    /// One tick: sends the board when the repeater says so, and schedules the next tick.
    private func check(at time: MediaTime) {
        guard !stopped else { return }
        let board = controller.tallyBoard
        if let reason = repeater.check(board, at: time) { send(board, changed: reason == .changed) }
        let next = time + tick
        serialContext.schedule(at: next) { [self] in check(at: next) }
    }

    private func send(_ board: TallyBoard, changed: Bool) {
        if let (settings, sender) = tsl {
            for packet in settings.packets(for: board) {
                do { try sender.send(packet.bytes) } catch { tell("tsl \(settings.destination)", error) }
            }
        }
        if changed, let (chip, lamps) = lamps {
            for error in lamps.show(board) { tell("gpio \(chip.name)", error) }
        }
        group?.publishTally(board.entries)
    }

    private func tell(_ output: String, _ error: any Error) {
        guard told.insert(output).inserted else { return }
        notify(.tallyNotShown(output: output, reason: "\(error)"))
    }

    /// Every lens off (one last TSL packet each, every lamp dark), then the socket and the chip closed; no tick after.
    func stop() {
        serialContext.perform {
            guard !stopped else { return }
            stopped = true
            let dark = TallyBoard(entries: controller.tallyBoard.entries.map { .init(lens: $0.lens, state: .off) })
            send(dark, changed: true)
            tsl?.sender.close()
            lamps?.lamps.darken()
            lamps?.chip.close()
        }
    }
}
