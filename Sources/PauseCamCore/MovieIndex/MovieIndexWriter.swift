import Foundation

/// Writes the normal (non-fragmented) `moov` of a movie whose media already lies in the file: the movie and track
/// headers copied from the fragmented `moov` with their durations set, an edit list per track, the sample tables
/// (`stts`, `ctts`, `stss`, `stsz`, `stsc`, `co64`/`stco`; `stsd` copied), and the chapters as FFmpeg's mov muxer
/// writes them: a QuickTime chapter text track (`tref chap` from every track) and a Nero `chpl` list in `udta`.
///
/// The chapter track's samples are bytes the caller places in the file (`chapterSamples`), at `chapterOffset`.
public struct MovieIndexWriter: Sendable {
    /// One chapter, in milliseconds (the chapter track's timescale, as FFmpeg rounds them).
    public struct ChapterMark: Sendable, Equatable {
        public var title: String
        public var startMilliseconds: Int64
        public var endMilliseconds: Int64

        public init(title: String, startMilliseconds: Int64, endMilliseconds: Int64) {
            self.title = title
            self.startMilliseconds = startMilliseconds
            self.endMilliseconds = max(startMilliseconds, endMilliseconds)
        }

        /// A QuickTime text sample: the title's length, its UTF-8 bytes, and an `encd` box saying UTF-8.
        var textSample: Data {
            var writer = BigEndianWriter()
            let bytes = Array(title.utf8.prefix(Int(UInt16.max) - 12))
            writer.uint16(UInt16(bytes.count))
            writer.append(Data(bytes))
            writer.box("encd") { $0.uint32(0x0000_0100) }
            return writer.data
        }
    }

    /// The movie timescale of `mvhd` (edit lists and track durations count in it).
    public let movieTimescale: Int64
    /// `true` for `.mp4` (the chapter track's handler and text sample entry differ from QuickTime's).
    public let isMP4: Bool

    public init(movieTimescale: Int64 = 1000, isMP4: Bool) {
        self.movieTimescale = movieTimescale
        self.isMP4 = isMP4
    }

    /// The chapter track's sample bytes, one after the other, to be written at `chapterOffset`.
    public static func chapterSamples(_ chapters: [ChapterMark]) -> Data {
        chapters.reduce(into: Data()) { $0.append($1.textSample) }
    }

