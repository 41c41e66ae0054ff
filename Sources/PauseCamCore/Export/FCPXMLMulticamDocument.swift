import Foundation

/// An FCPXML 1.9 document holding a `MulticamTimeline` as Final Cut Pro's multicam clip, with a project that
/// plays it cut as recorded.
///
/// The resources hold a `format` per frame size and rate (the first angle's size at the timeline's rate first), an
/// `asset` per movie with its `media-rep`, and a `media` whose `multicam` has one `mc-angle` per angle: a `gap` up
/// to the angle's offset, then the movie's `asset-clip` (with a `dialogue.NAME` role per voice's track when the
/// movie has several, `FCPXMLAudioRoles`), so every angle sits where the recording put it. The project's spine holds one
/// `mc-clip` per cut, each showing its cut's angle (`mc-source` video) and the sound angle's audio, with the
/// chapter and marker elements that fall inside it. Times are rational seconds on the frame grid, never rounded.
public enum FCPXMLMulticamDocument {
    /// The document's text. `mediaURLs` holds each angle's movie location (`file:///…/NAME.mov`), in angle order
    /// (the bare file name when absent); `startFrame` is the project's start timecode as a frame count.
    public static func render(_ timeline: MulticamTimeline, mediaURLs: [String] = [],
                              startFrame: Int64 = 0) -> String {
        let rate = timeline.rate
        let time = { (frame: Int64) in FCPXMLDocument.time(frame, rate: rate) }
        let escape = FCPXMLDocument.escape
        let tcFormat = Timecode(rate: rate).isDropFrame ? "DF" : "NDF"
        let duration = time(timeline.durationFrames)
        let name = escape(timeline.name)

        // A format per frame size and rate. The first (`r1`, the multicam's and the sequence's) is the first angle's
        // size at the timeline's rate, so the project runs at the rate every time in the document is counted in.
        var formats = timeline.angles.first.map { [Format(width: $0.width, height: $0.height, rate: rate)] } ?? []
        for angle in timeline.angles {
            let format = Format(width: angle.width, height: angle.height, rate: angle.rate ?? rate)
            if !formats.contains(format) { formats.append(format) }
        }
        let formatID = { (angle: MulticamTimeline.Angle) -> String in
            let format = Format(width: angle.width, height: angle.height, rate: angle.rate ?? rate)
            return "r\((formats.firstIndex(of: format) ?? 0) + 1)"
        }
        let assetID = { (index: Int) in "r\(formats.count + 1 + index)" }
        let mediaID = "r\(formats.count + timeline.angles.count + 1)"

        var lines = FCPXMLDocument.documentHead + ["    <resources>"]
        for (index, format) in formats.enumerated() {
            let formatName = FCPXMLDocument.formatName(rate: format.rate, width: format.width, height: format.height)
            lines.append("        <format id=\"r\(index + 1)\" name=\"\(formatName)\""
                         + " frameDuration=\"\(FCPXMLDocument.time(1, rate: format.rate))\""
                         + " width=\"\(format.width)\" height=\"\(format.height)\"/>")
        }
        for (index, angle) in timeline.angles.enumerated() {
            let audio = FCPXMLAudioRoles.assetAttributes(hasAudio: angle.hasAudio, tracks: angle.audioTracks,
                                                         channels: angle.audioChannels,
                                                         sampleRate: angle.audioSampleRate)
            let source = index < mediaURLs.count ? mediaURLs[index] : angle.movie
            lines += [
                "        <asset id=\"\(assetID(index))\" name=\"\(escape(angle.name))\""
                    + " start=\"\(FCPXMLDocument.time(angle.sourceStartFrame, rate: angle.rate ?? rate))\""
                    + " duration=\"\(time(angle.durationFrames))\" hasVideo=\"1\" format=\"\(formatID(angle))\""
                    + "\(audio)>",
                "            <media-rep kind=\"original-media\" src=\"\(escape(source))\"/>",
                "        </asset>",
            ]
        }
        lines += [
            "        <media id=\"\(mediaID)\" name=\"\(name)\">",
            "            <multicam format=\"r1\" duration=\"\(duration)\" tcStart=\"0s\" tcFormat=\"\(tcFormat)\">",
        ]
        for (index, angle) in timeline.angles.enumerated() {
            lines.append("                <mc-angle name=\"\(escape(angle.name))\" angleID=\"\(angleID(index))\">")
            if angle.offsetFrames > 0 {
                lines.append("                    <gap name=\"Gap\" offset=\"0s\" start=\"0s\""
                             + " duration=\"\(time(angle.offsetFrames))\"/>")
            }
            let clip = "                    <asset-clip ref=\"\(assetID(index))\" offset=\"\(time(angle.offsetFrames))\""
                + " name=\"\(escape(angle.name))\""
                + " start=\"\(FCPXMLDocument.time(angle.sourceStartFrame, rate: angle.rate ?? rate))\""
                + " duration=\"\(time(angle.durationFrames))\""
                + " format=\"\(formatID(angle))\" tcFormat=\"\(tcFormat)\""
            let roles = angle.hasAudio ? FCPXMLAudioRoles.channelSources(angle.audioTracks) : []
            if roles.isEmpty {
                lines.append(clip + "/>")
            } else {
                lines.append(clip + ">")
                lines += roles.map { "                        " + $0 }
                lines.append("                    </asset-clip>")
            }
            lines.append("                </mc-angle>")
        }
        lines += [
            "            </multicam>",
            "        </media>",
            "    </resources>",
        ]
        lines += FCPXMLDocument.projectHead(name: name, duration: duration, tcStart: time(startFrame),
                                            tcFormat: tcFormat)
        let ranges = timeline.cutRanges
        for (index, (cut, endFrame)) in ranges.enumerated() {
            // The last clip also takes what lies past the timeline's end (a mark on the final frame's edge).
            let markerRange = cut.startFrame..<(index == ranges.count - 1 ? Int64.max : endFrame)
            lines.append("                        <mc-clip ref=\"\(mediaID)\""
                         + " offset=\"\(time(startFrame + cut.startFrame))\" name=\"\(name)\""
                         + " start=\"\(time(cut.startFrame))\" duration=\"\(time(endFrame - cut.startFrame))\">")
            for (angle, enable) in sources(video: cut.angle, audio: timeline.audioAngle) {
                lines.append("                            <mc-source angleID=\"\(angleID(angle))\""
                             + " srcEnable=\"\(enable)\"/>")
            }
            for element in FCPXMLDocument.markerElements(chapters: timeline.chapters, markers: timeline.markers,
                                                         rate: rate, in: markerRange) {
                lines.append("                            " + element)
            }
            lines.append("                        </mc-clip>")
        }
        return (lines + FCPXMLDocument.projectTail).joined(separator: "\n")
    }

    /// A `format` resource: one per frame size and rate among the angles.
    private struct Format: Equatable {
        var width: Int
        var height: Int
        var rate: FrameRate
    }

    /// Angle `index`'s `angleID`: `angle-1`, `angle-2`… (stable, unlike a name a user may repeat in other files).
    static func angleID(_ index: Int) -> String { "angle-\(index + 1)" }

    /// The `mc-source` elements of a cut: the shown angle's video and the sound angle's audio (one element when
    /// they are the same angle).
    static func sources(video: Int, audio: Int?) -> [(angle: Int, enable: String)] {
        guard let audio else { return [(video, "video")] }
        if audio == video { return [(video, "all")] }
        return [(video, "video"), (audio, "audio")].sorted { $0.angle < $1.angle }
    }
}
