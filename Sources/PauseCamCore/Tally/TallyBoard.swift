/// Every lens's tally at one instant, in rig order: the one computation that the TSL sender, the GPIO lamps, the
/// group's MQTT topics and `status --json` all read, so they can never disagree.
///
/// Derived from the engine's state only (no clock): the recording state, the active lens and the armed preview
/// lens. A lens that is both on program and armed for preview shows program.
public struct TallyBoard: Sendable, Equatable {
    /// One lens's tally.
    public struct Entry: Sendable, Equatable {
        public var lens: String
        public var state: TallyState

        public init(lens: String, state: TallyState) {
            self.lens = lens
            self.state = state
        }
    }

    /// Every lens given, in the order given.
    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// The tally of each of `lenses`: `activeLens` is on program while `state` is `.recording`, `previewLens` (when
    /// it is one of `lenses` and not on program) on preview, every other lens off.
    public init(lenses: [String], activeLens: String, previewLens: String?, state: Session.State) {
        let program = state == .recording ? activeLens : nil
        entries = lenses.map { lens in
            if lens == program { return Entry(lens: lens, state: .program) }
            if lens == previewLens { return Entry(lens: lens, state: .preview) }
            return Entry(lens: lens, state: .off)
        }
    }

    /// The tally of `lens`; `off` for a lens the board does not list.
    public func state(of lens: String) -> TallyState {
        entries.first { $0.lens == lens }?.state ?? .off
    }
}
