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
        guard let segment = segments.last(where: { $0.start - $0.offset <= fileTime }),
              fileTime + segment.offset < segment.keptThrough else { return nil }
        return fileTime + segment.offset
    }
}
