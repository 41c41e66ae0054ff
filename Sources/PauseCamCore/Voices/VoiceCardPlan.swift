/// Which sound cards a rig of voices opens: voices on the same source (the channels of one USB interface) share
/// one card, opened and captured once, its channels split after capture; every virtual voice is a card of its own.
public struct VoiceCardPlan: Sendable, Equatable {
    /// One card and the voices it carries.
    public struct Card: Sendable, Equatable {
        public var source: Rig.Voice.Source
        /// Indices into the rig's voices, in rig order.
        public var voices: [Int]
        /// The highest 0-based channel a voice of this card takes: the card needs at least one more channel.
        public var highestChannel: Int
    }

    public var cards: [Card]
    /// For each voice (rig order), the index of its card in `cards`.
    public var cardOfVoice: [Int]

    public init(voices: [Rig.Voice]) {
        var cards: [Card] = []
        var cardOfVoice: [Int] = []
        for (index, voice) in voices.enumerated() {
            if voice.source != .virtual, let existing = cards.firstIndex(where: { $0.source == voice.source }) {
                cards[existing].voices.append(index)
                cards[existing].highestChannel = max(cards[existing].highestChannel, voice.channelIndex)
                cardOfVoice.append(existing)
            } else {
                cards.append(Card(source: voice.source, voices: [index], highestChannel: voice.channelIndex))
                cardOfVoice.append(cards.count - 1)
            }
        }
        self.cards = cards
        self.cardOfVoice = cardOfVoice
    }
}
