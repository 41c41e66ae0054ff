import Foundation

/// Several movies of one event laid on one timeline, as an editor's multicam clip: the angles (one movie each,
/// placed at a frame offset), the cut (which angle the program shows from which frame) and the chapters and markers,
/// all in whole frames of one rate.
///
/// It is built from what was recorded, never from a wall clock: the members of a group from their sidecars'
/// grid slots (`MulticamTimeline.group(_:)`), exact to the frame; one clip's lens ISOs from its lens segments
/// (every angle at offset 0, the program's switches as the cut, `programCuts(of:angles:)`). The FCPXML writer
/// (`FCPXMLMulticamDocument`) reads nothing else.
public struct MulticamTimeline: Sendable, Equatable {
    /// One angle: a movie and where its first frame falls on the timeline.
    public struct Angle: Sendable, Equatable {
        /// The angle's name in the editor (a member's host, a lens's role); unique within the timeline.
        public var name: String
        /// The movie's file name, beside the sidecar that named it.
        public var movie: String
        public var width: Int
        public var height: Int
        /// The movie's length in frames.
        public var durationFrames: Int64
        /// The timeline frame that shows the movie's first frame.
        public var offsetFrames: Int64
        public var hasAudio: Bool
        public var audioSampleRate: Int
        public var audioChannels: Int
        /// The movie's own frame rate when it is not the timeline's (a lens ISO keeps its lens's rate); `nil`
        /// when it is. Durations and offsets stay in timeline frames either way.
        public var rate: FrameRate?
        /// The movie's audio tracks when it has several (`ExportTimeline.audioTracks`); empty for one track.
        public var audioTracks: [ExportTimeline.AudioTrack]
        /// The movie's timecode at its first frame, as a frame count at the movie's own rate (`rate`, else the
        /// timeline's): where its source timecode counts from (`ExportTimeline.sourceStartFrame`).
        public var sourceStartFrame: Int64 = 0

        public init(name: String, movie: String, width: Int, height: Int, durationFrames: Int64,
                    offsetFrames: Int64, hasAudio: Bool, audioSampleRate: Int = 48_000, audioChannels: Int = 0,
                    rate: FrameRate? = nil, audioTracks: [ExportTimeline.AudioTrack] = []) {
            self.name = name
            self.movie = movie
            self.width = width
            self.height = height
            self.durationFrames = durationFrames
            self.offsetFrames = offsetFrames
            self.hasAudio = hasAudio
            self.audioSampleRate = audioSampleRate
            self.audioChannels = audioChannels
            self.rate = rate
            self.audioTracks = audioTracks
        }

        /// The timeline frame just after the movie's last.
        public var endFrame: Int64 { offsetFrames + durationFrames }
    }

    /// From `startFrame` (a timeline frame) until the next cut, the program shows angle `angle` (an index into
    /// `angles`).
    public struct Cut: Sendable, Equatable {
        public var startFrame: Int64
        public var angle: Int
        public init(startFrame: Int64, angle: Int) {
            self.startFrame = startFrame
            self.angle = angle
        }
    }

    /// The multicam clip's (and its project's) name.
    public var name: String
    /// The one rate every angle has.
    public var rate: FrameRate
    public var angles: [Angle]
    /// In time order, the first at frame 0, no two at one frame.
    public var cuts: [Cut]
    /// The angle whose sound the program uses throughout; `nil` when no angle has sound.
    public var audioAngle: Int?
    /// Chapters on the timeline (titles unique), in time order.
    public var chapters: [ExportTimeline.Chapter]
    /// Markers on the timeline, in time order.
    public var markers: [ExportTimeline.Marker]

