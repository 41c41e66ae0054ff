import Foundation

/// The chapter list YouTube reads from a video's description: one line per scene, `0:00 Intro`, `1:05 Answer`,
/// the first at 0:00 (YouTube ignores a list that does not start there), times in whole seconds, with hours
/// (`1:02:03`) once the movie is an hour long. Markers are not chapters and are left out.
///
/// YouTube ignores a list, without saying so, unless it has at least three chapters, each at least ten seconds
/// long: `problem(with:)` names the rule a clip breaks, so the list is refused (or skipped with a warning) rather
/// than written for nothing.
public enum YouTubeChapterList {
    /// The fewest chapters YouTube shows.
    public static let minimumChapters = 3
    /// The shortest chapter YouTube accepts, in seconds.
    public static let minimumChapterSeconds: Int64 = 10

    /// Why YouTube would ignore `timeline`'s list, with the numbers (the rule broken, which chapter, how long), or
    /// nil when it follows YouTube's rules. A chapter runs from its line's time (0:00 for the first) to the next
    /// chapter's start, the last to the movie's end; lengths are compared exactly, in frames.
    public static func problem(with timeline: ExportTimeline) -> String? {
        let chapters = timeline.chapters
        let rule = "YouTube shows chapters only when there are at least \(minimumChapters), each at least "
            + "\(minimumChapterSeconds) s long, the first at 0:00"
        guard chapters.count >= minimumChapters else {
            let lengths = chapters.indices.map { seconds(length(of: $0, timeline), timeline) + " s" }
            let listed = lengths.isEmpty ? "" : " (" + lengths.joined(separator: ", ") + ")"
            return "the clip has \(chapters.count) chapter\(chapters.count == 1 ? "" : "s")\(listed); \(rule)"
        }
        let rate = timeline.rate
        for index in chapters.indices {
            let frames = length(of: index, timeline)
            // frames / (num/den) < 10  ⇔  frames · den < 10 · num, exact in integers.
            if frames * Int64(rate.denominator) < minimumChapterSeconds * Int64(rate.numerator) {
                return "chapter \(index + 1) of \(chapters.count) (\"\(chapters[index].title)\") is "
                    + "\(seconds(frames, timeline)) s long; \(rule)"
            }
        }
        return nil
    }

    /// `frames` at `timeline`'s rate as seconds with one decimal, rounded down (`2.5`).
    static func seconds(_ frames: Int64, _ timeline: ExportTimeline) -> String {
        let tenths = frames * 10 * Int64(timeline.rate.denominator) / Int64(timeline.rate.numerator)
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// Frames of chapter `index` as YouTube counts it: from its line's time to the next line's, or the movie's end.
    static func length(of index: Int, _ timeline: ExportTimeline) -> Int64 {
        let chapters = timeline.chapters
        let start = index == 0 ? 0 : chapters[index].startFrame
        let end = index + 1 < chapters.count ? chapters[index + 1].startFrame : timeline.durationFrames
        return max(0, end - start)
    }


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
