import Foundation

/// The sample tables of a fragmented movie (what `PartialMovieMuxer` writes: an empty `moov` with `mvex`, then
/// `moof`/`mdat` pairs), gathered from its boxes without touching the media bytes.
///
/// Each `moof` holds one `traf` per track: `tfhd` (track, defaults, `default-base-is-moof`), `tfdt` (the decode
/// time the fragment starts at) and `trun`s (per sample: duration, size, flags, composition offset, all optional
/// with defaults from `tfhd` and the `moov`'s `trex`). The result lists every sample where it lies in the file.
public struct FragmentedMovieIndex: Sendable {
    /// One sample (an encoded frame or audio packet) as the fragments describe it.
    public struct Sample: Sendable, Equatable {
        /// Absolute file offset of its bytes.
        public var offset: Int64
        public var size: UInt32
        /// Decode time, in the track's timescale.
        public var decodeTime: Int64
        public var duration: Int64
        /// Presentation time minus decode time.
        public var compositionOffset: Int64
        /// A keyframe (random access point).
        public var isSync: Bool

        public init(offset: Int64, size: UInt32, decodeTime: Int64, duration: Int64, compositionOffset: Int64,
                    isSync: Bool) {
            self.offset = offset
            self.size = size
            self.decodeTime = decodeTime
            self.duration = duration
            self.compositionOffset = compositionOffset
            self.isSync = isSync
        }

        /// Presentation time, in the track's timescale.
        public var presentationTime: Int64 { decodeTime + compositionOffset }
    }

    /// One track: its `trak` box from the `moov` (kept for its headers and sample description) and its samples.
    public struct Track: Sendable {
        public var trackID: UInt32
        /// The `hdlr` handler type: `vide`, `soun`…
        public var handler: String
        public var timescale: UInt32
        /// The whole `trak` box's body.
        public var trakBody: Data
        public var samples: [Sample] = []
    }

    /// Why a file cannot be indexed in place (the caller then copies it instead).
    public struct IndexError: Error, CustomStringConvertible, Sendable {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// The `moov` body's boxes, in order (the finished index keeps all but `mvex` and the tracks).
    public let movieBoxes: [(box: MovieBox, body: Data)]
    public var tracks: [Track]
    private var defaults: [UInt32: (descriptionIndex: UInt32, duration: UInt32, size: UInt32, flags: UInt32)]
    private var nextDecodeTime: [UInt32: Int64] = [:]

    /// Reads the `moov` body (`trak`s, `mvex`/`trex`).
    public init(moovBody: Data) throws(IndexError) {
        guard let boxes = MovieBox.children(of: moovBody) else { throw IndexError("the moov box's children are malformed") }
        movieBoxes = boxes
        tracks = []
        defaults = [:]
        for (box, body) in boxes {
            if box.type == "trak" {
                tracks.append(try Self.track(body))
            } else if box.type == "mvex" {
                for (child, trex) in MovieBox.children(of: body) ?? [] where child.type == "trex" {
                    var reader = BigEndianReader(trex)
                    guard reader.skip(4), let id = reader.uint32(), let index = reader.uint32(),
                          let duration = reader.uint32(), let size = reader.uint32(), let flags = reader.uint32()
                    else { throw IndexError("a trex box is too short") }
                    defaults[id] = (index, duration, size, flags)
                }
            }
        }
        guard !tracks.isEmpty else { throw IndexError("the moov box holds no track") }
        for track in tracks where defaults[track.trackID] == nil {
            throw IndexError("track \(track.trackID) has no trex box: the file is not fragmented")
        }
    }

    private static func track(_ body: Data) throws(IndexError) -> Track {
        guard let children = MovieBox.children(of: body),
              let tkhd = children.first(where: { $0.box.type == "tkhd" })?.body,
              let mdia = children.first(where: { $0.box.type == "mdia" }).flatMap({ MovieBox.children(of: $0.body) }),
              let mdhd = mdia.first(where: { $0.box.type == "mdhd" })?.body,
              let hdlr = mdia.first(where: { $0.box.type == "hdlr" })?.body
        else { throw IndexError("a trak box lacks tkhd, mdhd or hdlr") }
        var header = BigEndianReader(tkhd)
        guard let version = header.uint8(), header.skip(3 + (version == 1 ? 16 : 8)), let id = header.uint32()
        else { throw IndexError("a tkhd box is too short") }
        var media = BigEndianReader(mdhd)
        guard let mediaVersion = media.uint8(), media.skip(3 + (mediaVersion == 1 ? 16 : 8)),
              let timescale = media.uint32(), timescale > 0
        else { throw IndexError("track \(id)'s mdhd box is too short or has no timescale") }
        var handler = BigEndianReader(hdlr)
        guard handler.skip(8), let type = handler.fourCC() else { throw IndexError("track \(id)'s hdlr is too short") }
        return Track(trackID: id, handler: type, timescale: timescale, trakBody: body)
    }