    /// The whole `moov` box.
    /// `timecode`, when given, adds a timecode track (`tmcd`) referenced by the first video track, its one sample
    /// at `timecodeOffset` (`TimecodeTrack.sample`).
    public func moov(index: FragmentedMovieIndex, tracks: [MovieIndexEdit.EditedTrack], chapters: [ChapterMark],
                     chapterOffset: Int64, timecode: TimecodeTrack? = nil, timecodeOffset: Int64 = 0) -> Data {
        let chapterTrackID = (index.tracks.map(\.trackID).max() ?? 0) + 1
        let timecodeTrackID = chapterTrackID + (chapters.isEmpty ? 0 : 1)
        let timecodeSource = timecode == nil ? nil : tracks.first { $0.track.handler == "vide" && !$0.samples.isEmpty }
        // As FFmpeg: a track lasts from presentation time 0 (or its empty edit) to its latest end, rounded up.
        let durations = tracks.map { track in
            editList(track).reduce(0) { $0 + ($1.mediaTime < 0 ? $1.duration : 0) } + presentationSpan(track, fromZero: true)
        }
        let chapterDuration = chapters.last.map { $0.endMilliseconds } ?? 0
        let movieDuration = max(durations.max() ?? 0, chapters.isEmpty ? 0 : Self.rescaleUp(chapterDuration, 1000, movieTimescale))
        var writer = BigEndianWriter()
        writer.box("moov") { moov in
            for (box, body) in index.movieBoxes {
                switch box.type {
                case "mvhd":
                    let nextTrackID = timecodeTrackID + (timecodeSource == nil ? 0 : 1)
                    moov.box("mvhd") {
                        $0.append(patchedMovieHeader(body, duration: movieDuration, nextTrackID: nextTrackID))
                    }
                case "trak":
                    if let position = index.tracks.firstIndex(where: { $0.trakBody == body }),
                       let edited = tracks.first(where: { $0.track.trackID == index.tracks[position].trackID }) {
                        let duration = durations[tracks.firstIndex { $0.track.trackID == edited.track.trackID }!]
                        let referencesTimecode = timecodeSource?.track.trackID == edited.track.trackID
                        moov.box("trak") { trak(&$0, edited, duration: duration,
                                                chapterTrack: chapters.isEmpty ? nil : chapterTrackID,
                                                timecodeTrack: referencesTimecode ? timecodeTrackID : nil) }
                    }
                case "mvex":
                    continue
                case "udta":
                    moov.box("udta") { udta in
                        udta.append(body)
                        if !chapters.isEmpty { chapterList(&udta, chapters) }
                    }
                default:
                    moov.box(box.type) { $0.append(body) }
                }
            }
            if !chapters.isEmpty {
                moov.box("trak") { chapterTrak(&$0, chapters, id: chapterTrackID, offset: chapterOffset) }
                if !index.movieBoxes.contains(where: { $0.box.type == "udta" }) {
                    moov.box("udta") { chapterList(&$0, chapters) }
                }
            }
            if let timecode, let source = timecodeSource,
               let position = tracks.firstIndex(where: { $0.track.trackID == source.track.trackID }) {
                moov.box("trak") {
                    timecodeTrak(&$0, timecode, id: timecodeTrackID, source: source, duration: durations[position],
                                 offset: timecodeOffset)
                }
            }
        }
        return writer.data
    }

    // MARK: - Tracks

    private func trak(_ writer: inout BigEndianWriter, _ edited: MovieIndexEdit.EditedTrack, duration: Int64,
                      chapterTrack: UInt32?, timecodeTrack: UInt32?) {
        let children = MovieBox.children(of: edited.track.trakBody) ?? []
        for (box, body) in children {
            switch box.type {
            case "tkhd":
                writer.box("tkhd") { $0.append(patchedTrackHeader(body, duration: duration)) }
                writer.box("edts") { edts in
                    edts.box("elst") { elst in
                        let entries = editList(edited).map { ($0.duration, $0.mediaTime) }
                        let wide = entries.contains { $0.0 > Int64(UInt32.max) || $0.1 > Int64(Int32.max) }
                        elst.uint32(wide ? 0x0100_0000 : 0)
                        elst.uint32(UInt32(entries.count))
                        for (length, start) in entries {
                            if wide { elst.int64(length); elst.int64(start) } else { elst.uint32(UInt32(length)); elst.int32(Int32(start)) }
                            elst.uint32(0x0001_0000)
                        }
                    }
                }
                if chapterTrack != nil || timecodeTrack != nil {
                    writer.box("tref") { tref in
                        if let chapterTrack { tref.box("chap") { $0.uint32(chapterTrack) } }
                        if let timecodeTrack { tref.box("tmcd") { $0.uint32(timecodeTrack) } }
                    }
                }
            case "edts", "tref":
                continue
            case "mdia":
                writer.box("mdia") { mdia in
                    for (child, content) in MovieBox.children(of: body) ?? [] {
                        switch child.type {
                        case "mdhd": mdia.box("mdhd") { mediaHeader(&$0, content, duration: edited.mediaDuration) }
                        case "minf":
                            mdia.box("minf") { minf in
                                for (part, data) in MovieBox.children(of: content) ?? [] {
                                    if part.type == "stbl" {
                                        minf.box("stbl") { sampleTable(&$0, data, edited.samples) }
                                    } else {
                                        minf.box(part.type) { $0.append(data) }
                                    }
                                }
                            }
                        default: mdia.box(child.type) { $0.append(content) }
                        }
                    }
                }
            default:
                writer.box(box.type) { $0.append(body) }
            }
        }
    }