    /// A timeline of `angles` cut as `cuts`. Throws when there is no angle, two angles share a name, an angle
    /// starts before frame 0, or the cuts are not a list in time order from frame 0 of existing angles (the error
    /// says which). `audioAngle` defaults to the first angle with sound.
    public init(name: String, rate: FrameRate, angles: [Angle], cuts: [Cut], audioAngle: Int? = nil,
                chapters: [ExportTimeline.Chapter], markers: [ExportTimeline.Marker]) throws(ExportError) {
        guard !angles.isEmpty else { throw ExportError("a multicam clip needs at least one angle") }
        var names: Set<String> = []
        for angle in angles {
            guard names.insert(angle.name).inserted else {
                throw ExportError("two angles are named \"\(angle.name)\"; each angle needs its own name")
            }
            guard angle.offsetFrames >= 0, angle.durationFrames >= 0 else {
                throw ExportError("angle \"\(angle.name)\" starts at frame \(angle.offsetFrames) and lasts "
                                  + "\(angle.durationFrames) frames; an angle starts at or after frame 0")
            }
        }
        guard cuts.first?.startFrame == 0 else {
            throw ExportError("the cut list starts at frame \(cuts.first.map { "\($0.startFrame)" } ?? "(none)"); "
                              + "the first cut is at frame 0")
        }
        for (index, cut) in cuts.enumerated() {
            guard angles.indices.contains(cut.angle) else {
                throw ExportError("cut \(index) shows angle \(cut.angle), but there are \(angles.count) angles")
            }
            if index > 0, cut.startFrame <= cuts[index - 1].startFrame {
                throw ExportError("cut \(index) at frame \(cut.startFrame) is not after the cut before it (frame "
                                  + "\(cuts[index - 1].startFrame)); cuts are in time order")
            }
        }
        if let audioAngle, !angles.indices.contains(audioAngle) {
            throw ExportError("the sound comes from angle \(audioAngle), but there are \(angles.count) angles")
        }
        self.name = name
        self.rate = rate
        self.angles = angles
        self.cuts = cuts
        self.audioAngle = audioAngle ?? angles.firstIndex { $0.hasAudio }
        self.chapters = chapters.sorted { $0.startFrame < $1.startFrame }
        self.markers = markers.sorted { $0.frame < $1.frame }
    }

    /// The timeline's length: up to the end of the angle that ends last (and of the last chapter).
    public var durationFrames: Int64 {
        max(angles.map(\.endFrame).max() ?? 0, chapters.map(\.endFrame).max() ?? 0)
    }

    /// Each cut's frames `[start, end)`: a cut lasts until the next, the last until the timeline ends.
    public var cutRanges: [(cut: Cut, endFrame: Int64)] {
        cuts.enumerated().map { index, cut in
            (cut, index + 1 < cuts.count ? cuts[index + 1].startFrame : max(durationFrames, cut.startFrame + 1))
        }
    }

    /// The program's cut of one clip as a cut list over `angles` (lens roles, in angle order): a cut where each of
    /// its lens segments begins, on the movie's frame grid, leaving out a cut that shows the angle already showing.
    /// A segment whose lens is not an angle shows `otherLens` (the program movie itself, when the ISOs are of some
    /// lenses only), or is left out when that is `nil`. What one clip's lens ISOs (each on the program's timeline)
    /// are cut by; the first angle covers the clip's start when no segment does.
    public static func programCuts(of sidecar: Sidecar, angles: [String],
                                   otherLens: Int? = nil) throws(ExportError) -> [Cut] {
        guard let rate = FrameRate(sidecarFPS: sidecar.video.fps) else {
            throw ExportError("the sidecar's video fps (\(sidecar.video.fps)) is not a frame rate")
        }
        var cuts: [Cut] = []
        for segment in sidecar.scenes.flatMap(\.lenses) {
            guard let angle = angles.firstIndex(of: segment.lens) ?? otherLens else { continue }
            let frame = ExportTimeline.frame(atSeconds: segment.start, rate: rate)
            if let last = cuts.last {
                if last.angle == angle { continue }
                if last.startFrame >= frame {
                    cuts[cuts.count - 1].angle = angle
                    continue
                }
            }
            cuts.append(Cut(startFrame: frame, angle: angle))
        }
        if cuts.first.map({ $0.startFrame > 0 }) ?? true {
            cuts.insert(Cut(startFrame: 0, angle: 0), at: 0)
        }
        // Merging a replaced cut with the one before it can leave two equal neighbours.
        return cuts.enumerated().filter { $0.offset == 0 || cuts[$0.offset - 1].angle != $0.element.angle }
            .map(\.element)
    }
}