    /// Adds the samples of one `moof` box (`body`, the box starting at `moofOffset` in the file).
    public mutating func addFragment(moofOffset: Int64, body: Data) throws(IndexError) {
        guard let children = MovieBox.children(of: body) else { throw IndexError("the moof at \(moofOffset) is malformed") }
        for (box, traf) in children where box.type == "traf" {
            try addTrackFragment(traf, moofOffset: moofOffset)
        }
    }

    private mutating func addTrackFragment(_ body: Data, moofOffset: Int64) throws(IndexError) {
        guard let children = MovieBox.children(of: body), let tfhd = children.first(where: { $0.box.type == "tfhd" })?.body
        else { throw IndexError("a traf at \(moofOffset) has no tfhd") }
        var header = BigEndianReader(tfhd)
        guard header.skip(1), let flagsHigh = header.uint8(), let flagsLow = header.uint16(), let id = header.uint32(),
              let trackIndex = tracks.firstIndex(where: { $0.trackID == id }), let trex = defaults[id]
        else { throw IndexError("a tfhd at \(moofOffset) names an unknown track") }
        let flags = UInt32(flagsHigh) << 16 | UInt32(flagsLow)
        var base = moofOffset
        if flags & 0x1 != 0 { guard let value = header.uint64() else { throw IndexError("tfhd too short") }; base = Int64(value) }
        if flags & 0x2 != 0 { _ = header.uint32() }
        var duration = trex.duration, size = trex.size, sampleFlags = trex.flags
        if flags & 0x8 != 0 { guard let value = header.uint32() else { throw IndexError("tfhd too short") }; duration = value }
        if flags & 0x10 != 0 { guard let value = header.uint32() else { throw IndexError("tfhd too short") }; size = value }
        if flags & 0x20 != 0 { guard let value = header.uint32() else { throw IndexError("tfhd too short") }; sampleFlags = value }
        var decodeTime = nextDecodeTime[id] ?? 0
        if let tfdt = children.first(where: { $0.box.type == "tfdt" })?.body {
            var reader = BigEndianReader(tfdt)
            guard let version = reader.uint8(), reader.skip(3),
                  let value = version == 1 ? reader.uint64() : reader.uint32().map(UInt64.init)
            else { throw IndexError("a tfdt at \(moofOffset) is too short") }
            decodeTime = Int64(bitPattern: value)
        }
        var dataOffset = base
        for (box, trun) in children where box.type == "trun" {
            var reader = BigEndianReader(trun)
            guard let version = reader.uint8(), let high = reader.uint8(), let low = reader.uint16(),
                  let count = reader.uint32()
            else { throw IndexError("a trun at \(moofOffset) is too short") }
            let runFlags = UInt32(high) << 16 | UInt32(low)
            if runFlags & 0x1 != 0 {
                guard let value = reader.uint32() else { throw IndexError("a trun at \(moofOffset) is too short") }
                dataOffset = base + Int64(Int32(bitPattern: value))
            }
            var firstFlags: UInt32?
            if runFlags & 0x4 != 0 { firstFlags = reader.uint32() }
            for number in 0..<Int(count) {
                var sampleDuration = duration, sampleSize = size, flagsHere = sampleFlags, composition: Int64 = 0
                if runFlags & 0x100 != 0 { guard let v = reader.uint32() else { throw IndexError("trun too short") }; sampleDuration = v }
                if runFlags & 0x200 != 0 { guard let v = reader.uint32() else { throw IndexError("trun too short") }; sampleSize = v }
                if runFlags & 0x400 != 0 { guard let v = reader.uint32() else { throw IndexError("trun too short") }; flagsHere = v }
                if number == 0, let firstFlags { flagsHere = firstFlags }
                if runFlags & 0x800 != 0 {
                    guard let v = reader.uint32() else { throw IndexError("trun too short") }
                    composition = version == 0 ? Int64(v) : Int64(Int32(bitPattern: v))
                }
                // sample_is_non_sync_sample is bit 16 of the sample flags.
                tracks[trackIndex].samples.append(Sample(
                    offset: dataOffset, size: sampleSize, decodeTime: decodeTime, duration: Int64(sampleDuration),
                    compositionOffset: composition, isSync: flagsHere & 0x10000 == 0))
                dataOffset += Int64(sampleSize)
                decodeTime += Int64(sampleDuration)
            }
        }
        nextDecodeTime[id] = decodeTime
    }
}
