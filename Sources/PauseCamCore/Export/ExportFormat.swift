import Foundation

/// The formats a clip's scenes and markers are exported to, by the names `pausecam export --format` and the
/// rig's `output.exports` use.
public enum ExportFormat: String, CaseIterable, Sendable, Equatable {
    /// DaVinci Resolve's timeline-marker EDL.
    case edl
    /// FCPXML 1.9 for Final Cut Pro and Resolve (chapter markers and markers on the clip).
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
    public func render(_ timeline: ExportTimeline, mediaURL: String? = nil, startFrame: Int64 = 0) -> String {
        switch self {
        case .edl: ResolveMarkerEDL.render(timeline, startFrame: startFrame)
        case .fcpxml: FCPXMLDocument.render(timeline, mediaURL: mediaURL, startFrame: startFrame)
        case .csv: MarkerCSV.render(timeline, startFrame: startFrame)
        case .ffmetadata: FFMetadataDocument.render(timeline)
        case .youtube: YouTubeChapterList.render(timeline)
        }
    }
}