    private func sampleTable(_ writer: inout BigEndianWriter, _ old: Data, _ samples: [FragmentedMovieIndex.Sample]) {
        if let stsd = (MovieBox.children(of: old) ?? []).first(where: { $0.box.type == "stsd" }) {
            writer.box("stsd") { $0.append(stsd.body) }
        }
        writer.box("stts") { stts in
            let runs = Self.runs(samples.map(\.duration))
            stts.uint32(0)
            stts.uint32(UInt32(runs.count))
            for run in runs { stts.uint32(UInt32(run.count)); stts.uint32(UInt32(clamping: run.value)) }
        }
        if !samples.allSatisfy(\.isSync) {
            writer.box("stss") { stss in
                let numbers = samples.indices.filter { samples[$0].isSync }
                stss.uint32(0)
                stss.uint32(UInt32(numbers.count))
                for number in numbers { stss.uint32(UInt32(number + 1)) }
            }
        }
        if samples.contains(where: { $0.compositionOffset != 0 }) {
            writer.box("ctts") { ctts in
                let runs = Self.runs(samples.map(\.compositionOffset))
                let signed = runs.contains { $0.value < 0 }
                ctts.uint32(signed ? 0x0100_0000 : 0)
                ctts.uint32(UInt32(runs.count))
                for run in runs { ctts.uint32(UInt32(run.count)); ctts.int32(Int32(clamping: run.value)) }
            }
        }
        // Chunks: runs of samples that lie back to back in the file.
        var chunkOffsets: [Int64] = []
        var chunkSizes: [Int] = []
        var end: Int64 = -1
        for sample in samples {
            if sample.offset == end, !chunkSizes.isEmpty {
                chunkSizes[chunkSizes.count - 1] += 1
            } else {
                chunkOffsets.append(sample.offset)
                chunkSizes.append(1)
            }
            end = sample.offset + Int64(sample.size)
        }
        writer.box("stsc") { stsc in
            var entries: [(first: Int, count: Int)] = []
            for (number, count) in chunkSizes.enumerated() where entries.last?.count != count {
                entries.append((number + 1, count))
            }
            stsc.uint32(0)
            stsc.uint32(UInt32(entries.count))
            for entry in entries { stsc.uint32(UInt32(entry.first)); stsc.uint32(UInt32(entry.count)); stsc.uint32(1) }
        }
        writer.box("stsz") { stsz in
            stsz.uint32(0)
            let first = samples.first?.size ?? 0
            if samples.allSatisfy({ $0.size == first }) && !samples.isEmpty {
                stsz.uint32(first)
                stsz.uint32(UInt32(samples.count))
            } else {
                stsz.uint32(0)
                stsz.uint32(UInt32(samples.count))
                for sample in samples { stsz.uint32(sample.size) }
            }
        }
        chunkOffsetBox(&writer, chunkOffsets)
    }

    private func chunkOffsetBox(_ writer: inout BigEndianWriter, _ offsets: [Int64]) {
        if offsets.contains(where: { $0 > Int64(UInt32.max) }) {
            writer.box("co64") { co64 in
                co64.uint32(0)
                co64.uint32(UInt32(offsets.count))
                for offset in offsets { co64.uint64(UInt64(offset)) }
            }
        } else {
            writer.box("stco") { stco in
                stco.uint32(0)
                stco.uint32(UInt32(offsets.count))
                for offset in offsets { stco.uint32(UInt32(offset)) }
            }
        }
    }

    /// The track's edit list in the movie timescale, rounded as FFmpeg's mov muxer rounds it: the presentation
    /// span rounded up, less the part before 0 rounded down (audio priming), after an empty edit when the first
    /// sample starts after 0.
    private func editList(_ edited: MovieIndexEdit.EditedTrack) -> [(duration: Int64, mediaTime: Int64)] {
        guard let first = edited.samples.first else { return [] }
        let timescale = Int64(edited.track.timescale)
        let delay = Self.rescaleDown(first.decodeTime + first.compositionOffset, timescale, movieTimescale)
        let span = presentationSpan(edited)
        let mediaTime = -min(first.decodeTime, 0)
        if delay > 0 { return [(delay, -1), (span, mediaTime)] }
        return [(span + delay, mediaTime)]
    }

