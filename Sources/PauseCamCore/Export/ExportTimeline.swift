import Foundation

/// A clip's scenes and markers on the movie's frame grid: what every export format writes, in whole frames.
///
/// The sidecar gives times as decimal seconds (for people and scripts); this is the one place they become exact
/// again. Each time is read to the microsecond into a `MediaTime`, then placed on a frame: the nearest frame when
/// it lies within a millisecond of one (scene starts are frame edges, printed with rounding), else the frame
/// showing at that time. Everything after that is integer frame arithmetic.
public struct ExportTimeline: Sendable, Equatable {
    /// A scene as a chapter: a unique title and its frames `[start, end)`.
    public struct Chapter: Sendable, Equatable {
        public var title: String
        public var startFrame: Int64
        public var endFrame: Int64
        public init(title: String, startFrame: Int64, endFrame: Int64) {
            self.title = title
            self.startFrame = startFrame
            self.endFrame = endFrame
        }
    }

    /// A `mark TEXT` at a frame, with the title of the chapter it belongs to.
    public struct Marker: Sendable, Equatable {
        public var text: String
        public var frame: Int64
        public var chapter: String
        public init(text: String, frame: Int64, chapter: String) {
            self.text = text
            self.frame = frame
            self.chapter = chapter
        }
    }

    /// One audio track of the movie: its title (what players and editors list) and how many channels it has.
    public struct AudioTrack: Sendable, Equatable {
        public var title: String
        public var channels: Int
        public init(title: String, channels: Int) {
            self.title = title
            self.channels = channels
        }
    }

    /// The movie's file name (beside the sidecar).
    public var movie: String
    /// The clip's name: the movie's name without its extension.
    public var name: String
    public var rate: FrameRate
    public var width: Int
    public var height: Int
    /// The movie's length in frames.
    public var durationFrames: Int64
    public var hasAudio: Bool
    public var audioSampleRate: Int
    public var audioChannels: Int
    public var chapters: [Chapter]
    public var markers: [Marker]
    /// The movie's audio tracks in order, when it has several: a rig of voices records the stereo mix first, then
    /// one mono track per voice, titled with the voice's name (`voiceTracks`). Empty: one track of
    /// `audioChannels` (a rig of one microphone), as every movie had before voices.
    public var audioTracks: [AudioTrack] = []
    /// The movie's own timecode at its first frame as a frame count at `rate` (the sidecar's `timecode`, what its
    /// `tmcd` track says): the exports' source timecode counts from it. 0 for a sidecar without one.
    public var sourceStartFrame: Int64 = 0

    /// The latest time a sidecar may give, in seconds: 365 days. Anything later is a damaged sidecar, and
    /// refusing it keeps every frame count, timecode and rescale below well inside `Int64`.
    public static let latestSeconds: Double = 365 * 86_400

