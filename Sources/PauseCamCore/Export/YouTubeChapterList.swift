import Foundation

/// The chapter list YouTube reads from a video's description: one line per scene, `0:00 Intro`, `1:05 Answer`,
/// the first at 0:00 (YouTube ignores a list that does not start there), times in whole seconds, with hours
/// (`1:02:03`) once the movie is an hour long. Markers are not chapters and are left out.
public enum YouTubeChapterList {
    /// The list's text, one line per chapter.
    public static func render(_ timeline: ExportTimeline) -> String {
        let withHours = timeline.time(ofFrame: timeline.durationFrames) >= .seconds(3600)
        var lines: [String] = []
        for (index, chapter) in timeline.chapters.enumerated() {
            // The first chapter starts at 0:00 by YouTube's rule; a scene starting later (none does today) is
            // still named at 0:00.
            let seconds = index == 0 ? 0 : wholeSeconds(chapter.startFrame, timeline)
            let title = chapter.title.components(separatedBy: .newlines).joined(separator: " ")
            lines.append(clock(seconds, withHours: withHours) + " " + title)
        }
        return lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
    }

    /// Whole seconds at frame `frame`, rounded down (the chapter starts within that second).
    static func wholeSeconds(_ frame: Int64, _ timeline: ExportTimeline) -> Int64 {
        frame * Int64(timeline.rate.denominator) / Int64(timeline.rate.numerator)
    }

    /// `M:SS`, or `H:MM:SS` with hours.
    static func clock(_ seconds: Int64, withHours: Bool) -> String {
        let s = seconds % 60, m = seconds / 60 % 60, h = seconds / 3600
        let ss = s < 10 ? "0\(s)" : "\(s)"
        if withHours { return "\(h):" + (m < 10 ? "0\(m)" : "\(m)") + ":" + ss }
        return "\(seconds / 60):" + ss
    }
}
