import PauseCamSystem

/// Standard output for results, standard error for events and warnings. Both go through `StandardStreamWriter`,
/// so a closed pipe or terminal (`pausecam run … | head -1`) silences that stream and never ends the recording.
/// Thread-safe: each line is written whole.
final class Console: Sendable {
    /// A result line, on standard output.
    func line(_ text: String) {
        StandardStreamWriter.output.write(text + "\n")
    }

    /// An event (scene change, saved clip, unplugged camera), on standard error.
    func event(_ text: String) {
        StandardStreamWriter.error.write("pausecam: " + text + "\n")
    }
}
