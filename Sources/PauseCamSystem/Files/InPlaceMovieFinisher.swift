import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PauseCamCore

/// Turns a finished fragmented `.partial` (mov/mp4) into the final movie without copying its media: the sample
/// tables are read from its `moof` boxes (`FragmentedMovieIndex`), edited as the copy would have edited the packets
/// (`MovieIndexEdit`), and a normal `moov` with the chapters (`MovieIndexWriter`) is appended; then one small write
/// makes the file a plain movie and `link()` gives it its final name (never over another file).
///
/// The order keeps every moment after a crash playable:
/// 1. append an `mdat` with the chapter titles (and the timecode track's sample), then the new `moov`, and `fsync`.
///    Readers take the first `moov` they meet, so until step 2 the file still plays as the fragmented movie it was; a torn append at the end is
///    what a crash while recording leaves too.
/// 2. overwrite the old `moov`'s 16-byte header with an `mdat` header that spans everything up to the new `moov`
///    (old `moov`, every `moof` and `mdat`, the chapters), and `fsync`. One write of one sector: before it the
///    file is the fragmented movie, after it a normal one whose index points into that big `mdat`. The old index
///    bytes stay inside it, unreferenced.
/// 3. `link()` the `.partial` to the movie's name and flush the folder; the caller then removes the `.partial`.
///
/// Extra disk: the new index and the chapter titles (a few hundred kB for an hour), nothing per media byte.
struct InPlaceMovieFinisher {
    var partialPath: String
    var moviePath: String
    var container: MovieSettings.Container
    var edit = MovieIndexEdit()
    /// The movie's timecode track (`tmcd`), written with the new index; its 4-byte sample goes into the appended
    /// `mdat` after the chapter titles. `nil`: no timecode track.
    var timecode: MovieIndexWriter.TimecodeTrack?
    /// Told at each step (`InPlaceFinishStep`), after which the file is playable: the program's injected crash
    /// or a test's view; `nil` in normal runs.
    var hooks: (any SystemHooks)?

    /// What finishing found: how many audio samples of the first audio track the cuts left out, and the bytes it
    /// appended.
    struct Outcome {
        var audioSamplesLeftOut: Int
        var appendedBytes: Int64
        var movieBytes: Int64
    }