    /// From the earliest presentation time to the latest end, in the movie timescale (rounded up).
    private func presentationSpan(_ edited: MovieIndexEdit.EditedTrack, fromZero: Bool = false) -> Int64 {
        let earliest = edited.samples.map(\.presentationTime).min() ?? 0
        let start = fromZero ? max(0, earliest) : earliest
        let end = edited.samples.map { $0.presentationTime + $0.duration }.max() ?? 0
        return Self.rescaleUp(end - start, Int64(edited.track.timescale), movieTimescale)
    }

    // MARK: - Headers

    /// `mvhd` with the movie's duration and the next free track ID.
    private func patchedMovieHeader(_ body: Data, duration: Int64, nextTrackID: UInt32) -> Data {
        var bytes = [UInt8](body)
        let wide = bytes.first == 1
        Self.put(duration, into: &bytes, at: wide ? 24 : 16, width: wide ? 8 : 4)
        Self.put(Int64(nextTrackID), into: &bytes, at: bytes.count - 4, width: 4)
        return Data(bytes)
    }

    /// `tkhd` with the track's duration (in the movie timescale).
    private func patchedTrackHeader(_ body: Data, duration: Int64) -> Data {
        var bytes = [UInt8](body)
        let wide = bytes.first == 1
        Self.put(duration, into: &bytes, at: wide ? 28 : 20, width: wide ? 8 : 4)
        return Data(bytes)
    }

    /// `mdhd` with the media duration (64-bit when it does not fit 32), timescale and language kept.
    private func mediaHeader(_ writer: inout BigEndianWriter, _ old: Data, duration: Int64) {
        var reader = BigEndianReader(old)
        let version = reader.uint8() ?? 0
        _ = reader.skip(3 + (version == 1 ? 16 : 8))
        let timescale = reader.uint32() ?? 1
        _ = reader.skip(version == 1 ? 8 : 4)
        let language = reader.uint16() ?? 0
        let quality = reader.uint16() ?? 0
        if duration > Int64(UInt32.max) {
            writer.uint32(0x0100_0000); writer.uint64(0); writer.uint64(0); writer.uint32(timescale); writer.int64(duration)
        } else {
            writer.uint32(0); writer.uint32(0); writer.uint32(0); writer.uint32(timescale); writer.uint32(UInt32(duration))
        }
        writer.uint16(language)
        writer.uint16(quality)
    }

    // MARK: - Chapters

    /// The Nero chapter list (`chpl`): start times in 100 ns units, titles of at most 255 bytes, 255 chapters.
    private func chapterList(_ writer: inout BigEndianWriter, _ chapters: [ChapterMark]) {
        writer.box("chpl") { chpl in
            chpl.uint32(0x0100_0000)
            chpl.uint32(0)
            let kept = chapters.prefix(255)
            chpl.uint8(UInt8(kept.count))
            for chapter in kept {
                chpl.int64(chapter.startMilliseconds * 10_000)
                let title = Array(chapter.title.utf8.prefix(255))
                chpl.uint8(UInt8(title.count))
                chpl.append(Data(title))
            }
        }
    }

