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

    /// The timeline of `sidecar`'s movie: scenes with frames become chapters (with unique titles), markers keep
    /// their order. Throws when the sidecar's frame rate is not usable.
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
        durationFrames = Self.frame(atSeconds: sidecar.duration, rate: rate)
        let kept = sidecar.scenes.compactMap { scene -> (Sidecar.Scene, Int64, Int64)? in
            let start = Self.frame(atSeconds: scene.start, rate: rate)
            let end = Self.frame(atSeconds: scene.start + scene.duration, rate: rate)
            return end > start ? (scene, start, end) : nil
        }
        let titles = ChapterTitles.unique(kept.map(\.0.title))
        chapters = zip(kept, titles).map { Chapter(title: $1, startFrame: $0.1, endFrame: $0.2) }
        var markers: [Marker] = []
        for scene in sidecar.scenes {
            let title = zip(kept, titles).first { $0.0.0.index == scene.index }?.1 ?? scene.title
            for marker in scene.markers {
                markers.append(Marker(text: marker.text, frame: Self.frame(atSeconds: marker.time, rate: rate),
                                      chapter: title))
            }
        }
        self.markers = markers
        if let last = chapters.last { durationFrames = max(durationFrames, last.endFrame) }
    }

    /// The frame at `seconds` (see the type's comment for the rounding).
    public static func frame(atSeconds seconds: Double, rate: FrameRate) -> Int64 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        let time = MediaTime(value: Int64((seconds * 1_000_000).rounded()), timescale: 1_000_000)
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
