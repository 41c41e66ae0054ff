/// Where a scene begins when the rig keeps a preroll, and what the preroll costs in memory.
///
/// A preroll is "the pause ended that much earlier than the press": `record` begins the clip's first scene, and
/// `resume` each later one, `length` before the press, so the recorder's one cumulative offset (see `Retimer`)
/// simply grows by a shorter gap. Pure functions of times and the rig; `RigController+Preroll` performs them.
public enum PrerollPolicy {
    /// The capture time a `record` pressed at `press` begins at: `length` earlier, but never before the oldest
    /// frame the ring kept (a rig started a second ago has only a second to give); the press itself when nothing
    /// was kept.
    public static func recordEdge(press: MediaTime, length: MediaTime, oldestKept: MediaTime?) -> MediaTime {
        guard let oldestKept, oldestKept < press else { return press }
        let wanted = (try? press.subtracting(length)) ?? oldestKept
        return max(wanted, oldestKept)
    }

    /// The capture time a `resume` pressed at `press` begins at: `length` earlier, but never before the pause that
    /// ended the scene before (the paused gap shrinks by the preroll; two scenes never overlap), nor after the press.
    public static func resumeEdge(press: MediaTime, length: MediaTime, pausedAt: MediaTime) -> MediaTime {
        guard pausedAt < press else { return press }
        let wanted = (try? press.subtracting(length)) ?? pausedAt
        return max(wanted, pausedAt)
    }

    /// While the kept samples are being handed to a recorder on a clock that does not wait for work, this many
    /// frames of the backlog go per frame of the movie's rate: the backlog drains at twice real time and is gone
    /// after about one preroll's length, without a burst that the encoder queue would refuse.
    public static let catchUpFramesPerTick = 2

    /// The ring's memory for `rig` at its worst, as `check` states it: raw pictures for every camera that may send
    /// them (`format: auto`, `any` and `yuyv` at 2 bytes a pixel; virtual lenses 1.5), a JPEG at a tenth of its
    /// raw size, for `length` plus the ring's slack, for the program's largest lens and every ISO lens, plus the
    /// sound. `nil` without `preroll:`.
    public static func estimatedBytes(for rig: Rig) -> Int? {
        guard let preroll = rig.preroll else { return nil }
        let seconds = (preroll.length + PrerollRing.slack).seconds
        func perSecond(_ lens: Rig.Lens) -> Double {
            let width = Double(lens.width ?? rig.output.width)
            let height = Double(lens.height ?? rig.output.height)
            let rate = (lens.rate ?? rig.output.rate).framesPerSecond
            let pixelBytes: Double
            switch (lens.source, lens.format) {
            case (.virtual, _): pixelBytes = 1.5
            case (_, .mjpeg): pixelBytes = 0.2
            default: pixelBytes = 2
            }
            return width * height * pixelBytes * rate
        }
        let isos = rig.lenses.filter { rig.output.iso.contains($0.name) }
        let program = rig.lenses.filter { !rig.output.iso.contains($0.name) }.map(perSecond).max() ?? 0
        let sound = 48_000.0 * 2 * Double(max(2, 2 + rig.audio.voices.count))
        let total = (isos.map(perSecond).reduce(0, +) + program + sound) * seconds
        return Int(min(total.rounded(.up), Double(Int.max / 2)))
    }

    /// `check`'s line for the preroll: its length, the memory it may take and what it needs at worst here.
    public static func summaryLine(for rig: Rig) -> String? {
        guard let preroll = rig.preroll, let need = estimatedBytes(for: rig) else { return nil }
        let mebibyte = 1024.0 * 1024
        let budget = Int((Double(preroll.memoryBytes) / mebibyte).rounded())
        let needed = Int((Double(need) / mebibyte).rounded(.up))
        var line = "  preroll: \(CommandParser.formatDuration(preroll.length)) before each record and resume; memory "
            + "at most \(budget) MiB (needs about \(needed) MiB at worst)"
        if need > preroll.memoryBytes {
            line += "; over the budget the preroll reaches less far back, and the clip says so"
        }
        return line
    }
}