    /// The QuickTime chapter track: a disabled text track in milliseconds, one sample per chapter, in one chunk.
    private func chapterTrak(_ writer: inout BigEndianWriter, _ chapters: [ChapterMark], id: UInt32, offset: Int64) {
        let lead = chapters.first?.startMilliseconds ?? 0
        var durations = zip(chapters, chapters.dropFirst()).map { $1.startMilliseconds - $0.startMilliseconds }
        if let last = chapters.last { durations.append(last.endMilliseconds - last.startMilliseconds) }
        let mediaDuration = durations.reduce(0, +)
        let trackDuration = Self.rescaleUp(lead + mediaDuration, 1000, movieTimescale)
        disabledTrackHeader(&writer, id: id, duration: trackDuration)
        writer.box("edts") { edts in
            edts.box("elst") { elst in
                elst.uint32(0)
                elst.uint32(lead > 0 ? 2 : 1)
                if lead > 0 { elst.uint32(UInt32(clamping: Self.rescaleUp(lead, 1000, movieTimescale))); elst.int32(-1); elst.uint32(0x0001_0000) }
                elst.uint32(UInt32(clamping: Self.rescaleUp(mediaDuration, 1000, movieTimescale))); elst.int32(0); elst.uint32(0x0001_0000)
            }
        }
        writer.box("mdia") { mdia in
            mdia.box("mdhd") { $0.uint32(0); $0.uint32(0); $0.uint32(0); $0.uint32(1000); $0.uint32(UInt32(clamping: mediaDuration)); $0.uint32(0) }
            mediaHandler(&mdia, type: "text", name: "SubtitleHandler")
            mdia.box("minf") { minf in
                minf.box("gmhd") { genericMediaHeader(&$0) }
                dataReference(&minf)
                minf.box("stbl") { stbl in
                    stbl.box("stsd") { stsd in
                        stsd.uint32(0); stsd.uint32(1)
                        stsd.box("text") { text in
                            // QuickTime text sample description (data reference 1, display flags, colours, the
                            // default text box, an 'ftab' with one font), byte for byte as FFmpeg writes it.
                            text.append(Self.textSampleEntryBody)
                            if isMP4 { text.box("btrt") { $0.uint32(0); $0.uint32(0x70); $0.uint32(0x70) } }
                        }
                    }
                    stbl.box("stts") { stts in
                        let runs = Self.runs(durations)
                        stts.uint32(0); stts.uint32(UInt32(runs.count))
                        for run in runs { stts.uint32(UInt32(run.count)); stts.uint32(UInt32(clamping: run.value)) }
                    }
                    stbl.box("stsc") { $0.uint32(0); $0.uint32(1); $0.uint32(1); $0.uint32(UInt32(chapters.count)); $0.uint32(1) }
                    stbl.box("stsz") { stsz in
                        stsz.uint32(0); stsz.uint32(0); stsz.uint32(UInt32(chapters.count))
                        for chapter in chapters { stsz.uint32(UInt32(chapter.textSample.count)) }
                    }
                    chunkOffsetBox(&stbl, [offset])
                }
            }
        }
    }

    /// The body of a `gmhd` as FFmpeg writes it for its chapter and timecode tracks: `gmin` and the `text` atom
    /// QuickTime needs for chapters (FFmpeg copies these bytes verbatim too), then whatever `more` adds.
    func genericMediaHeader(_ gmhd: inout BigEndianWriter, more: (inout BigEndianWriter) -> Void = { _ in }) {
        gmhd.box("gmin") { gmin in
            gmin.uint32(0); gmin.uint16(0x40); gmin.uint16(0x8000); gmin.uint16(0x8000); gmin.uint16(0x8000)
            gmin.uint16(0); gmin.uint16(0)
        }
        gmhd.box("text") { text in
            text.uint16(1)
            for value: UInt32 in [0, 0, 0, 1, 0, 0, 0, 0x0000_4000] { text.uint32(value) }
            text.uint16(0)
        }
        more(&gmhd)
    }

    /// A media's `hdlr`: its handler `type` and `name`, as QuickTime (a Pascal string after `mhlr`) or MP4 (a C
    /// string) writes it.
    func mediaHandler(_ mdia: inout BigEndianWriter, type: String, name: String) {
        mdia.box("hdlr") { hdlr in
            hdlr.uint32(0)
            let bytes = Array(name.utf8.prefix(255))
            if isMP4 {
                hdlr.uint32(0); hdlr.fourCC(type); hdlr.uint32(0); hdlr.uint32(0); hdlr.uint32(0)
                hdlr.append(Data(bytes)); hdlr.uint8(0)
            } else {
                hdlr.fourCC("mhlr"); hdlr.fourCC(type); hdlr.uint32(0); hdlr.uint32(0); hdlr.uint32(0)
                hdlr.uint8(UInt8(bytes.count)); hdlr.append(Data(bytes))
            }
        }
    }

