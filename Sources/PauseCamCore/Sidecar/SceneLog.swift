/// Collects what happened in a clip — lens segments, switches, held and slate stretches, and markers per scene — in
/// file time, as slots are appended. Scenes and pauses themselves come from the `Session`; the `Recorder` joins
/// both into the `Sidecar` value.
///
/// Every entry names its scene, and the log also keeps each scene's entries apart (`entries(ofScene:)`), so the
/// sidecar, rewritten at every scene boundary, reads one scene's entries without walking the whole clip's.
public struct SceneLog: Sendable {
    /// One stretch of one lens inside a scene.
    public struct LensSegment: Sendable, Equatable {
        public var scene: Int
        public var lens: String
        public var start: MediaTime
        public var end: MediaTime
        /// Slots that showed the picture of the slot before (the lens is slower than the output, or held).
        public var repeatedFrames = 0
        /// Frames of the lens offered in this segment that no kept slot showed (the lens is faster than the output).
        public var skippedFrames = 0
    }

    /// A marker (`mark TEXT`, or a bare `mark`) in a scene at a file time. Its number is its place among the clip's
    /// markers, from 1, whether named or not and whether `retake` threw it away later: `mark rename N` finds it by it.
    public struct Marker: Sendable, Equatable {
        public var scene: Int
        public var time: MediaTime
        public var text: String
        public var number: Int

        /// The name of a marker given without text: "Marker 3".
        public static func defaultName(number: Int) -> String { "Marker \(number)" }
    }

    /// Why `renameMarker` changed nothing.
    public enum MarkerRenameRefusal: Error, Sendable, Equatable {
        /// The clip has no marker of that number (it has `count`).
        case noSuchMarker(count: Int)
        /// `retake` threw the marker away with its take.
        case discarded
    }

    /// What the movie shows while no lens delivers: the last picture held, then the slate.
    public enum NoSignalKind: String, Sendable, Equatable, Codable {
        case hold
        case slate
    }

    /// A stretch of a scene with no lens delivering.
    public struct NoSignalSpan: Sendable, Equatable {
        public var scene: Int
        public var kind: NoSignalKind
        /// The lens whose picture was lost.
        public var lens: String
        public var start: MediaTime
        public var end: MediaTime
    }

    /// A lens switch: asked for at `requested`, first shown at `effective` (file times).
    public struct Switch: Sendable, Equatable {
        public var lens: String
        public var requested: MediaTime
        public var effective: MediaTime
        /// For a cut `follow` made: the voices speaking then (empty: nobody); `nil` for a switch someone asked for.
        public var followedVoices: [String]? = nil
    }

    public private(set) var lensSegments: [LensSegment] = []
    public private(set) var noSignal: [NoSignalSpan] = []
    public private(set) var switches: [Switch] = []
    public private(set) var markers: [Marker] = []
    public private(set) var warnings: [String] = []
    /// Where one scene's entries sit in `lensSegments`, `noSignal` and `markers`, in order.
    public struct SceneEntries: Sendable, Equatable {
        public var lensSegments: [Int] = []
        public var noSignal: [Int] = []
        public var markers: [Int] = []
    }

    private var entriesByScene: [Int: SceneEntries] = [:]
    /// A slate slot came since the last lens segment: the next frame of any lens starts a new segment.
    private var segmentBroken = false
    private let frameDuration: MediaTime

    public init(frameDuration: MediaTime) { self.frameDuration = frameDuration }

    /// A slot showing `lens` was appended at `fileTime` in scene `scene` (1-based); `repeated` when it shows the
    /// same picture as the slot before.
    public mutating func videoAppended(lens: String, scene: Int, fileTime: MediaTime, repeated: Bool = false) {
        let end = fileTime + frameDuration
        if !segmentBroken, var last = lensSegments.last, last.scene == scene, last.lens == lens {
            last.end = end
            if repeated { last.repeatedFrames += 1 }
            lensSegments[lensSegments.count - 1] = last
        } else {
            var segment = LensSegment(scene: scene, lens: lens, start: fileTime, end: end)
            if repeated { segment.repeatedFrames = 1 }
            entriesByScene[scene, default: SceneEntries()].lensSegments.append(lensSegments.count)
            lensSegments.append(segment)
        }
        segmentBroken = false
    }

    /// `count` frames of `lens` were passed over by the slots of scene `scene`: they count in its latest segment
    /// of that scene.
    public mutating func framesSkipped(lens: String, scene: Int, count: Int) {
        guard count > 0,
              let index = entriesByScene[scene]?.lensSegments.last(where: { lensSegments[$0].lens == lens }) else { return }
        lensSegments[index].skippedFrames += count
    }

    /// A slot of the given kind, for lost `lens`, at `fileTime` in scene `scene`. Held slots also belong to the
    /// lost lens's segment (its picture shows); slate slots belong to no lens.
    public mutating func noSignalAppended(_ kind: NoSignalKind, lens: String, scene: Int, fileTime: MediaTime) {
        let end = fileTime + frameDuration
        if kind == .slate { segmentBroken = true }
        if var last = noSignal.last, last.scene == scene, last.kind == kind, last.lens == lens, last.end == fileTime {
            last.end = end
            noSignal[noSignal.count - 1] = last
        } else {
            entriesByScene[scene, default: SceneEntries()].noSignal.append(noSignal.count)
            noSignal.append(NoSignalSpan(scene: scene, kind: kind, lens: lens, start: fileTime, end: end))
        }
    }

    /// A switch to `lens` asked for at file time `requested` first showed at `effective`; `followedVoices` when
    /// `follow` made it (the voices speaking).
    public mutating func switched(to lens: String, requested: MediaTime, effective: MediaTime,
                                  followedVoices: [String]? = nil) {
        switches.append(Switch(lens: lens, requested: min(requested, effective), effective: effective,
                               followedVoices: followedVoices))
    }

    /// Adds a marker named `text`, or "Marker N" (its number) when `text` is nil; returns it.
    @discardableResult
    public mutating func mark(_ text: String?, scene: Int, at time: MediaTime) -> Marker {
        let number = markers.count + 1
        entriesByScene[scene, default: SceneEntries()].markers.append(markers.count)
        let marker = Marker(scene: scene, time: time, text: text ?? Marker.defaultName(number: number), number: number)
        markers.append(marker)
        return marker
    }

    /// Names marker `number` (1-based, as `mark` numbered it) `text`; the renamed marker, or why not.
    public mutating func renameMarker(_ number: Int, to text: String) -> Result<Marker, MarkerRenameRefusal> {
        guard number >= 1, number <= markers.count else { return .failure(.noSuchMarker(count: markers.count)) }
        let index = number - 1
        guard entriesByScene[markers[index].scene]?.markers.contains(index) ?? false else {
            return .failure(.discarded)
        }
        markers[index].text = text
        return .success(markers[index])
    }

    /// `retake` threw the take of scene `scene` away: its lens segments, no-signal stretches and markers leave the
    /// scene, and so do the switches shown from `from` (the scene's start) on; the new take logs afresh.
    public mutating func discardTake(ofScene scene: Int, from: MediaTime) {
        entriesByScene[scene] = nil
        switches.removeAll { $0.effective >= from }
        segmentBroken = true
    }

    /// Where the entries of scene `scene` (1-based) sit, in the order they were logged.
    public func entries(ofScene scene: Int) -> SceneEntries { entriesByScene[scene] ?? SceneEntries() }

    /// Adds a warning (once: the same text twice is kept once).
    public mutating func warn(_ text: String) {
        if !warnings.contains(text) { warnings.append(text) }
    }
}
