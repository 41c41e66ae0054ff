/// The feedback messages: one address per value, each with one typed argument, so a Companion feedback or a
/// TouchOSC label binds to an address without parsing anything.
///
/// | address | type | value |
/// |---|---|---|
/// | `/pausecam/state` | s | `idle`, `recording`, `paused`, `stopping`, `finished` |
/// | `/pausecam/recording` | i | 1 while recording, else 0 |
/// | `/pausecam/paused` | i | 1 while paused, else 0 |
/// | `/pausecam/timer` | f | the movie's time in seconds |
/// | `/pausecam/timer/text` | s | the same as the shell shows it |
/// | `/pausecam/scene` | i | the scene's number |
/// | `/pausecam/scene/name` | s | its name (empty when unnamed) |
/// | `/pausecam/lens` | s | the active lens |
/// | `/pausecam/zoom` | f | the effective zoom |
/// | `/pausecam/tally/LENS` | s | `program`, `preview`, `off` |
/// | `/pausecam/tally/LENS/program` | i | 1 on program, else 0 |
/// | `/pausecam/disk/minutes` | i | minutes the free disk holds at the current rate (when known) |
/// | `/pausecam/dropped` | i | dropped video frames in this clip |
/// | `/pausecam/group/state` | s | the group's state, or `mixed` |
/// | `/pausecam/group/online` | i | members online |
/// | `/pausecam/group/connected` | i | 1 while this member reaches the broker |
///
/// Pure: the caller sends what these return.
public enum OSCFeedback {
    /// Every value of `state`, in the table's order.
    public static func all(_ state: OSCFeedbackState) -> [OSCMessage] {
        var messages: [OSCMessage] = []
        messages += stateMessages(state)
        messages += timerMessages(state)
        messages += sceneMessages(state)
        messages.append(OSCMessage("/pausecam/lens", [.string(state.lens)]))
        messages.append(zoomMessage(state))
        for tally in state.tally { messages += tallyMessages(tally) }
        if let minutes = state.diskMinutes { messages.append(diskMessage(minutes)) }
        messages.append(OSCMessage("/pausecam/dropped", [.int32(clamped(state.droppedFrames))]))
        if let group = state.group { messages += groupMessages(group) }
        return messages
    }

    /// The messages for what differs between `old` and `new`, as it happens. The timer runs on by itself and is
    /// sent with the state it changes with (a new state, a new scene) and once a second, not on every change.
    public static func changes(from old: OSCFeedbackState?, to new: OSCFeedbackState) -> [OSCMessage] {
        guard let old else { return all(new) }
        var messages: [OSCMessage] = []
        if old.state != new.state { messages += stateMessages(new) }
        if old.state != new.state || old.scene != new.scene { messages += timerMessages(new) }
        if old.scene != new.scene || old.sceneName != new.sceneName { messages += sceneMessages(new) }
        if old.lens != new.lens { messages.append(OSCMessage("/pausecam/lens", [.string(new.lens)])) }
        if zoomMessage(old) != zoomMessage(new) { messages.append(zoomMessage(new)) }
        for tally in new.tally where !old.tally.contains(tally) { messages += tallyMessages(tally) }
        if let minutes = new.diskMinutes, minutes != old.diskMinutes { messages.append(diskMessage(minutes)) }
        if old.droppedFrames != new.droppedFrames {
            messages.append(OSCMessage("/pausecam/dropped", [.int32(clamped(new.droppedFrames))]))
        }
        if let group = new.group, group != old.group { messages += groupMessages(group) }
        return messages
    }

    /// The typed reply to a command: `/pausecam/reply ,sis WORD OK MESSAGE` (OK is 1 or 0), sent to the sender.
    public static func reply(word: String, ok: Bool, message: String) -> OSCMessage {
        OSCMessage("/pausecam/reply", [.string(word), .int32(ok ? 1 : 0), .string(message)])
    }

    /// The reply to a message that was junk: `/pausecam/error ,ss ADDRESS REASON`, REASON an `OSCRejection` name.
    public static func error(address: String, reason: OSCRejection) -> OSCMessage {
        OSCMessage("/pausecam/error", [.string(address), .string(reason.name)])
    }

    private static func stateMessages(_ state: OSCFeedbackState) -> [OSCMessage] {
        [OSCMessage("/pausecam/state", [.string(state.state)]),
         OSCMessage("/pausecam/recording", [.int32(state.state == "recording" ? 1 : 0)]),
         OSCMessage("/pausecam/paused", [.int32(state.state == "paused" ? 1 : 0)])]
    }

    private static func timerMessages(_ state: OSCFeedbackState) -> [OSCMessage] {
        let seconds = state.timerSeconds.isFinite ? Float(state.timerSeconds) : 0
        return [OSCMessage("/pausecam/timer", [.float(seconds)]),
                OSCMessage("/pausecam/timer/text", [.string(state.timerText)])]
    }

    private static func sceneMessages(_ state: OSCFeedbackState) -> [OSCMessage] {
        [OSCMessage("/pausecam/scene", [.int32(clamped(state.scene))]),
         OSCMessage("/pausecam/scene/name", [.string(state.sceneName)])]
    }

    /// The zoom to two decimals, so a ramp's last digits are no change.
    private static func zoomMessage(_ state: OSCFeedbackState) -> OSCMessage {
        let rounded = state.zoom.isFinite ? (state.zoom * 100).rounded() / 100 : 1
        return OSCMessage("/pausecam/zoom", [.float(Float(rounded))])
    }

    private static func tallyMessages(_ tally: OSCFeedbackState.Tally) -> [OSCMessage] {
        let part = addressPart(tally.lens)
        return [OSCMessage("/pausecam/tally/\(part)", [.string(tally.state)]),
                OSCMessage("/pausecam/tally/\(part)/program", [.int32(tally.state == "program" ? 1 : 0)])]
    }

    /// A lens name as one part of an address: characters OSC gives a meaning (`/`, space, `#*,?[]{}`) and control
    /// characters become `_`.
    public static func addressPart(_ name: String) -> String {
        String(name.unicodeScalars.map { scalar -> Character in
            let special = " #*,/?[]{}".unicodeScalars.contains(scalar) || scalar.properties.generalCategory == .control
            return special ? "_" : Character(scalar)
        })
    }

    private static func diskMessage(_ minutes: Int) -> OSCMessage {
        OSCMessage("/pausecam/disk/minutes", [.int32(clamped(minutes))])
    }

    private static func groupMessages(_ group: OSCFeedbackState.Group) -> [OSCMessage] {
        [OSCMessage("/pausecam/group/state", [.string(group.state)]),
         OSCMessage("/pausecam/group/online", [.int32(clamped(group.online))]),
         OSCMessage("/pausecam/group/connected", [.int32(group.connected ? 1 : 0)])]
    }

    private static func clamped(_ value: Int) -> Int32 { Int32(clamping: value) }
}
