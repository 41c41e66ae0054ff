import PauseCamCore

/// Turns udev actions on `sound` devices into `SoundCardEvent`s — a state machine that remembers each present
/// card's identity by its sysfs name (`card1`), so a removal, whose sysfs attributes and USB parent are gone, is
/// reported with the identity the card was announced with.
///
/// - `add` or `change` of a card → added (again only when its identity changed: ALSA's `change` once the card's
///   devices are registered repeats the `add`);
/// - `remove` of a card → removed with the remembered identity (or the one read from the event);
/// - anything about a device that is not a card (`controlC1`, `pcmC1D0c`) → nothing (`identity` is `nil`);
/// - after lost events, a fresh enumeration → removed for every card gone or changed, then added for every new or
///   changed one (`resynchronize`).
public struct SoundCardEventInterpreter: Sendable {
    /// Present cards by sysfs name.
    public private(set) var present: [String: MicrophoneIdentity] = [:]

    public init() {}

    /// Records the cards of an enumeration, so later removals report them with the same identity.
    public mutating func seed(_ cards: [MicrophoneIdentity]) {
        present = Dictionary(cards.map { ("card\($0.card)", $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The events for one udev `action` on the sound device `systemName`; `identity` is `nil` when it is not a card.
    public mutating func handle(action: String, systemName: String, identity: MicrophoneIdentity?) -> [SoundCardEvent] {
        switch action {
        case "add", "bind", "change":
            guard let identity else { return [] }
            let old = present[systemName]
            if old == identity { return [] }
            present[systemName] = identity
            return (old.map { [SoundCardEvent.removed($0)] } ?? []) + [.added(identity)]
        case "remove", "unbind":
            if let old = present.removeValue(forKey: systemName) { return [.removed(old)] }
            return identity.map { [.removed($0)] } ?? []
        default:
            return []
        }
    }

    /// The events that bring what was announced in line with `cards`, a fresh enumeration (after lost events).
    public mutating func resynchronize(with cards: [MicrophoneIdentity]) -> [SoundCardEvent] {
        let now = Dictionary(cards.map { ("card\($0.card)", $0) }, uniquingKeysWith: { _, last in last })
        let gone = present.filter { now[$0.key] != $0.value }.sorted { $0.value.card < $1.value.card }
        let new = now.filter { present[$0.key] != $0.value }.sorted { $0.value.card < $1.value.card }
        present = now
        return gone.map { .removed($0.value) } + new.map { .added($0.value) }
    }
}
