import Foundation

/// The program going live (`live:`): the `LiveFeed` turns the switched, zoomed picture into one frame per output slot
/// and moves the sound to live time, and every `LiveSink` gets both from the rig's start to its end — idle,
/// recording and paused alike. Pauses, retakes and stops cut only the recording.
///
/// With live sinks the devices' intake stays open for the whole session (frames and sound reach the serial context
/// while no clip records); without them it opens and closes with each clip, as it always has.
extension RigController {
    /// The live state of a controller: the feed and its sinks. Kept in one place so a rig without `live:` carries
    /// nothing but `nil`.
    struct LiveOutputs {
        var feed: LiveFeed
        var sinks: [any LiveSink]
        /// The sinks turned off with `live off` (by name): they get nothing until `live on`.
        var off: Set<String> = []
        /// The paused slate (`while_paused: slate`), drawn at the first pause.
        var slate: VideoFrame?
    }

    /// The program's canvas, rate and sound format, as the live sinks get it.
    var liveProgram: LiveProgram {
        var program = LiveProgram(width: rig.output.width, height: rig.output.height, rate: rig.output.rate)
        if let desk {
            program.audioSampleRate = Int(desk.outputRate)
            program.audioChannels = 2
        } else if let microphone = devices.microphone {
            program.audioSampleRate = Int(microphone.sampleRate)
            program.audioChannels = microphone.channels
        }
        return program
    }

    /// Makes the live sinks with the factory given at `init` and starts the feed at the clock's now (once: the
    /// factory is let go); with none made, nothing changes. On the serial context, from `startDevices`.
    func startLive() {
        guard let factory = liveSinkFactory else { return }
        liveSinkFactory = nil
        let controller = WeakSerialContextBound(self, serialContext: serialContext)
        let serialContext = self.serialContext
        let sinks = factory.makeLiveSinks(for: liveProgram) { event in
            serialContext.schedule(at: .zero) { controller.object?.tellLive(event) }
        }
        guard !sinks.isEmpty else { return }
        live = LiveOutputs(feed: LiveFeed(rate: rig.output.rate, origin: serialContext.clock.now()), sinks: sinks)
        // A destination with `start: off` waits for `live on NAME`.
        for stream in rig.live?.streams ?? [] where !stream.startsOn { live!.off.insert(stream.name) }
        devices.isTakingSamples = true
        scheduleLiveHold()
    }

    /// A live sink's news, on the serial context: told to every listener; a loss and a return are also noted in the
    /// clip being recorded (its sidecar's warnings list each destination's outages, with the movie time).
    func tellLive(_ event: EngineEvent) {
        notify(event)
        switch event {
        case .liveLost, .liveBack:
            let at = clips.recorder.map { " at \(DurationParser.clockString($0.session.timer))" } ?? ""
            clips.warnClip(event.text + at)
        default: break
        }
    }

    /// The names of the live sinks, in the rig's order.
    public var liveSinkNames: [String] { live?.sinks.map(\.name) ?? [] }

    /// Opens or closes the devices' intake for the clip; with live sinks or a preroll it stays open whatever the
    /// clip does.
    func setClipIntake(_ open: Bool) {
        devices.isTakingSamples = open || live != nil || rig.preroll != nil
    }

    /// A frame the switcher routed (the active lens's, with its zoom crop): to the feed, and its slots to every sink.
    /// With `while_paused: slate`, the paused recording shows the slate live instead of the picture.
    func feedLive(_ routed: VideoFrame) {
        guard live != nil else { return }
        var frame = routed
        if rig.live?.whilePaused == .slate, clips.recorder?.session.state == .paused {
            if live!.slate == nil {
                live!.slate = LivePausedSlate.frame(width: rig.output.width & ~1, height: rig.output.height & ~1,
                                                    rigName: rig.name, pts: routed.pts)
            }
            frame = live!.slate!
            frame.pts = routed.pts
        }
        deliverLive(live!.feed.offer(frame))
    }

    /// Sound as the recorder gets it: in live time to every sink.
    func feedLive(_ chunk: AudioChunk) {
        guard live != nil, let shifted = live!.feed.sound(chunk) else { return }
        for sink in live!.sinks where !live!.off.contains(sink.name) { sink.appendAudio(shifted) }
    }

    private func deliverLive(_ slots: [LiveFeed.Slot]) {
        guard let sinks = live?.sinks, let off = live?.off else { return }
        for slot in slots {
            for sink in sinks where !off.contains(sink.name) { sink.appendVideo(slot.frame, at: slot.liveTime) }
        }
    }

    /// Every `holdInterval` while live: the slots older than `holdAfter` are decided with the last picture, so the
    /// sinks keep their rate when the active lens stalls or goes away. While it delivers this does nothing.
    private func scheduleLiveHold() {
        let controller = WeakSerialContextBound(self, serialContext: serialContext)
        serialContext.schedule(at: serialContext.clock.now() + Self.holdInterval) {
            guard let self = controller.object, self.live != nil else { return }
            if let before = try? self.serialContext.clock.now().subtracting(Self.holdAfter) {
                self.deliverLive(self.live!.feed.hold(before: before))
            }
            self.scheduleLiveHold()
        }
    }

    /// `live on|off [NAME]`: one destination or every one goes live or stops; the recording is untouched.
    func live(_ on: Bool, destination: String?) -> Reply {
        guard live != nil else { return .failed("this rig has no live: outputs (see README, \"Live\")") }
        let names = live!.sinks.map(\.name)
        var chosen = names
        if let destination {
            guard names.contains(destination) else {
                return .failed("no live destination \"\(destination)\"; the rig's: \(names.joined(separator: ", "))")
            }
            chosen = [destination]
        }
        for sink in live!.sinks where chosen.contains(sink.name) {
            (sink as? any LiveSinkControl)?.setOn(on)
            if on { live!.off.remove(sink.name) } else { live!.off.insert(sink.name) }
        }
        return .ok("live \(on ? "on" : "off"): \(chosen.joined(separator: ", "))")
    }

    /// Every live sink's state, for `status`.
    var liveStatus: [LiveSinkStatus] {
        guard let live else { return [] }
        return live.sinks.map { sink in
            if let control = sink as? any LiveSinkControl {
                var status = control.liveStatus
                status.on = !live.off.contains(sink.name)
                return status
            }
            let on = !live.off.contains(sink.name)
            return LiveSinkStatus(name: sink.name, on: on, live: on)
        }
    }

    /// The rig ends: every live sink is closed and the feed stops. Idempotent.
    public func closeLive() {
        serialContext.assertOnSerialContext()
        guard let sinks = live?.sinks else { return }
        live = nil
        for sink in sinks { sink.close() }
        setClipIntake(clips.recorder.map { $0.session.state == .recording || $0.session.state == .paused } ?? false)
    }
}