    /// A `tkhd` of a track in the movie but not enabled (chapters, timecode), as FFmpeg writes it.
    func disabledTrackHeader(_ writer: inout BigEndianWriter, id: UInt32, duration: Int64) {
        writer.box("tkhd") { tkhd in
            tkhd.uint32(0x0000_0002)  // version 0, in the movie but not enabled
            tkhd.uint32(0); tkhd.uint32(0)
            tkhd.uint32(id); tkhd.uint32(0)
            tkhd.uint32(UInt32(clamping: duration))
            tkhd.uint64(0); tkhd.uint16(0); tkhd.uint16(0); tkhd.uint16(0); tkhd.uint16(0)
            for value: UInt32 in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { tkhd.uint32(value) }
            tkhd.uint32(0); tkhd.uint32(0)
        }
    }

    /// A media's data handler (QuickTime only) and its one data reference: the media is in this file.
    func dataReference(_ minf: inout BigEndianWriter) {
        if !isMP4 {
            minf.box("hdlr") { hdlr in
                hdlr.uint32(0); hdlr.fourCC("dhlr"); hdlr.fourCC("url "); hdlr.uint32(0); hdlr.uint32(0); hdlr.uint32(0)
                hdlr.uint8(11); hdlr.append(Data("DataHandler".utf8))
            }
        }
        minf.box("dinf") { dinf in
            dinf.box("dref") { dref in
                dref.uint32(0); dref.uint32(1)
                dref.box("url ") { $0.uint32(1) }
            }
        }
    }

    private static let textSampleEntryBody = Data(
        hexadecimal: "00000000000000010000000100000000000000000000000000000000000000010000000000000000000d667461620001000100")

    // MARK: - Arithmetic

    private static func runs(_ values: [Int64]) -> [(count: Int, value: Int64)] {
        var runs: [(count: Int, value: Int64)] = []
        for value in values {
            if runs.last?.value == value { runs[runs.count - 1].count += 1 } else { runs.append((1, value)) }
        }
        return runs
    }

    private static func put(_ value: Int64, into bytes: inout [UInt8], at offset: Int, width: Int) {
        guard offset >= 0, offset + width <= bytes.count else { return }
        for index in 0..<width { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> Int64(8 * (width - 1 - index))) }
    }

    /// `value · to / from`, rounded down.
    static func rescaleDown(_ value: Int64, _ from: Int64, _ to: Int64) -> Int64 {
        guard from != to, from > 0 else { return value }
        let (quotient, remainder) = from.dividingFullWidth(value.multipliedFullWidth(by: to))
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// `value · to / from`, rounded up (as FFmpeg rounds edit durations).
    static func rescaleUp(_ value: Int64, _ from: Int64, _ to: Int64) -> Int64 {
        guard from != to, from > 0 else { return value }
        let (quotient, remainder) = from.dividingFullWidth(value.multipliedFullWidth(by: to))
        return remainder > 0 ? quotient + 1 : quotient
    }
}

extension Data {
    /// Bytes from a hexadecimal literal (the fixed sample entries of `MovieIndexWriter`).
    init(hexadecimal: String) {
        var bytes: [UInt8] = []
        var digits = hexadecimal.utf8.makeIterator()
        while let high = digits.next(), let low = digits.next() {
            func value(_ digit: UInt8) -> UInt8 { digit <= 57 ? digit - 48 : (digit | 0x20) - 87 }
            bytes.append(value(high) << 4 | value(low))
        }
        self.init(bytes)
    }
}
