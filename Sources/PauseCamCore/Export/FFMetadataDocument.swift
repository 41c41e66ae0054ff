import Foundation

/// FFmpeg's metadata file (`;FFMETADATA1`), which `ffmpeg -i MOVIE -i FILE -map_metadata 1 -map_chapters 1
/// -c copy OUT` reads to (re)write a movie's chapters: one `[CHAPTER]` per scene with `TIMEBASE` the frame
/// duration, so `START`/`END` are exact frame numbers, and `title`. Markers, which have no place in that format,
/// are kept as `;` comment lines after their chapter.
public enum FFMetadataDocument {
    /// The file's text. Each chapter's markers are found by binary search in the markers sorted by frame (ties
    /// in the timeline's order), so the work grows with the chapters and the lines written, not their product.
    public static func render(_ timeline: ExportTimeline) -> String {
        var lines = [";FFMETADATA1", "title=\(escape(timeline.name))", ""]
        let timebase = "\(timeline.rate.denominator)/\(timeline.rate.numerator)"
        let byFrame = timeline.markers.enumerated()
            .sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
        for chapter in timeline.chapters {
            lines += ["[CHAPTER]", "TIMEBASE=\(timebase)", "START=\(chapter.startFrame)", "END=\(chapter.endFrame)",
                      "title=\(escape(chapter.title))"]
            var index = firstIndex(in: byFrame, atOrAfter: chapter.startFrame)
            while index < byFrame.count, byFrame[index].frame < chapter.endFrame {
                let marker = byFrame[index]
                index += 1
                let text = marker.text.components(separatedBy: .newlines).joined(separator: " ")
                lines.append("; marker \(marker.frame) \(text)")
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// The first index of `markers` (sorted by frame) whose frame is `frame` or later; `markers.count` if none.
    static func firstIndex(in markers: [ExportTimeline.Marker], atOrAfter frame: Int64) -> Int {
        var low = 0, high = markers.count
        while low < high {
            let middle = (low + high) / 2
            if markers[middle].frame < frame { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// A value with FFmpeg's special characters (`=`, `;`, `#`, `\` and line breaks) escaped by a backslash.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            if "=;#\\\n".contains(character) { result.append("\\") }
            result.append(character == "\r\n" || character == "\r" ? "\n" : character)
        }
        return result
    }
}