    /// Reads and checks the `.partial`'s boxes; throws `FragmentedMovieIndex.IndexError` when it is not a complete
    /// fragmented movie (the caller then copies it instead), other errors for failed system calls.
    func finish(chapters: [Chapter]) throws -> Outcome {
        let file: FileDescriptor
        do { file = try FileDescriptor.open(partialPath, O_RDWR | O_CLOEXEC) } catch {
            throw FileWriteError("open", path: partialPath, errno: error)
        }
        defer { try? file.close() }
        var info = stat()
        guard fstat(file.rawValue, &info) == 0 else { throw FileWriteError("fstat", path: partialPath, errno: .current) }
        let fileSize = Int64(info.st_size)

        var boxes: [MovieBox] = []
        var position: Int64 = 0
        while position < fileSize {
            let header = try read(file, count: 16, at: position)
            guard let box = MovieBox.header(Data(header), at: position, limit: fileSize) else {
                throw FragmentedMovieIndex.IndexError("\(partialPath): a malformed box at byte \(position)")
            }
            boxes.append(box)
            position = box.end
        }
        guard let moovPosition = boxes.firstIndex(where: { $0.type == "moov" }),
              boxes[..<moovPosition].allSatisfy({ ["ftyp", "free", "skip", "wide"].contains($0.type) }),
              boxes[(moovPosition + 1)...].allSatisfy({ ["moof", "mdat", "free", "skip"].contains($0.type) }),
              boxes.contains(where: { $0.type == "moof" })
        else { throw FragmentedMovieIndex.IndexError("\(partialPath) is not a fragmented movie (\(boxes.prefix(4).map(\.type)))") }
        let oldMoov = boxes[moovPosition]
        guard oldMoov.size >= 16 else { throw FragmentedMovieIndex.IndexError("\(partialPath): the moov is too small") }
        var index = try FragmentedMovieIndex(moovBody: Data(try read(file, count: Int(oldMoov.size - oldMoov.headerSize),
                                                                      at: oldMoov.bodyOffset)))
        for box in boxes where box.type == "moof" {
            try index.addFragment(moofOffset: box.offset,
                                  body: Data(try read(file, count: Int(box.size - box.headerSize), at: box.bodyOffset)))
        }
        for track in index.tracks {
            if let last = track.samples.last, last.offset + Int64(last.size) > fileSize {
                throw FragmentedMovieIndex.IndexError("\(partialPath): track \(track.trackID)'s samples run past the end")
            }
        }
        let edited = edit.apply(to: index)
        guard edited.contains(where: { $0.track.handler == "vide" && !$0.samples.isEmpty }) else {
            throw FragmentedMovieIndex.IndexError("\(partialPath) holds no video sample")
        }
        let marks = chapters.map { chapter in
            MovieIndexWriter.ChapterMark(
                title: chapter.title,
                startMilliseconds: (try? chapter.start.rescaled(to: 1000, rounding: .nearest).value) ?? 0,
                endMilliseconds: (try? chapter.end.rescaled(to: 1000, rounding: .nearest).value) ?? 0)
        }

        var appended: Int64 = 0
        var end = fileSize
        var chapterOffset: Int64 = 0
        var timecodeOffset: Int64 = 0
        let moov: [UInt8]
        do {
            if !marks.isEmpty || timecode != nil {
                let chapterSamples = MovieIndexWriter.chapterSamples(marks)
                let box = MovieBox.encode("mdat", chapterSamples + (timecode?.sample ?? Data()))
                chapterOffset = end + 8
                timecodeOffset = chapterOffset + Int64(chapterSamples.count)
                try write(file, [UInt8](box), at: end)
                end += Int64(box.count)
                appended += Int64(box.count)
            }
            hooks?.didReachFinishStep(.chaptersAppended)
            moov = [UInt8](MovieIndexWriter(isMP4: container == .mp4)
                .moov(index: index, tracks: edited, chapters: marks, chapterOffset: chapterOffset,
                      timecode: timecode, timecodeOffset: timecodeOffset))
            // In two writes, so that a crash between them (a torn index) is a step of its own.
            let half = moov.count / 2
            try write(file, Array(moov[..<half]), at: end)
            hooks?.didReachFinishStep(.halfIndexWritten)
            try write(file, Array(moov[half...]), at: end + Int64(half))
            appended += Int64(moov.count)
            try synchronize(file)
            hooks?.didReachFinishStep(.indexAppended)
        } catch {
            // A failed append (a full disk) leaves the .partial as it was: still the fragmented movie.
            _ = ftruncate(file.rawValue, off_t(fileSize))
            throw error
        }

        // The switch: one header, written over the old moov's, that makes everything before the new moov one mdat.
        var header = BigEndianWriter()
        let span = end - oldMoov.offset
        header.uint32(1)
        header.fourCC("mdat")
        header.uint64(UInt64(span))
        try write(file, [UInt8](header.data), at: oldMoov.offset)
        try synchronize(file)
        hooks?.didReachFinishStep(.switched)

        if case .failure(let failure) = retryingOnInterrupt({ link(partialPath, moviePath) }) {
            throw FileWriteError("link", path: moviePath, errno: failure)
        }
        let folder = PathText.folder(of: moviePath)
        if let directory = try? FileSystemCalls.openDirectory(folder.isEmpty ? "." : folder) {
            try? FileSystemCalls.synchronize(directory, path: folder)
            try? directory.close()
        }
        hooks?.didReachFinishStep(.linked)
        // The sound the edits took out of the first audio track (every track loses the same packets): whole
        // packets at the cuts, and the packets past the picture's end, which hold less than a whole packet of
        // sound (the encoder's last one is short).
        let leftOut = edited.first { $0.track.handler == "soun" }.map { track in
            let encoded = track.track.samples.reduce(Int64(0)) { $0 + $1.duration }
            let removed = (encoded - track.mediaDuration) * Int64(edit.audioSampleRate) / Int64(track.track.timescale)
            return Int(max(0, removed))
        } ?? 0
        return Outcome(audioSamplesLeftOut: edit.discardedSpans.isEmpty ? 0 : leftOut, appendedBytes: appended,
                       movieBytes: end + Int64(moov.count))
    }

    private func read(_ file: FileDescriptor, count: Int, at offset: Int64) throws -> [UInt8] {
        do { return try file.read(count: count, at: offset) } catch { throw FileWriteError("pread", path: partialPath, errno: error) }
    }

    private func write(_ file: FileDescriptor, _ bytes: [UInt8], at offset: Int64) throws {
        do { try file.write(bytes, at: offset) } catch { throw FileWriteError("pwrite", path: partialPath, errno: error) }
    }

    private func synchronize(_ file: FileDescriptor) throws {
        try FileSystemCalls.synchronize(file, path: partialPath)
    }
}
