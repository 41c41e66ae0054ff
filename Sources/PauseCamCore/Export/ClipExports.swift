import Foundation

/// The exports a rig asks for after every clip (`output.exports: [edl, fcpxml]`), written beside the movie as
/// `NAME.edl`, `NAME.fcpxml`… with the add-only naming, through the sidecar store (Core does no I/O itself).
public enum ClipExports {
    /// Writes each of `formats` for the clip whose final sidecar is `sidecar` and whose movie is at `movieURL`
    /// (with ISOs, FCPXML and EDL are of them: see `ExportFormat.render`).
    /// A failure does not touch the clip: it comes back as a warning for the sidecar, one per format. A YouTube
    /// list that YouTube would ignore (too few or too short chapters) is not written; the warning says why.
    public static func write(sidecar: Sidecar, movieURL: URL, formats: [ExportFormat],
                             store: any SidecarStore) -> [String] {
        guard !formats.isEmpty else { return [] }
        let timeline: ExportTimeline
        let isos: MulticamTimeline?
        do {
            timeline = try ExportTimeline(sidecar: sidecar)
            isos = try MulticamTimeline.iso(of: sidecar, clip: timeline)
        } catch {
            return ["the exports (\(formats.map(\.rawValue).joined(separator: ", "))) were not written: \(error)"]
        }
        let stem = movieURL.deletingPathExtension().path
        let folder = movieURL.deletingLastPathComponent()
        let isoURLs = isos?.angles.map { folder.appendingPathComponent($0.movie).absoluteString } ?? []
        var warnings: [String] = []
        for format in formats {
            if format == .youtube, let problem = YouTubeChapterList.problem(with: timeline) {
                warnings.append("the youtube export was not written: \(problem)")
                continue
            }
            let text = format.render(timeline, mediaURL: movieURL.absoluteString, isos: isos, isoURLs: isoURLs)
            do {
                _ = try store.writeNew(Data(text.utf8), stem: stem, suffix: format.fileSuffix)
            } catch {
                warnings.append("the \(format.rawValue) export was not written: \(error); make it later with "
                                + "`pausecam export \(ShellWord.path(stem + ".json")) --format \(format.rawValue)`")
            }
        }
        return warnings
    }
}
