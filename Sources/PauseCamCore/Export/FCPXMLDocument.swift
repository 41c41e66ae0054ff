import Foundation

/// An FCPXML 1.9 document that Final Cut Pro and DaVinci Resolve import as a timeline holding the clip, with a
/// `chapter-marker` per scene and a `marker` per `mark`, and, for a movie of several audio tracks (a rig of voices),
/// a `dialogue.NAME` audio role per voice (`FCPXMLAudioRoles`).
///
/// It has what an importer needs to find and place the media: a `format` (frame duration and size), an `asset`
/// with a `media-rep` pointing at the movie beside the sidecar (a `file://` URL when the folder is known, else the
/// bare file name for a relative link), and an event, project and sequence whose spine holds one `asset-clip`.
/// Times are rational seconds on the frame grid (`1001/30000s` per frame at 29.97), never rounded decimals.
public enum FCPXMLDocument {
    /// The document's text. `mediaURL` is where the movie is (`file:///…/NAME.mov`); `startFrame` is the
    /// sequence's start timecode as a frame count.
    public static func render(_ timeline: ExportTimeline, mediaURL: String? = nil, startFrame: Int64 = 0) -> String {
        let timecode = Timecode(rate: timeline.rate)
        let tcFormat = timecode.isDropFrame ? "DF" : "NDF"
        let oneFrame = time(1, timeline)
        let duration = time(timeline.durationFrames, timeline)
        let tcStart = time(startFrame, timeline)
        // The movie's own timecode: the asset starts there, and the clip's markers are on its time.
        let sourceStart = time(timeline.sourceStartFrame, timeline)
        let name = escape(timeline.name)
        let audio = FCPXMLAudioRoles.assetAttributes(hasAudio: timeline.hasAudio, tracks: timeline.audioTracks,
                                                     channels: timeline.audioChannels,
                                                     sampleRate: timeline.audioSampleRate)
        var lines = documentHead + [
            "    <resources>",
            "        <format id=\"r1\" name=\"\(formatName(timeline))\" frameDuration=\"\(oneFrame)\""
                + " width=\"\(timeline.width)\" height=\"\(timeline.height)\"/>",
            "        <asset id=\"r2\" name=\"\(name)\" start=\"\(sourceStart)\" duration=\"\(duration)\" hasVideo=\"1\""
                + " format=\"r1\"\(audio)>",
            "            <media-rep kind=\"original-media\" src=\"\(escape(mediaURL ?? timeline.movie))\"/>",
            "        </asset>",
            "    </resources>",
        ] + projectHead(name: name, duration: duration, tcStart: tcStart, tcFormat: tcFormat) + [
            "                        <asset-clip ref=\"r2\" offset=\"\(tcStart)\" name=\"\(name)\" start=\"\(sourceStart)\""
                + " duration=\"\(duration)\" format=\"r1\" tcFormat=\"\(tcFormat)\">",
        ]
        for element in markerElements(chapters: timeline.chapters, markers: timeline.markers, rate: timeline.rate,
                                      shift: timeline.sourceStartFrame) {
            lines.append("                            " + element)
        }
        if timeline.hasAudio {
            for element in FCPXMLAudioRoles.channelSources(timeline.audioTracks) {
                lines.append("                            " + element)
            }
        }
        lines.append("                        </asset-clip>")
        return (lines + projectTail).joined(separator: "\n")
    }

