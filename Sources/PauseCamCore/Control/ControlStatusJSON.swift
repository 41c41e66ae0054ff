import Foundation

/// The JSON of `pausecam ctl status --json` and of `pausecam ctl watch`, for status bars and Stream Deck plug-ins:
/// one object per line, keys sorted, so a script can read it with `jq` and a test with `JSONSerialization`.
///
/// Times are exact `MediaTime`s until here; printing them is where they become decimal seconds (and the clock text
/// the shell shows, so a status bar need not format them).
public enum ControlStatusJSON {
    /// The live state: `state`, `scene`, `timer` (seconds) and `timer_text`, `lens`, `zoom` (the effective zoom:
    /// the lens's zoom × the digital zoom) and `digital_zoom` (the centre crop alone), both to two decimals, `file`
    /// (null while idle) and `dropped_frames`, plus the rig's name and `web`, the browser monitor's address (null
    /// when it is off; never with its token). `lenses`, when given, are the rig's lenses in rig order, each as
    /// `{"name": …, "tally": "program"|"preview"|"off"}` (`TallyBoard`), so a shell's completion of
    /// `pausecam ctl lens` offers what the running rig has and the monitor page lights each lens's tile.
    ///
    /// `host` is the machine's name (absent when not given), so a page or a status bar says which machine's rig it
    /// drives.
    ///
    /// `time_left_s` is the recording time left in whole seconds (`RecordingTimeLeft`: the free space at the rate
    /// the clip writes, or the last clip's while idle), null while unknown; `time_left_warning` is true at ten
    /// minutes or less.
    ///
    /// `timecode`, while a clip has a frame, is the movie's timecode at the timer (`RigStatus.timecode`).
    ///
    /// `voices` is every voice of a rig of voices in rig order (empty for a rig of one microphone), each as
    /// `voiceObject` writes it; `follow` is whether the lens follows who speaks, absent for a rig without `follow:`.
    /// The browser monitor polls this same object, so its meters and toggles show what the engine has, not what
    /// a button asked for.
    public static func line(_ status: RigController.Status, rig: String, web: String? = nil,
                            lenses: [String]? = nil, host: String? = nil) -> String {
        var object: [String: Any] = [
            "rig": rig,
            "state": status.state.rawValue,
            "scene": status.scene,
            "timer": status.timer.seconds,
            "timer_text": DurationParser.clockString(status.timer, decimals: 3),
            "lens": status.lens,
            "zoom": twoDecimals(status.effectiveZoom),
            "digital_zoom": twoDecimals(status.digitalZoom),
            "file": status.moviePath.map { $0 as Any } ?? NSNull(),
            "dropped_frames": status.droppedFrames,
            "web": web.map { $0 as Any } ?? NSNull(),
        ]
        if let lenses {
            object["lenses"] = lenses.map { lens -> [String: Any] in
                ["name": lens, "tally": (status.tally.first { $0.lens == lens }?.state ?? .off).rawValue]
            }
        }
        if let host { object["host"] = host }
        object["time_left_s"] = status.timeLeft.seconds.map { $0 as Any } ?? NSNull()
        object["time_left_warning"] = status.timeLeft.isWarning
        if let timecode = status.timecode { object["timecode"] = timecode }
        object["voices"] = status.voices.map(voiceObject)
        if let follow = status.follow { object["follow"] = follow }
        if !status.live.isEmpty {
            object["live"] = status.live.map { sink -> [String: Any] in
                var fields: [String: Any] = ["name": sink.name, "on": sink.on, "live": sink.live,
                                             "bitrate": sink.bitsPerSecond, "dropped_frames": sink.droppedFrames,
                                             "outages": sink.outages]
                if let reason = sink.lostReason { fields["lost_reason"] = reason }
                if let retryIn = sink.retryIn { fields["retry_in"] = retryIn.seconds }
                return fields
            }
        }
        if let osc = status.osc {
            object["osc"] = ["listen": osc.listen, "handled": osc.handled, "junk": osc.junk,
                             "junk_total": osc.junkTotal, "subscribers": osc.subscribers] as [String: Any]
        }
        object.merge(monitorFields(status)) { kept, _ in kept }
        return encode(object)
    }

    /// One event as `watch` prints it: its `type`, `source`, `message` and values (`EngineEvent.jsonFields`).
    public static func event(_ event: EngineEvent) -> String {
        encode(event.jsonFields)
    }

    /// One voice: `name`, `peak_dbfs` and `hold_dbfs` (dBFS to one decimal; null for silence, −∞), `clipping`,
    /// `gain_db`, `pan` (−1 left … 1 right), `muted` (left out of the mix), `gone` (its microphone is unplugged)
    /// and `speaking` (what `follow` hears).
    static func voiceObject(_ voice: VoiceStatus) -> [String: Any] {
        [
            "name": voice.name,
            "peak_dbfs": voice.peakDBFS.map(oneDecimal) ?? NSNull(),
            "hold_dbfs": voice.holdDBFS.map(oneDecimal) ?? NSNull(),
            "clipping": voice.clipping,
            "gain_db": twoDecimals(voice.gainDecibels),
            "pan": twoDecimals(voice.pan),
            "muted": voice.muted,
            "gone": voice.gone,
            "speaking": voice.speaking,
        ]
    }

    /// A level in dB rounded to tenths as a decimal number (a meter shows no finer step); null when not finite.
    static func oneDecimal(_ decibels: Double) -> Any {
        guard decibels.isFinite, abs(decibels) < 1e12 else { return NSNull() }
        return Decimal(Int64((decibels * 10).rounded())) / 10
    }

    /// `factor` rounded to hundredths as a decimal number, so JSON shows `1.11`, never a binary double's
    /// `1.1100000000000001` (mid-ramp factors have many digits no status bar wants).
    static func twoDecimals(_ factor: Double) -> Any {
        guard factor.isFinite, abs(factor) < 1e12 else { return NSNull() }
        return Decimal(Int64((factor * 100).rounded())) / 100
    }

    private static func encode(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
              let text = String(data: data, encoding: .utf8) else {
            preconditionFailure("a dictionary of strings and numbers is always JSON")
        }
        return text
    }
}
