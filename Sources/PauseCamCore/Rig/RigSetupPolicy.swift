import Foundation

/// What a device problem found while a rig is set up means for the run, decided here so that the composition root
/// only wires: a camera that is missing or cannot be opened leaves its lens without a camera (the run goes on, and
/// every clip's sidecar says so); a microphone that is missing or cannot be opened makes the run record video only,
/// unless the rig says `audio.required: true`, when nothing is recorded; a file lens that cannot be read, and a
/// simulated clock asked to drive real devices, refuse the rig before anything is recorded.
public struct RigSetupPolicy: Sendable {
    /// What to do about one problem.
    public enum Verdict: Sendable, Equatable {
        /// The run goes on without the device: `notice` is told, and put in every clip's sidecar.
        case goOn(EngineNotice)
        /// The command line asks what cannot be done (a usage error: `pausecam` exits 2).
        case refuseUsage(String)
        /// A device the rig needs cannot be used (`pausecam` exits 1); nothing is recorded.
        case refuseDevice(String)
    }

    public let rig: Rig

    public init(rig: Rig) {
        self.rig = rig
    }

    /// The lenses of the rig that are real cameras (`camera:` rules).
    public var cameraLenses: [Rig.Lens] {
        rig.lenses.filter { if case .camera = $0.source { return true } else { return false } }
    }

    /// The simulated clock drives virtual and file lenses only: a rig's real cameras are not opened on it, and go
    /// without a camera (a script that never uses them runs; one chosen shows the no-camera slate), said as a
    /// warning. A rig whose default lens is a real camera is refused: its clip would open on nothing. `nil` when
    /// the rig has no real camera (or the clock is real).
    public func cameras(onSimulatedClock simulated: Bool) -> Verdict? {
        let real = cameraLenses
        guard simulated, !real.isEmpty else { return nil }
        if real.contains(where: { $0.name == rig.defaultLens }) {
            return .refuseUsage("--clock simulated drives virtual and file lenses only, and the default lens "
                                + "\(rig.defaultLens) is a real camera; give default_lens a virtual or file lens, or "
                                + "leave out --clock simulated")
        }
        return .goOn(.camerasNeedRealClock(lenses: real.map(\.name)))
    }

    /// The cameras could not be listed: every real lens goes without a camera.
    public func camerasNotListed(reason: String) -> Verdict {
        .goOn(.camerasNotListed(reason: reason))
    }

    /// No camera present matches `lens`'s rule: the lens goes without a camera until one is plugged in.
    public func noCameraMatches(_ lens: Rig.Lens) -> Verdict {
        .goOn(.noCameraMatches(lens: lens.name, rule: Self.rule(of: lens)))
    }

    /// The camera at `device` matches `lens` but could not be opened: the lens goes without it.
    public func cameraNotOpened(_ lens: Rig.Lens, device: String, reason: String) -> Verdict {
        .goOn(.cameraNotOpened(lens: lens.name, device: device, reason: reason))
    }

    /// A file lens's file cannot be read: the rig is refused (a file does not come back by itself).
    public func fileLensNotOpened(_ lens: Rig.Lens, reason: String) -> Verdict {
        .refuseDevice("lens \(lens.name): \(reason); nothing was recorded")
    }

    /// The rig's real `microphone` on the simulated clock: refused when the rig requires sound, else video only.
    public func microphoneOnSimulatedClock(_ microphone: String) -> Verdict {
        let notice = EngineNotice.microphoneNeedsRealClock(microphone: microphone)
        return rig.audio.required ? .refuseUsage(notice.words) : .goOn(notice)
    }

    /// The rig's `microphone` cannot be found or opened: refused when the rig requires sound, else video only.
    public func microphoneNotOpened(_ microphone: String, reason: String) -> Verdict {
        if rig.audio.required {
            return .refuseDevice("the microphone is required (audio.required: true), but \(reason); nothing was recorded")
        }
        return .goOn(.microphoneNotOpened(microphone: microphone, reason: reason))
    }

    /// A lens's camera rule as a notice names it.
    static func rule(of lens: Rig.Lens) -> String {
        if case .camera(let rule) = lens.source { return "\(rule)" }
        return "a virtual source"
    }
}
