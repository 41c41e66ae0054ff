import Foundation

/// Scenes and markers as CSV (RFC 4180: quoted where needed, CRLF line ends), one row each in time order, for
/// spreadsheets, scripts and editors' marker importers:
/// `type,name,scene,start_timecode,end_timecode,start_seconds,duration_seconds,start_frame,duration_frames`.
/// `type` is `chapter` or `marker`; seconds are exact to the microsecond, frames are the movie's frames.
public enum MarkerCSV {
    /// The header row's columns.
    public static let columns = ["type", "name", "scene", "start_timecode", "end_timecode", "start_seconds",
                                 "duration_seconds", "start_frame", "duration_frames"]

    /// The CSV text. `startFrame` offsets the timecode columns only (seconds and frames stay file times).
    public static func render(_ timeline: ExportTimeline, startFrame: Int64 = 0) -> String {
        let timecode = Timecode(rate: timeline.rate)
        var rows: [(frame: Int64, order: Int, fields: [String])] = []
        for (order, chapter) in timeline.chapters.enumerated() {
            let length = chapter.endFrame - chapter.startFrame
            rows.append((chapter.startFrame, order, [
                "chapter", chapter.title, chapter.title,
                timecode.string(forFrame: startFrame + chapter.startFrame),
                timecode.string(forFrame: startFrame + chapter.endFrame),
                timeline.secondsText(ofFrame: chapter.startFrame), timeline.secondsText(ofFrame: length),
                "\(chapter.startFrame)", "\(length)",
            ]))
        }
        for (order, marker) in timeline.markers.enumerated() {
            rows.append((marker.frame, timeline.chapters.count + order, [
                "marker", marker.text, marker.chapter,
                timecode.string(forFrame: startFrame + marker.frame),
                timecode.string(forFrame: startFrame + marker.frame + 1),
                timeline.secondsText(ofFrame: marker.frame), timeline.secondsText(ofFrame: 1),
                "\(marker.frame)", "1",
            ]))
        }
        let body = rows.sorted { ($0.frame, $0.order) < ($1.frame, $1.order) }
            .map { $0.fields.map(field).joined(separator: ",") }
        return ([columns.joined(separator: ",")] + body).joined(separator: "\r\n") + "\r\n"
    }

    /// A field, quoted when it holds a comma, a quote or a line break (quotes doubled). A leading `=`, `+`, `-`
    /// or `@` gets a `'` so a spreadsheet shows the text instead of running it as a formula.
    static func field(_ text: String) -> String {
        var value = text
        if let first = value.first, "=+-@".contains(first) { value = "'" + value }
        guard value.contains(where: { ",\"\r\n".contains($0) }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
