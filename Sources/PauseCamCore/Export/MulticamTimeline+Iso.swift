import Foundation

extension MulticamTimeline {
    /// The name of the extra angle that shows the program movie itself, for the stretches where the program shows a
    /// lens that has no ISO (`output.iso` listing some lenses only).
    public static let programAngleName = "program"

    /// One clip's lens ISOs as a multicam timeline, or `nil` when the sidecar lists no ISO: an angle per ISO (named
    /// after its lens, linked to its movie, at the lens's own size and rate, at offset 0 and as long as the
    /// program, since every ISO is on the program's timeline), the program's lens switches as the cut
    /// (`programCuts`), the program's sound (every ISO carries it, with the program's audio tracks; the first
    /// angle's is used) and the clip's
    /// chapters and markers. When the program also showed a lens that has no ISO, one more angle,
    /// `programAngleName`, holds the program movie and is cut to there, so the cut is the live cut everywhere.
    ///
    /// `clip` is the clip's `ExportTimeline` (made from the same sidecar, its movie name already checked). Each
    /// ISO's path is read as `FOLDER/FILE` beside the sidecar (`isoMoviePath`), never further away.
    public static func iso(of sidecar: Sidecar, clip: ExportTimeline) throws(ExportError) -> MulticamTimeline? {
        guard let isos = sidecar.iso, !isos.isEmpty else { return nil }
        let lenses = isos.map(\.lens)
        var angles = zip(isos, ChapterTitles.unique(lenses)).map { iso, name in
            let rate = FrameRate(sidecarFPS: iso.fps)
            return Angle(name: name, movie: isoMoviePath(iso, clip: clip), width: iso.width, height: iso.height,
                         durationFrames: clip.durationFrames, offsetFrames: 0, hasAudio: clip.hasAudio,
                         audioSampleRate: clip.audioSampleRate, audioChannels: clip.audioChannels,
                         rate: rate == clip.rate ? nil : rate, audioTracks: clip.audioTracks)
        }
        let shownWithoutIso = sidecar.scenes.flatMap(\.lenses).contains { !lenses.contains($0.lens) }
        var otherLens: Int?
        if shownWithoutIso {
            let name = ChapterTitles.unique(angles.map(\.name) + [programAngleName]).last ?? programAngleName
            otherLens = angles.count
            angles.append(Angle(name: name, movie: clip.movie, width: clip.width, height: clip.height,
                                durationFrames: clip.durationFrames, offsetFrames: 0, hasAudio: clip.hasAudio,
                                audioSampleRate: clip.audioSampleRate, audioChannels: clip.audioChannels,
                                audioTracks: clip.audioTracks))
        }
        // Every ISO starts at the program's first instant: its own label at its rate, the program's at the same.
        for (index, iso) in isos.enumerated() {
            let rate = angles[index].rate ?? clip.rate
            angles[index].sourceStartFrame = angles[index].rate == nil ? clip.sourceStartFrame
                : ExportTimeline.sourceStartFrame(iso.timecode, rate: rate)
        }
        if otherLens != nil { angles[angles.count - 1].sourceStartFrame = clip.sourceStartFrame }
        let cuts = try programCuts(of: sidecar, angles: lenses, otherLens: otherLens)
        return try MulticamTimeline(name: clip.name, rate: clip.rate, angles: angles, cuts: cuts,
                                    chapters: clip.chapters, markers: clip.markers)
    }

    /// An ISO's movie as a path from the sidecar's folder: the sidecar's `NAME.iso/ROLE.mov` when it is a folder
    /// and a file each named plainly (no `..`, no leading dot, nothing deeper), else the name PauseCam gives it
    /// beside the clip's movie. A sidecar is a text file anyone can edit, so it cannot link media elsewhere.
    public static func isoMoviePath(_ iso: Sidecar.IsoMovie, clip: ExportTimeline) -> String {
        let parts = iso.file.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 2, parts.allSatisfy({ SidecarMovieName.plainName($0) == $0 }) { return iso.file }
        let role = SidecarMovieName.plainName(iso.lens) ?? "lens"
        return "\(clip.name).iso/\(role).mov"
    }
}
