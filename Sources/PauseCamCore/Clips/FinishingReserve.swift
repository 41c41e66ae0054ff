import Foundation

/// How a movie's `.partial` becomes the final movie, which decides how much free space finishing needs.
public enum MovieFinishing: Sendable, Equatable {
    /// The media stays where it is and only a new index (`moov`, chapter titles) is appended: mov/mp4.
    case inPlace
    /// The media is written again into a new file (mkv, or mov/mp4 when finishing by a copy is asked for): the
    /// `.partial`'s size again, until the `.partial` is removed.
    case byCopy
}

/// The free space a recording clip keeps for finishing its movies — the program and every ISO — beyond what their
/// `.partial`s already hold. The health check stops a clip when less than `StoragePolicy.stopBelow` is left beyond
/// this, so a clip is stopped for the space its finish really needs: a copy's whole size for a movie finished by a
/// copy, only a bound on the new index for one finished in place (a few bytes per sample, well under 1 % of a
/// movie's size at any usable bitrate).
public struct FinishingReserve: Sendable, Equatable {
    /// One movie of the clip as it stands.
    public struct Movie: Sendable, Equatable {
        public var finishing: MovieFinishing
        /// The `.partial`'s size now.
        public var partialBytes: Int64
        /// Samples in the `.partial` now, video frames and audio packets together.
        public var samples: Int

        public init(finishing: MovieFinishing, partialBytes: Int64, samples: Int) {
            self.finishing = finishing
            self.partialBytes = partialBytes
            self.samples = samples
        }
    }

    /// The most index one sample costs (`MovieIndexWriter`'s tables when nothing repeats): `stsz` 4, `stts` 8,
    /// `ctts` 8, `stss` 4, and a chunk of its own, `stsc` 12 and `co64` 8.
    public static let indexBytesPerSample: Int64 = 44
    /// The most one chapter costs: its text sample (2 + title + 12), `stts` 8, `stsz` 4, `chpl` 9 + title.
    public static let indexBytesPerChapter: Int64 = 35
    /// The index's fixed part, with room to spare: the headers and sample descriptions copied from the fragmented
    /// `moov`, the chapter track's boxes, the `mdat` header that turns the old `moov` into media.
    public static let indexBytesFixed: Int64 = 16 << 10
    /// AAC's samples per packet: the audio packets a count of sample frames makes.
    public static let audioPacketSamples = 1024

    /// The clip's movies.
    public var movies: [Movie]
    /// The chapters each movie gets (the program's scenes) and their titles' UTF-8 bytes, all together.
    public var chapters: Int
    public var chapterTitleBytes: Int

    public init(movies: [Movie], chapters: Int = 0, chapterTitleBytes: Int = 0) {
        self.movies = movies
        self.chapters = chapters
        self.chapterTitleBytes = chapterTitleBytes
    }

    /// Samples in a movie of `videoFrames` frames and `audioSamples` sample frames of AAC (a packet begun counts).
    public static func samples(videoFrames: Int, audioSamples: Int) -> Int {
        videoFrames + (audioSamples + audioPacketSamples - 1) / audioPacketSamples
    }

    /// The most finishing `movie` adds to the disk while both it and its `.partial` exist.
    public func bytes(for movie: Movie) -> Int64 {
        switch movie.finishing {
        case .byCopy:
            return movie.partialBytes
        case .inPlace:
            return Self.indexBytesFixed + Int64(movie.samples) * Self.indexBytesPerSample
                + Int64(chapters) * Self.indexBytesPerChapter + 2 * Int64(chapterTitleBytes)
        }
    }

    /// What the clip keeps free for finishing. The movies are finished one after the other: an index appended in
    /// place stays, so those add up; a copy's `.partial` is removed once its movie is complete, so only the largest
    /// copy is needed at once.
    public var bytes: Int64 {
        let inPlace = movies.filter { $0.finishing == .inPlace }.reduce(0) { $0 + bytes(for: $1) }
        let largestCopy = movies.filter { $0.finishing == .byCopy }.map { bytes(for: $0) }.max() ?? 0
        return inPlace + largestCopy
    }
}