    /// The XML declaration, the doctype and the `fcpxml` start tag.
    static let documentHead = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<!DOCTYPE fcpxml>",
                               "<fcpxml version=\"1.9\">"]

    /// The library, its event `PauseCam` and a project `name` (an escaped attribute value) whose sequence (format
    /// `r1`) opens its spine, where the caller puts the clips.
    static func projectHead(name: String, duration: String, tcStart: String, tcFormat: String) -> [String] {
        [
            "    <library>",
            "        <event name=\"PauseCam\">",
            "            <project name=\"\(name)\">",
            "                <sequence format=\"r1\" duration=\"\(duration)\" tcStart=\"\(tcStart)\""
                + " tcFormat=\"\(tcFormat)\">",
            "                    <spine>",
        ]
    }

    /// What closes `projectHead` and the document, ending in a newline.
    static let projectTail = ["                    </spine>", "                </sequence>", "            </project>",
                              "        </event>", "    </library>", "</fcpxml>", ""]

    /// A clip's `chapter-marker` (one per chapter, at its first frame) and `marker` elements, one frame long, in
    /// time order as FCPXML wants a clip's anchored items, a chapter before a marker on its frame. With `range`, only
    /// those whose frame lies in it. `shift` moves them onto the clip's own time (its source timecode's start).
    static func markerElements(chapters: [ExportTimeline.Chapter], markers: [ExportTimeline.Marker],
                               rate: FrameRate, in range: Range<Int64>? = nil, shift: Int64 = 0) -> [String] {
        let oneFrame = time(1, rate: rate)
        var items: [(frame: Int64, order: Int, xml: String)] = []
        for (order, chapter) in chapters.enumerated() where range?.contains(chapter.startFrame) ?? true {
            let start = time(shift + chapter.startFrame, rate: rate)
            items.append((chapter.startFrame, order, "<chapter-marker start=\"\(start)\""
                          + " duration=\"\(oneFrame)\" value=\"\(escape(chapter.title))\" posterOffset=\"0s\"/>"))
        }
        for (order, marker) in markers.enumerated() where range?.contains(marker.frame) ?? true {
            items.append((marker.frame, chapters.count + order,
                          "<marker start=\"\(time(shift + marker.frame, rate: rate))\" duration=\"\(oneFrame)\""
                          + " value=\"\(escape(marker.text))\"/>"))
        }
        return items.sorted { ($0.frame, $0.order) < ($1.frame, $1.order) }.map(\.xml)
    }

    /// Frame `frame` as FCPXML rational seconds, reduced: `0s`, `2s`, `1001/30000s`, `3/2s`.
    public static func time(_ frame: Int64, _ timeline: ExportTimeline) -> String { time(frame, rate: timeline.rate) }

    /// Frame `frame` at `rate` as FCPXML rational seconds, reduced.
    public static func time(_ frame: Int64, rate: FrameRate) -> String {
        var numerator = frame * Int64(rate.denominator)
        var denominator = Int64(rate.numerator)
        if numerator == 0 { return "0s" }
        let divisor = MediaTime.gcd(numerator, denominator)
        numerator /= divisor
        denominator /= divisor
        return denominator == 1 ? "\(numerator)s" : "\(numerator)/\(denominator)s"
    }

    /// Final Cut's name for common formats (`FFVideoFormat1080p2997`); `FFVideoFormatRateUndefined` otherwise,
    /// which importers accept with the explicit size and frame duration.
    static func formatName(_ timeline: ExportTimeline) -> String {
        formatName(rate: timeline.rate, width: timeline.width, height: timeline.height)
    }

    /// Final Cut's name for frames of `width`×`height` at `rate` (see `formatName(_:)`).
    static func formatName(rate: FrameRate, width: Int, height: Int) -> String {
        let rateName: String
        switch (rate.numerator, rate.denominator) {
        case (24000, 1001): rateName = "2398"
        case (30000, 1001): rateName = "2997"
        case (60000, 1001): rateName = "5994"
        case (let n, 1) where [24, 25, 30, 50, 60].contains(n): rateName = "\(n)"
        default: return "FFVideoFormatRateUndefined"
        }
        guard [(1920, 1080), (1280, 720), (3840, 2160)].contains(where: { $0 == (width, height) })
        else { return "FFVideoFormatRateUndefined" }
        return "FFVideoFormat\(height)p\(rateName)"
    }

    /// Text for an attribute value: the five XML entities escaped, control characters (not allowed in XML 1.0)
    /// turned into spaces.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result += " "
            default:
                let forbidden = scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value)
                result.unicodeScalars.append(forbidden ? " " : scalar)
            }
        }
        return result
    }
}
