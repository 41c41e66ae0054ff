import Foundation

/// The hot-plug paths of `DeviceHub`: a watcher's event arrives on its own thread, the device is opened off the
/// serial context by the `DeviceOpening`, and everything the hub keeps (the lens's node, the microphone's card)
/// changes on the context, where the plugged device is attached or the unplugged one detached.
extension DeviceHub {
    /// A camera appeared or disappeared (on the watcher's thread). A camera that matches a lens is opened here and
    /// then serves that lens; an unplugged node detaches the lens it served. Without an opener, nothing happens.
    public func handle(_ event: DeviceEvent) {
        guard let opener else { return }
        switch event {
        case .attached(let identity):
            guard let lens = CameraMatcher.lens(for: identity, among: rig.lenses) else { return }
            let camera: any Camera
            do {
                camera = try opener.openCamera(identity, for: lens)
            } catch {
                let notice = EngineNotice.pluggedCameraNotOpened(lens: lens.name, device: identity.devicePath,
                                                                 reason: "\(error)")
                serialContext.schedule(at: .zero) { [self] in notify(.notice(notice)) }
                return
            }
            serialContext.schedule(at: .zero) { [self] in
                cameraPlugged(camera, lens: lens.name, node: identity.devicePath)
            }
        case .detached(let identity):
            serialContext.schedule(at: .zero) { [self] in cameraUnplugged(node: identity.devicePath) }
        }
    }

    /// A sound card appeared or disappeared (on the sound watcher's thread). Its removal stops the microphone
    /// recording from it; a card plugged in while the rig has no working microphone is handed to the opener,
    /// and the microphone it opens is attached on the context (unless the devices stopped meanwhile).
    public func handle(_ event: SoundCardEvent) {
        switch event {
        case .removed(let card):
            serialContext.schedule(at: .zero) { [self] in soundCardRemoved(card) }
        case .added(let card):
            serialContext.schedule(at: .zero) { [self] in soundCardAdded(card) }
        }
    }

    /// `camera`, opened from `node`, serves `lens` from now on.
    func cameraPlugged(_ camera: any Camera, lens: String, node: String) {
        serialContext.assertOnSerialContext()
        lensNodes[lens] = node
        attach(camera, lens: lens)
    }

    /// The camera at `node` was unplugged: the lens it served is detached.
    func cameraUnplugged(node: String) {
        serialContext.assertOnSerialContext()
        guard let lens = lensNodes.first(where: { $0.value == node })?.key else { return }
        lensNodes[lens] = nil
        detach(lens: lens, reason: "\(node) was unplugged")
    }

    private func soundCardRemoved(_ card: MicrophoneIdentity) {
        if let index = voiceCard(onSoundCard: card.card) {
            voiceCards[index].card = nil
            detachVoiceCard(index, reason: "sound card \(card.card) (\(card.name)) was unplugged")
            return
        }
        guard microphoneCard?.card == card.card else { return }
        microphoneCard = nil
        detachMicrophone(reason: "sound card \(card.card) (\(card.name)) was unplugged")
    }

    private func soundCardAdded(_ card: MicrophoneIdentity) {
        if !voiceCards.isEmpty {
            voiceCardAdded(card)
            return
        }
        guard let opener, microphone == nil || microphoneGone else { return }
        let lensNode: String? = if case .ofLens(let lens) = rig.audio.device { lensNodes[lens] } else { nil }
        opener.openMicrophone(on: card, lensNode: lensNode) { [self] microphone in
            serialContext.schedule(at: .zero) { [self] in microphonePlugged(microphone, card: card) }
        }
    }

    /// A sound card plugged in while a voice card has no working microphone: offered to each such card whose
    /// voices' source may pick it; the first that opens it takes it.
    private func voiceCardAdded(_ card: MicrophoneIdentity) {
        guard let opener else { return }
        let plan = VoiceCardPlan(voices: rig.audio.voices)
        for index in voiceCards.indices where voiceCards[index].microphone == nil || voiceCards[index].gone {
            guard plan.cards.indices.contains(index),
                  let device = Self.audioDevice(of: plan.cards[index].source) else { continue }
            let lensNode: String? = if case .ofLens(let lens) = device { lensNodes[lens] } else { nil }
            opener.openVoiceMicrophone(on: card, device: device, lensNode: lensNode,
                                       channels: plan.cards[index].highestChannel + 1) { [self] microphone in
                serialContext.schedule(at: .zero) { [self] in
                    guard !devicesStopped, voiceCard(onSoundCard: card.card) == nil else { return }
                    attachVoiceCard(index, microphone, card: card)
                }
            }
            return
        }
    }

    /// The one-microphone device a voice's source stands for; `nil` for a virtual voice (nothing to plug).
    public static func audioDevice(of source: Rig.Voice.Source) -> Rig.AudioInput.Device? {
        switch source {
        case .matched(let rule): return .matched(rule)
        case .ofLens(let lens): return .ofLens(lens)
        case .alsa(let name): return .alsa(name)
        case .virtual: return nil
        }
    }

    /// `microphone`, opened on `card`, replaces an ended (or missing) microphone; the card is then the one whose
    /// removal stops it.
    private func microphonePlugged(_ microphone: any Microphone, card: MicrophoneIdentity) {
        guard !devicesStopped else { return }
        if case .success = attachMicrophone(microphone) { microphoneCard = card }
    }
}
