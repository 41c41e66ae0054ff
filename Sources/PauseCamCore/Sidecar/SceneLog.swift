/// Collects what happened in a clip — lens segments and markers per scene — in file time, as frames are appended.
/// Scenes and pauses themselves come from the `Session`; `sidecar(...)` joins both into the `Sidecar` value.
public struct SceneLog: Sendable {
    /// One stretch of one lens inside a scene.
    public struct LensSegment: Sendable, Equatable {
        public var scene: Int
        public var lens: String
        public var start: MediaTime
        public var end: MediaTime
    }

    /// A marker (`mark TEXT`) in a scene at a file time.
    public struct Marker: Sendable, Equatable {
        public var scene: Int
        public var time: MediaTime
        public var text: String
    }

    public private(set) var lensSegments: [LensSegment] = []
    public private(set) var markers: [Marker] = []
    public private(set) var warnings: [String] = []
    private let frameDuration: MediaTime

    public init(frameDuration: MediaTime) { self.frameDuration = frameDuration }

    /// A frame of `lens` was appended at `fileTime` in scene `scene` (1-based).
    public mutating func videoAppended(lens: String, scene: Int, fileTime: MediaTime) {
        let end = fileTime + frameDuration
        if var last = lensSegments.last, last.scene == scene, last.lens == lens {
            last.end = end
            lensSegments[lensSegments.count - 1] = last
        } else {
            lensSegments.append(LensSegment(scene: scene, lens: lens, start: fileTime, end: end))
        }
    }

    /// Adds a marker.
    public mutating func mark(_ text: String, scene: Int, at time: MediaTime) {
        markers.append(Marker(scene: scene, time: time, text: text))
    }

    /// Adds a warning (once: the same text twice is kept once).
    public mutating func warn(_ text: String) {
        if !warnings.contains(text) { warnings.append(text) }
    }
}
