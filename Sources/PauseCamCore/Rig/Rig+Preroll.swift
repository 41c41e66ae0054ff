/// `preroll:` — how far before a `record` or `resume` the movie begins, from the samples kept while idle or paused.
extension Rig {
    /// The rig's preroll: its length and the memory its ring may take (`PrerollRing`).
    public struct Preroll: Sendable, Equatable {
        /// How far before the press the scene begins (`preroll: 3s`, or `length:` in the mapping form).
        public var length: MediaTime
        /// The most the kept frames and sound may take, in bytes (`memory:`, default `defaultMemory`). Compressed
        /// frames are kept as the camera sent them and cost their own size; raw ones cost their whole picture.
        public var memoryBytes: Int

        /// The budget of a rig that states none: 3 s of a 1280×720 YUYV camera at 30 fps (about 160 MiB) fits
        /// with room for a second lens's ISO.
        public static let defaultMemory = 512 * 1024 * 1024

        public init(length: MediaTime, memoryBytes: Int = Preroll.defaultMemory) {
            self.length = length
            self.memoryBytes = memoryBytes
        }
    }
}
