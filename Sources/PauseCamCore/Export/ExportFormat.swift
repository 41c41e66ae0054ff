import Foundation

/// The formats a clip's scenes and markers are exported to, by the names `pausecam export --format` and the
/// rig's `output.exports` use.
public enum ExportFormat: String, CaseIterable, Sendable, Equatable {
    /// DaVinci Resolve's timeline-marker EDL; for a clip with ISOs, a CMX 3600 cut list of their reels.
    case edl
    /// FCPXML 1.9 for Final Cut Pro and Resolve (chapter markers and markers on the clip, a `dialogue.NAME` role per
    /// voice's track); for a clip with ISOs, a multicam clip of them.
    case fcpxml
    /// A CSV of chapters and markers.
    case csv
    /// FFmpeg's metadata file (chapters), for `-map_metadata`/`-map_chapters`.
    case ffmetadata
    /// A YouTube description chapter list.
    case youtube

    /// What ends the file's name, after the clip's name: `NAME.edl`, `NAME.youtube.txt`.
    public var fileSuffix: String {
        switch self {
        case .edl: ".edl"
        case .fcpxml: ".fcpxml"
        case .csv: ".csv"
        case .ffmetadata: ".ffmeta"
        case .youtube: ".youtube.txt"
        }
    }

    /// The export's text. `mediaURL` is the movie's `file://` URL (FCPXML links the media with it);
    /// `startFrame` is the start timecode as a frame count (EDL, FCPXML and CSV timecodes).
    ///
    /// With `isos` (the clip's lens ISOs, `MulticamTimeline.iso(of:clip:)`) FCPXML is a multicam clip of them cut
    /// as the program was, linked by `isoURLs` (in angle order), and EDL a CMX 3600 cut list switching between
    /// their reels; the other formats are the same with or without ISOs.
    public func render(_ timeline: ExportTimeline, mediaURL: String? = nil, startFrame: Int64 = 0,
                       isos: MulticamTimeline? = nil, isoURLs: [String] = []) -> String {
        switch self {
        case .edl:
            if let isos { return CutListEDL.render(isos, startFrame: startFrame) }
            return ResolveMarkerEDL.render(timeline, startFrame: startFrame)
        case .fcpxml:
            if let isos { return FCPXMLMulticamDocument.render(isos, mediaURLs: isoURLs, startFrame: startFrame) }
            return FCPXMLDocument.render(timeline, mediaURL: mediaURL, startFrame: startFrame)
        case .csv: return MarkerCSV.render(timeline, startFrame: startFrame)
        case .ffmetadata: return FFMetadataDocument.render(timeline)
        case .youtube: return YouTubeChapterList.render(timeline)
        }
    }
}
