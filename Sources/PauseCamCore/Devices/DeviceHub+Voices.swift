import Foundation

/// One sound card of a rig of voices, as the hub keeps it: its microphone, the card udev knows it by, and whether
/// it ended. Each card has its own mailbox and its own end, so one voice's unplugged microphone leaves the others be.
public struct VoiceCardSlot {
    public internal(set) var microphone: (any Microphone)?
    /// The sound card it records from (a real card): its udev `remove` stops it.
    public internal(set) var card: MicrophoneIdentity?
    /// It ended (unplugged) and has not been replaced.
    public internal(set) var gone = false
    /// The microphone whose end was already told, so its other report (ALSA's or udev's) is not repeated.
    var ended: ObjectIdentifier?
    /// Where its microphone's chunks wait for the serial context.
    var mailbox: Mailbox<AudioChunk>?
}

extension DeviceHub {
    /// Starts voice card `index`'s microphone with a fresh mailbox; its chunks and its end are reported with the
    /// card's index, only while it is still that card's microphone.
    func startVoiceCard(_ index: Int) {
        guard let microphone = voiceCards[index].microphone else { return }
        // Three seconds of sound wait at most, as for the one microphone (`start(_:)`).
        let mailbox = Mailbox<AudioChunk>(capacity: 3 * Int(microphone.sampleRate), weight: { $0.frameCount })
        voiceCards[index].mailbox = mailbox
        let identity = ObjectIdentifier(microphone)
        do {
            try microphone.start(deliver: { [weak self, serialContext, intake] chunk in
                guard intake.isOpen, mailbox.post(chunk) else { return }
                serialContext.schedule(at: .zero) { [weak self] in self?.drainVoiceCards() }
            }, onEnd: { [weak self, serialContext] reason in
                serialContext.schedule(at: .zero) { [weak self] in
                    guard let self, self.voiceCards.indices.contains(index),
                          self.voiceCards[index].microphone.map(ObjectIdentifier.init) == identity,
                          self.voiceCards[index].ended != identity else { return }
                    self.voiceCards[index].ended = identity
                    self.voiceCardEnded(index, reason: reason)
                }
            })
        } catch {
            report(.voiceCardFailedToStart(card: index, microphone: microphone.displayName, reason: "\(error)"))
        }
    }

    /// The role of voice card `index` in drop counts: its voices' names.
    func voiceCardRole(_ index: Int) -> String {
        let plan = VoiceCardPlan(voices: rig.audio.voices)
        guard plan.cards.indices.contains(index) else { return "voices" }
        return "voice " + plan.cards[index].voices.map { rig.audio.voices[$0].name }.joined(separator: "+")
    }

    /// Every voice card's mailbox at once, the chunks handed on in capture-time order: a card's sound that has
    /// arrived is never taken for late only because the other card's mailbox was drained first (after the serial
    /// context was busy, both hold a backlog).
    private func drainVoiceCards() {
        var chunks: [(card: Int, order: Int, chunk: AudioChunk)] = []
        for index in voiceCards.indices {
            guard let mailbox = voiceCards[index].mailbox else { continue }
            let drained = mailbox.drain()
            report(.mailboxDrops(device: voiceCardRole(index), count: drained.dropped))
            if !drained.items.isEmpty { voiceCards[index].gone = false }
            for item in drained.items { chunks.append((index, chunks.count, item)) }
        }
        chunks.sort { ($0.chunk.pts, $0.order) < ($1.chunk.pts, $1.order) }
        for entry in chunks { report(.voiceChunk(card: entry.card, entry.chunk)) }
    }

    private func voiceCardEnded(_ index: Int, reason: String) {
        voiceCards[index].gone = true
        report(.voiceCardEnded(card: index, reason: reason))
    }

    /// Voice card `index`'s sound card went away (a udev `remove`) before ALSA said so: stopped and reported.
    public func detachVoiceCard(_ index: Int, reason: String) {
        serialContext.assertOnSerialContext()
        guard voiceCards.indices.contains(index), let microphone = voiceCards[index].microphone,
              !voiceCards[index].gone else { return }
        voiceCards[index].ended = ObjectIdentifier(microphone)
        deviceWorker.submit { microphone.stop() }
        voiceCardEnded(index, reason: reason)
    }

    /// A microphone plugged (back) in for voice card `index` (opened on `card`): replaces an ended or missing one
    /// and starts; its first chunk means the card's voices are back. Refused while the card's microphone runs.
    @discardableResult
    public func attachVoiceCard(_ index: Int, _ replacement: any Microphone, card: MicrophoneIdentity?) -> Bool {
        serialContext.assertOnSerialContext()
        guard voiceCards.indices.contains(index) else { return false }
        if let current = voiceCards[index].microphone, !voiceCards[index].gone, current !== replacement {
            return false
        }
        if let old = voiceCards[index].microphone, old !== replacement { deviceWorker.submit { old.stop() } }
        voiceCards[index].microphone = replacement
        voiceCards[index].card = card
        voiceCards[index].ended = nil
        notify(.microphoneAttached(microphone: replacement.displayName, nextClip: false))
        startVoiceCard(index)
        return true
    }

    /// The voice card recording from sound card `number`, if any.
    func voiceCard(onSoundCard number: Int) -> Int? {
        voiceCards.firstIndex { $0.card?.card == number }
    }
}
