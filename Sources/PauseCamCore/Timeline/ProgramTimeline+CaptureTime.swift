/// From a movie's time back to the instant it was captured: what the timecode and the sidecar's time of day need.
extension ProgramTimeline {
    /// The capture time of the frame at movie time `movieTime` (file time less the takes `retake` discarded, the
    /// spans of file time `discarded`, in order); `nil` when the program has kept no frame there yet. A movie time
    /// on a cut belongs to what follows it (a retake's new take, a resumed segment).
    public func captureTime(ofMovieTime movieTime: MediaTime, discarded: [Range<MediaTime>]) -> MediaTime? {
        var fileTime = movieTime
        for span in discarded where span.lowerBound <= fileTime {
            fileTime = fileTime + (span.upperBound - span.lowerBound)
        }
        // Segments are in file-time order: the last one starting at or before `fileTime`, by bisection (a sidecar
        // asks for every scene, and a clip of many pauses has as many segments).
        var low = 0, high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].start - segments[middle].offset <= fileTime { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let segment = segments[low - 1]
        guard fileTime + segment.offset < segment.keptThrough else { return nil }
        return fileTime + segment.offset
    }
}
