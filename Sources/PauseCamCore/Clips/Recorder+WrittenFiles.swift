import Foundation

extension Recorder {
    /// Every file this clip writes while it records: the movie's `.partial`, each ISO's `.partial` and each voice's
    /// WAV. Their sizes together are what the clip has put on the disk (`DataRateMeter`).
    public var writtenFiles: [String] {
        [partialPath] + isos.map(\.sink.partialPath) + voiceWaves.map(\.sink.path)
    }
}
