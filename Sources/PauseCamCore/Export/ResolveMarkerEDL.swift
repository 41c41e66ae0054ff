import Foundation

/// A CMX 3600 EDL in the layout DaVinci Resolve writes and reads for timeline markers ("Import > Timeline
/// Markers from EDL"): one event per marker, whose source and record in/out are the marker's frame and the next,
/// followed by a comment line ` |C:ResolveColorBlue |M:NAME |D:FRAMES`. Scenes become green markers that last
/// the whole scene (`|D:` its length), so they show as chapters; `mark`s become blue one-frame markers.
///
/// A Resolve timeline holds one marker per frame (its scripting API keys markers by frame, and adding one where
/// one is returns false), so two events at one timecode would lose one on import. Everything on one frame becomes
/// one marker instead: the chapter's colour and length when a scene starts there, its name the names joined with
/// ` + ` (`Interview + Key point`).
public enum ResolveMarkerEDL {
    /// What joins the names of a chapter and markers that share a frame.
    public static let nameSeparator = " + "

    /// The colour of scene (chapter) markers.
    public static let chapterColor = "ResolveColorGreen"
    /// The colour of `mark` markers.
    public static let markerColor = "ResolveColorBlue"

    /// The EDL text (CRLF line ends, as Resolve writes them). `startFrame` is the timeline's start timecode as a
    /// frame count (01:00:00:00 is Resolve's default; PauseCam's default is 0).
    public static func render(_ timeline: ExportTimeline, startFrame: Int64 = 0) -> String {
        let timecode = Timecode(rate: timeline.rate)
        var entries: [(frame: Int64, color: String, name: String, duration: Int64)] =
            timeline.chapters.map { ($0.startFrame, chapterColor, $0.title, $0.endFrame - $0.startFrame) }
        entries += timeline.markers.map { ($0.frame, markerColor, $0.text, 1) }
        // Chapters before markers at the same frame; a stable sort keeps each kind in its order.
        let sorted = entries.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }
        var merged: [(frame: Int64, color: String, name: String, duration: Int64)] = []
        for entry in sorted.map(\.element) {
            if let last = merged.last, last.frame == entry.frame {
                merged[merged.count - 1].name += nameSeparator + entry.name
                merged[merged.count - 1].duration = max(last.duration, entry.duration)
            } else {
                merged.append(entry)
            }
        }
        var lines = ["TITLE: \(oneLine(timeline.name))",
                     "FCM: \(timecode.isDropFrame ? "DROP FRAME" : "NON-DROP FRAME")", ""]
        for (number, entry) in merged.enumerated() {
            let tcIn = timecode.string(forFrame: startFrame + entry.frame)
            let tcOut = timecode.string(forFrame: startFrame + entry.frame + 1)
            lines.append(eventNumber(number + 1) + "  001      V     C        \(tcIn) \(tcOut) \(tcIn) \(tcOut)  ")
            lines.append(" |C:\(entry.color) |M:\(oneLine(entry.name)) |D:\(max(1, entry.duration))")
            lines.append("")
        }
        return lines.joined(separator: "\r\n")
    }

    /// Event numbers are three digits up to 999, then as many as needed.
    private static func eventNumber(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    /// A name on one line without `|`, which would start another field of the comment.
    static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "/")
            .components(separatedBy: .newlines).joined(separator: " ")
    }
}
