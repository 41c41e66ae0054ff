import Foundation
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

/// The sound cards of a rig of voices: one microphone per card of its `VoiceCardPlan` (voices on one card share
/// its capture), virtual ones with each voice's test signal, real ones found like the one microphone is.
extension RigWiring {
    /// Opens every card of `rig`'s voices; a card that cannot be opened is `nil` (its voices record silence), or
    /// refuses the rig with `audio.required`. A voice whose channel its card lacks refuses the rig, naming the
    /// voice's place in the rig file.
    static func openVoiceCards(rig: Rig, simulated: Bool, serialContext: any SerialContext,
                               lensNodes: [String: String],
                               carryOut: (RigSetupPolicy.Verdict) throws -> Void,
                               notify: @escaping @Sendable (EngineNotice) -> Void)
        throws -> (microphones: [(any Microphone)?], cards: [MicrophoneIdentity?]) {
        let plan = VoiceCardPlan(voices: rig.audio.voices)
        let policy = RigSetupPolicy(rig: rig)
        var microphones: [(any Microphone)?] = []
        var cards: [MicrophoneIdentity?] = []
        for card in plan.cards {
            let first = rig.audio.voices[card.voices[0]]
            let names = card.voices.map { rig.audio.voices[$0].name }.joined(separator: ", ")
            guard let device = DeviceHub.audioDevice(of: first.source) else {
                let signal = first.virtual
                microphones.append(VirtualMicrophone(serialContext: serialContext, driftPPM: signal.driftPPM,
                                                     level: signal.level, beepFrequency: signal.frequency,
                                                     speech: signal.speech))
                cards.append(nil)
                continue
            }
            let description = "for voice \(names) (\(MicrophoneFinder.describe(device)))"
            if simulated {
                try carryOut(policy.microphoneOnSimulatedClock(description))
                microphones.append(nil)
                cards.append(nil)
                continue
            }
            do {
                let found = try MicrophoneFinder.find(device, lensNodes: lensNodes)
                let microphone = try ALSAMicrophone(pcm: found.pcm, channels: card.highestChannel + 1,
                                                    warn: { notify(.deviceRemark($0)) })
                if microphone.channels <= card.highestChannel {
                    let voice = card.voices.map { rig.audio.voices[$0] }.first { $0.channelIndex >= microphone.channels }
                    let place = voice?.mark.map { "\($0): " } ?? ""
                    throw DeviceError("\(place)voice \(voice?.name ?? names) takes channel \((voice?.channelIndex ?? 0) + 1), "
                                      + "but \(microphone.displayName) records \(microphone.channels) channel"
                                      + (microphone.channels == 1 ? "" : "s"))
                }
                microphones.append(microphone)
                cards.append(found.card)
            } catch let error as DeviceError {
                throw error
            } catch {
                try carryOut(policy.microphoneNotOpened(description, reason: "\(error)"))
                microphones.append(nil)
                cards.append(nil)
            }
        }
        return (microphones, cards)
    }
}