    /// The timeline of `sidecar`'s movie: scenes with frames become chapters (with unique titles), markers keep
    /// their order. Throws when the sidecar's frame rate is not usable or a time in it is not one a movie has
    /// (negative, or past `latestSeconds`); the error names the field as a `jq` path (`.scenes[2].start`).
    /// Linear in scenes and markers.
    public init(sidecar: Sidecar) throws(ExportError) {
        guard let rate = FrameRate(sidecarFPS: sidecar.video.fps) else {
            throw ExportError("the sidecar's video fps (\(sidecar.video.fps)) is not a frame rate; is it a "
                              + "PauseCam sidecar?")
        }
        self.rate = rate
        movie = sidecar.movie
        name = (sidecar.movie as NSString).deletingPathExtension
        width = sidecar.video.width
        height = sidecar.video.height
        hasAudio = sidecar.audio != nil
        audioSampleRate = sidecar.audio?.sampleRate ?? 48_000
        audioChannels = sidecar.audio?.channels ?? 0
        audioTracks = sidecar.audio?.tracks?.map { AudioTrack(title: $0.title, channels: $0.channels.count) } ?? []
        durationFrames = Self.frame(atSeconds: try Self.checked(sidecar.duration, ".duration"), rate: rate)
        var kept: [(position: Int, startFrame: Int64, endFrame: Int64)] = []
        for (position, scene) in sidecar.scenes.enumerated() {
            let start = try Self.checked(scene.start, ".scenes[\(position)].start")
            let length = try Self.checked(scene.duration, ".scenes[\(position)].duration")
            let end = try Self.checked(start + length, ".scenes[\(position)].start + duration")
            let startFrame = Self.frame(atSeconds: start, rate: rate)
            let endFrame = Self.frame(atSeconds: end, rate: rate)
            if endFrame > startFrame { kept.append((position, startFrame, endFrame)) }
        }
        let titles = ChapterTitles.unique(kept.map { sidecar.scenes[$0.position].title })
        chapters = zip(kept, titles).map { Chapter(title: $1, startFrame: $0.startFrame, endFrame: $0.endFrame) }
        // A marker names its scene's chapter title; a scene too short to be a chapter lends its own title.
        var chapterTitles = sidecar.scenes.map(\.title)
        for (scene, title) in zip(kept, titles) { chapterTitles[scene.position] = title }
        var markers: [Marker] = []
        for (position, scene) in sidecar.scenes.enumerated() {
            for (index, marker) in scene.markers.enumerated() {
                let time = try Self.checked(marker.time, ".scenes[\(position)].markers[\(index)].time")
                markers.append(Marker(text: marker.text, frame: Self.frame(atSeconds: time, rate: rate),
                                      chapter: chapterTitles[position]))
            }
        }
        self.markers = markers
        sourceStartFrame = Self.sourceStartFrame(sidecar.timecode, rate: rate)
        if let last = chapters.last { durationFrames = max(durationFrames, last.endFrame) }
    }

    /// The tracks of a movie recorded by a rig of voices, from their titles in the movie's order: the first is the
    /// stereo mix, each after it a voice's mono track.
    public static func voiceTracks(_ titles: [String]) -> [AudioTrack] {
        titles.enumerated().map { AudioTrack(title: $1, channels: $0 == 0 ? 2 : 1) }
    }

    /// `seconds` when it is a time a movie has, else an error naming `field` and the range.
    private static func checked(_ seconds: Double, _ field: String) throws(ExportError) -> Double {
        guard seconds.isFinite, seconds >= 0, seconds <= latestSeconds else {
            throw ExportError("\(field) is \(seconds), not a time in a movie: a sidecar's times are seconds from 0 "
                              + "to \(Int(latestSeconds)) (365 days); is the sidecar damaged?")
        }
        return seconds
    }

    /// The frame at `seconds` (see the type's comment for the rounding). A time past `latestSeconds` counts as
    /// `latestSeconds` (the initializer refuses such times first), one before 0 as 0.
    public static func frame(atSeconds seconds: Double, rate: FrameRate) -> Int64 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        let micro = (min(seconds, latestSeconds) * 1_000_000).rounded()
        let time = MediaTime(value: Int64(micro), timescale: 1_000_000)
        return frame(at: time, rate: rate)
    }

    /// The frame at an exact `time`: the nearest frame within a millisecond, else the frame showing then.
    public static func frame(at time: MediaTime, rate: FrameRate) -> Int64 {
        // Ticks of 1/(1000 × numerator) s: a frame is 1000 × denominator ticks, a millisecond `numerator` ticks.
        let scale = Int64(rate.numerator) * 1000
        guard scale <= Int64(Int32.max),
              let ticks = try? time.rescaled(to: Int32(scale), rounding: .nearest).value else { return 0 }
        let perFrame = Int64(rate.denominator) * 1000
        let nearest = (ticks + perFrame / 2) / perFrame
        let distance = abs(ticks - nearest * perFrame)
        let tolerance = Int64(rate.numerator)
        return distance <= tolerance ? nearest : ticks / perFrame
    }

    /// The exact time of frame `frame`.
    public func time(ofFrame frame: Int64) -> MediaTime {
        MediaTime(value: frame * Int64(rate.denominator), timescale: rate.numerator)
    }

    /// Frame `frame`'s time as decimal seconds with six places (`12.345678`), exact to the microsecond: for
    /// text formats read by people and scripts.
    public func secondsText(ofFrame frame: Int64) -> String {
        let micro = (try? time(ofFrame: frame).rescaled(to: 1_000_000, rounding: .nearest).value) ?? 0
        let fraction = String(micro % 1_000_000)
        return "\(micro / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
