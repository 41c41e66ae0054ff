import Foundation
import PauseCamCore
import PauseCamSystem

extension ExportCommand {
    /// `pausecam export --multicam A.json B.json… --format fcpxml [--output FILE] [--start-timecode T]`: one
    /// FCPXML multicam clip of a group's clips, an angle per member's movie placed by the group's grid
    /// (`MulticamTimeline.group`), written beside the first sidecar as `NAME.multicam.fcpxml` (never over an
    /// existing file). Sidecars of different groups or rates, or without a group block, are refused with exit
    /// status 2 and nothing written.
    static func exportMulticam(_ arguments: Arguments) throws -> Int32 {
        let paths = arguments.positional
        guard !paths.isEmpty else {
            throw UsageError("export --multicam needs the sidecars of a group's members: pausecam export "
                             + "--multicam A.json B.json --format fcpxml")
        }
        let formats = try formatsAsked(arguments.options["format"])
        guard formats == [.fcpxml] else {
            throw Failure("--multicam writes one FCPXML multicam clip; give --format fcpxml")
        }
        var clips: [MulticamTimeline.MemberClip] = []
        var movieURLs: [URL] = []
        for path in paths {
            var sidecar = try read(path)
            let sidecarURL = URL(fileURLWithPath: path)
            sidecar.movie = SidecarMovieName.beside(sidecarFileName: sidecarURL.lastPathComponent,
                                                    movie: sidecar.movie)
            clips.append(MulticamTimeline.MemberClip(label: path, sidecar: sidecar))
            movieURLs.append(sidecarURL.deletingLastPathComponent().appendingPathComponent(sidecar.movie))
        }
        let result: MulticamTimeline.GroupResult
        do { result = try MulticamTimeline.group(clips) } catch { throw Failure("\(error)") }
        let startFrame = try startFrame(arguments, rate: result.timeline.rate)
        for (clip, movieURL) in zip(clips, movieURLs) {
            noteUnfinishedOrMissing(clip.sidecar, sidecarPath: clip.label, movieURL: movieURL)
        }
        for warning in result.warnings { StandardStreamWriter.error.write("pausecam: warning: \(warning)\n") }
        let text = FCPXMLMulticamDocument.render(result.timeline, mediaURLs: movieURLs.map(\.absoluteString),
                                                 startFrame: startFrame)
        let output = arguments.options["output"]
        if output == "-" {
            StandardStreamWriter.output.write(text)
            return 0
        }
        let firstName = (clips[0].sidecar.movie as NSString).deletingPathExtension
        let (stem, suffix) = output.map(AddOnlyName.split)
            ?? (movieURLs[0].deletingLastPathComponent().appendingPathComponent(firstName).path, ".multicam.fcpxml")
        try writeNew(text, stem: stem, suffix: suffix, what: "the multicam export", store: AtomicSidecarStore())
        return 0
    }
}
