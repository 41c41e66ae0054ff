import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PauseCamCore

/// The in-place finish alone, for the benchmark (only a module that imports `@_spi(Bench) PauseCamSystem` sees it):
/// finishes a fragmented `.partial` into `moviePath` with `chapters` and reports how long it took and what it added.
@_spi(Bench) public enum InPlaceFinishTiming {
    /// Wall-clock seconds of the finish, the bytes it appended and the finished movie's size.
    public static func finish(partialPath: String, moviePath: String, chapters: [Chapter]) throws
        -> (seconds: Double, appendedBytes: Int64, movieBytes: Int64) {
        var finisher = InPlaceMovieFinisher(partialPath: partialPath, moviePath: moviePath, container: .mov)
        finisher.edit.audioPrimingSamples = 1024
        finisher.edit.audioPacketSamples = 1024
        // A recording's pages reach the disk as it goes; the synthesised file's are flushed first, so the figure
        // is finishing's own work.
        if let file = try? FileDescriptor.open(partialPath, O_RDONLY | O_CLOEXEC) {
            try? file.synchronize()
            try? file.close()
        }
        let start = ContinuousClock.now
        let outcome = try finisher.finish(chapters: chapters)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (seconds, outcome.appendedBytes, outcome.movieBytes)
    }
}
