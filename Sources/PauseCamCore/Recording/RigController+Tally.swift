/// The tally: which lens is on program and which is armed for preview (`preview LENS|off`). Arming a lens changes
/// nothing in the recording; it only lights that lens's tally green (TSL, GPIO, MQTT, `status`, the monitor page).
extension RigController {
    /// Every lens's tally now, in the rig's order (`TallyBoard`).
    public var tallyBoard: TallyBoard {
        serialContext.assertOnSerialContext()
        return currentTally
    }

    /// The board without the serial-context check, for `status`, which has made that check itself.
    var currentTally: TallyBoard {
        TallyBoard(lenses: rig.lenses.map(\.name), activeLens: bank.activeLens, previewLens: previewLens,
                   state: clips.recorder?.session.state ?? .idle)
    }

    /// `preview LENS` arms the lens for preview; `preview off` disarms.
    func preview(_ lens: String?) -> Reply {
        guard let lens else {
            previewLens = nil
            return .ok("preview off")
        }
        guard rig.lens(named: lens) != nil else {
            return .failed("unknown lens \"\(lens)\"; the rig has \(rig.lenses.map(\.name).joined(separator: ", "))")
        }
        previewLens = lens
        return .ok("preview \(lens)")
    }
}
