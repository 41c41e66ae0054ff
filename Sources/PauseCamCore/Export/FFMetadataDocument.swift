import Foundation

/// FFmpeg's metadata file (`;FFMETADATA1`), which `ffmpeg -i MOVIE -i FILE -map_metadata 1 -map_chapters 1
/// -c copy OUT` reads to (re)write a movie's chapters: one `[CHAPTER]` per scene with `TIMEBASE` the frame
/// duration, so `START`/`END` are exact frame numbers, and `title`. Markers, which have no place in that format,
/// are kept as `;` comment lines after their chapter.
public enum FFMetadataDocument {
    /// The file's text.
    public static func render(_ timeline: ExportTimeline) -> String {
        var lines = [";FFMETADATA1", "title=\(escape(timeline.name))", ""]
        let timebase = "\(timeline.rate.denominator)/\(timeline.rate.numerator)"
        for chapter in timeline.chapters {
            lines += ["[CHAPTER]", "TIMEBASE=\(timebase)", "START=\(chapter.startFrame)", "END=\(chapter.endFrame)",
                      "title=\(escape(chapter.title))"]
            for marker in timeline.markers where marker.frame >= chapter.startFrame && marker.frame < chapter.endFrame {
                let text = marker.text.components(separatedBy: .newlines).joined(separator: " ")
                lines.append("; marker \(marker.frame) \(text)")
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
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
