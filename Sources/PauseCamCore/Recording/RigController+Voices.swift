/// The voices of a rig that records several microphones: each card's sound through the `VoiceDesk` into the clip,
/// their events, their mix settings (`voice`) and `follow`.
extension RigController {
    /// The movie's sound for a rig of voices: the desk's channels, as a stereo mix track and a mono track per voice.
    func voiceAudioSettings(_ desk: VoiceDesk) -> MovieSettings.AudioSettings {
        var audio = MovieSettings.AudioSettings(sampleRate: desk.outputRate, channels: desk.channels,
                                                bitrate: rig.output.audioBitrate, declick: rig.audio.options.declick)
        audio.tracks = [MovieSettings.AudioTrack(title: "mix", channels: [0, 1])]
            + desk.voices.enumerated().map { MovieSettings.AudioTrack(title: $1.name, channels: [2 + $0]) }
        return audio
    }

    /// Sound from voice card `card`: placed, split and mixed by the desk; what is complete goes to the clip.
    func receiveVoice(_ chunk: AudioChunk, card: Int) {
        serialContext.assertOnSerialContext()
        guard desk != nil, isPlausible(chunk.pts, what: "audio chunks") else { return }
        let mixed: [AudioChunk]
        do {
            mixed = try desk!.add(chunk, card: card, recording: isRecordingSound)
        } catch {
            clips.warnClip("voice card \(card + 1): its sound could not be resampled (\(error)); its voices are silent")
            mixed = desk!.cardEnded(card, recording: isRecordingSound)
        }
        deliverMixed(mixed)
    }

    /// The voices as the clip's sidecar names them: each with its card's microphone.
    func recordedVoices() -> [Recorder.Voice] {
        guard let desk else { return [] }
        return desk.voices.indices.map { index in
            let card = desk.plan.cardOfVoice[index]
            let microphone = devices.voiceCards.indices.contains(card) ? devices.voiceCards[card].microphone : nil
            return Recorder.Voice(name: desk.voices[index].name, device: microphone?.displayName ?? "none")
        }
    }

    /// Voice card `card` ended (unplugged): its voices are told gone and go on in silence.
    func voiceCardEnded(_ card: Int, reason: String) {
        guard desk != nil else { return }
        for voice in desk!.plan.cards[card].voices {
            let name = desk!.voices[voice].name
            let event = EngineEvent.voiceGone(voice: name, reason: reason)
            notify(event)
            clips.warnClip(event.text)
            clips.recorder?.noteVoiceGone(name)
        }
        deliverMixed(desk!.cardEnded(card, recording: isRecordingSound))
    }

    /// Everything the desk holds, into the clip (it is about to be finished).
    func flushVoices() {
        guard desk != nil else { return }
        deliverMixed(desk!.flush(recording: isRecordingSound))
    }

    private var isRecordingSound: Bool { clips.recorder?.session.state == .recording }

    private func deliverMixed(_ mixed: [AudioChunk]) {
        for chunk in mixed {
            feedLive(LiveFeed.leadingChannels(2, of: chunk))
            if prerollTakes(sound: chunk) {
                // Kept for the next scene's preroll.
            } else if let recorder = clips.recorder {
                recorder.appendAudio(chunk)
                stopIfFailed(recorder, at: chunk.pts)
            }
            if director != nil, let decision = director!.levels(desk?.chunkPeaks ?? [], from: chunk.pts, to: chunk.end) {
                cut(decision)
            }
        }
        tellVoiceHappenings()
    }

    /// Carries out `follow`'s cut: the lens switches as a `lens` command would, now (the sound that decided it was
    /// captured a chunk or two ago), and the clip's sidecar marks the switch as automatic.
    private func cut(_ decision: FollowDecision) {
        guard director?.isOn == true, decision.lens != bank.activeLens else { return }
        clips.recorder?.noteFollowCut(lens: decision.lens, voices: decision.voices)
        let reply = execute(.lens(.named(decision.lens)), at: serialContext.clock.now())
        guard reply.ok else {
            // The lens cannot be taken now (no camera): following goes on judging; the program stays.
            return
        }
        notify(.followCut(lens: decision.lens, voices: decision.voices))
    }

    /// A person's `lens` or `zoom` (any command with a source; `follow`'s own cuts have none) takes over from
    /// `follow` for its `manual_hold`.
    func tookOverFromFollow(_ reply: Reply, from source: CommandSource?, at time: MediaTime) -> Reply {
        if reply.ok, source != nil, director != nil { director!.manualLens(bank.activeLens, at: time) }
        return reply
    }

    private func tellVoiceHappenings() {
        guard desk != nil else { return }
        for happening in desk!.takeHappenings() {
            switch happening {
            case .silent(let voice):
                notify(.voiceSilent(voice: desk!.voices[voice].name,
                                    seconds: Int(LevelMeter.silenceWarningAfter.seconds)))
            case .clipping(let voice, let samples):
                notify(.voiceClipping(voice: desk!.voices[voice].name, samples: samples))
            case .cameBack(let voice):
                let event = EngineEvent.voiceBack(voice: desk!.voices[voice].name,
                                                  movieTime: clips.recorder?.session.timer)
                notify(event)
                clips.warnClip(event.text)
                clips.recorder?.noteVoiceBack(desk!.voices[voice].name)
            }
        }
    }

    /// The voices and `follow` as the status shows them.
    func addVoices(to status: inout Status) {
        guard let desk else { return }
        status.voices = desk.status(now: serialContext.clock.now(), speaking: director?.speaking ?? [])
        status.follow = director?.isOn
    }

    /// `follow on|off`.
    func follow(_ on: Bool, at time: MediaTime) -> Reply {
        guard director != nil else {
            return .failed("this rig has no `follow:`; add one (e.g. follow: {host: main, guest: tele, both: wide}) "
                           + "to let the lens follow who speaks")
        }
        director!.setOn(on, at: time)
        return .ok(on ? "follow on: the lens follows who speaks" : "follow off: the lens stays where it is")
    }

    /// `voice NAME mute|unmute|gain DB`.
    func voice(_ name: String, _ change: Command.VoiceChange) -> Reply {
        guard desk != nil else {
            return .failed("this rig records one microphone; `voice` changes a voice of a rig whose `audio:` is a list")
        }
        guard let index = desk!.voices.firstIndex(where: { $0.name == name }) else {
            let names = desk!.voices.map(\.name)
            return .failed("no voice \"\(name)\"\(SpellingSuggestion.clause(for: name, in: names)); the voices are "
                           + names.joined(separator: ", "))
        }
        switch change {
        case .mute:
            desk!.setMuted(true, voice: index)
            return .ok("voice \(name) muted in the mix (its own track still records)")
        case .unmute:
            desk!.setMuted(false, voice: index)
            return .ok("voice \(name) back in the mix")
        case .gain(let decibels):
            desk!.setGain(decibels, voice: index)
            let text = CommandParser.line(for: .voice(name: name, change: change)).split(separator: " ").last.map(String.init) ?? ""
            return .ok("voice \(name) gain \(text)")
        }
    }
}

/// The resampler maker of an engine that was given none: every card's sound is refused with the reason.
struct MissingSoundResamplers: SoundResamplerMaking {
    struct Missing: Error, CustomStringConvertible {
        var description: String { "no resampler was wired for the voice desk" }
    }
    func makeResampler(inputRate: Int32, channels: Int, outputRate: Int32) throws -> any SoundResampler {
        throw Missing()
    }
}
