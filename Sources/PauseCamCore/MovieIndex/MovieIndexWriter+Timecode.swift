import Foundation

/// The QuickTime timecode track (`tmcd`) of a finished movie, as FFmpeg's mov muxer writes one from a `timecode`
/// entry: a disabled track on the video track's timescale whose one sample, lasting the whole video, holds the
/// first frame's label as a frame count; its sample entry says the rate (timescale / frame duration), the labels a
/// second and whether they drop frames. The video track refers to it (`tref tmcd`), which is how readers (ffprobe's
/// `timecode` tag, Resolve, Premiere, Final Cut) find the movie's start timecode.
///
/// The in-place finish writes it because the fragmented `.partial` cannot: its header is written when the
/// encoders open, before the first frame's time of day is known.
extension MovieIndexWriter {
    /// What the timecode track says.
    public struct TimecodeTrack: Sendable, Equatable {
        /// The first frame's label as a `Timecode` frame count.
        public var startFrame: Int64
        /// The movie's frame rate.
        public var rate: FrameRate

        public init(startFrame: Int64, rate: FrameRate) {
            self.startFrame = startFrame
            self.rate = rate
        }

        /// The track's one sample: the start frame, 32-bit big-endian.
        public var sample: Data {
            var writer = BigEndianWriter()
            writer.uint32(UInt32(clamping: startFrame))
            return writer.data
        }

        /// The `tmcd` sample entry's flags: 0x1 drop-frame, 0x2 wraps at 24 hours (as `Timecode` does).
        var flags: UInt32 { Timecode(rate: rate).isDropFrame ? 0x3 : 0x2 }
    }

    /// The timecode `trak` body: on `source`'s timescale, lasting `duration` (movie timescale) like it, its sample
    /// at `offset`.
    func timecodeTrak(_ writer: inout BigEndianWriter, _ timecode: TimecodeTrack, id: UInt32,
                      source: MovieIndexEdit.EditedTrack, duration: Int64, offset: Int64) {
        let timescale = source.track.timescale
        let mediaDuration = max(0, source.mediaDuration)
        let frameDuration = Self.rescaleDown(Int64(timecode.rate.denominator), Int64(timecode.rate.numerator),
                                             Int64(timescale))
        disabledTrackHeader(&writer, id: id, duration: duration)
        writer.box("edts") { edts in
            edts.box("elst") { elst in
                elst.uint32(0); elst.uint32(1)
                elst.uint32(UInt32(clamping: duration)); elst.int32(0); elst.uint32(0x0001_0000)
            }
        }
        writer.box("mdia") { mdia in
            mdia.box("mdhd") { mdhd in
                mdhd.uint32(0); mdhd.uint32(0); mdhd.uint32(0); mdhd.uint32(timescale)
                mdhd.uint32(UInt32(clamping: mediaDuration)); mdhd.uint32(0)
            }
            mediaHandler(&mdia, type: "tmcd", name: "TimeCodeHandler")
            mdia.box("minf") { minf in
                minf.box("gmhd") { gmhd in
                    genericMediaHeader(&gmhd) { more in
                        // The timecode media information: how a player draws the label (12-point text, black on
                        // white, Lucida Grande), byte for byte as FFmpeg writes it.
                        more.box("tmcd") { $0.box("tcmi") { $0.append(Self.timecodeMediaInformation) } }
                    }
                }
                dataReference(&minf)
                minf.box("stbl") { stbl in
                    stbl.box("stsd") { stsd in
                        stsd.uint32(0); stsd.uint32(1)
                        stsd.box("tmcd") { entry in
                            entry.uint32(0); entry.uint32(1)  // reserved, data reference 1
                            entry.uint32(0)
                            entry.uint32(timecode.flags)
                            entry.uint32(timescale)
                            entry.uint32(UInt32(clamping: frameDuration))
                            entry.uint8(UInt8(clamping: Timecode(rate: timecode.rate).nominalFramesPerSecond))
                            entry.uint8(0)
                            entry.uint16(0)  // no source reference (reel name)
                        }
                    }
                    stbl.box("stts") { stts in
                        stts.uint32(0); stts.uint32(1); stts.uint32(1); stts.uint32(UInt32(clamping: mediaDuration))
                    }
                    stbl.box("stsc") { $0.uint32(0); $0.uint32(1); $0.uint32(1); $0.uint32(1); $0.uint32(1) }
                    stbl.box("stsz") { $0.uint32(0); $0.uint32(4); $0.uint32(1) }
                    if offset > Int64(UInt32.max) {
                        stbl.box("co64") { $0.uint32(0); $0.uint32(1); $0.uint64(UInt64(offset)) }
                    } else {
                        stbl.box("stco") { $0.uint32(0); $0.uint32(1); $0.uint32(UInt32(offset)) }
                    }
                }
            }
        }
    }

    private static let timecodeMediaInformation = Data(
        hexadecimal: "0000000000000000000c0000000000000000ffffffffffff0d4c7563696461204772616e6465")
}
