import Foundation
import XCTest
@testable import PauseCamCore

/// The in-place finish's edits on sample tables laid out as the fragmented `.partial` holds them.
final class MovieIndexEditTests: XCTestCase {
    /// A fragmented movie's index with a video track (30 fps at FFmpeg's 15360 timescale) and `audioTracks` AAC
    /// tracks with the same packets (48 kHz, the priming pulled to 0 as the fragments store it).
    private func index(videoFrames: Int, audioPacketDurations: [Int64], audioTracks: Int = 1) throws
        -> FragmentedMovieIndex {
        var moov = BigEndianWriter()
        let ids = (1...UInt32(1 + audioTracks)).map { $0 }
        for id in ids {
            let (handler, timescale) = id == 1 ? ("vide", UInt32(15360)) : ("soun", UInt32(48_000))
            moov.box("trak") { trak in
                trak.box("tkhd") { $0.uint32(0); $0.uint32(0); $0.uint32(0); $0.uint32(id) }
                trak.box("mdia") { mdia in
                    mdia.box("mdhd") { $0.uint32(0); $0.uint32(0); $0.uint32(0); $0.uint32(timescale); $0.uint32(0) }
                    mdia.box("hdlr") { $0.uint32(0); $0.uint32(0); $0.fourCC(handler) }
                }
            }
        }
        moov.box("mvex") { mvex in
            for id in ids {
                mvex.box("trex") { $0.uint32(0); $0.uint32(id); $0.uint32(1); $0.uint32(0); $0.uint32(0); $0.uint32(0) }
            }
        }
        var index = try FragmentedMovieIndex(moovBody: moov.data)
        index.tracks[0].samples = (0..<Int64(videoFrames)).map {
            .init(offset: 0, size: 1, decodeTime: $0 * 512, duration: 512, compositionOffset: 0, isSync: $0 == 0)
        }
        for track in 1...audioTracks {
            var decodeTime: Int64 = 0
            index.tracks[track].samples = audioPacketDurations.map { duration in
                defer { decodeTime += duration }
                return .init(offset: Int64(track), size: 1, decodeTime: decodeTime, duration: duration,
                             compositionOffset: 0, isSync: true)
            }
        }
        return index
    }

    private func audioEnd(_ tracks: [MovieIndexEdit.EditedTrack]) throws -> Int64 {
        let audio = try XCTUnwrap(tracks.first { $0.track.handler == "soun" })
        let last = try XCTUnwrap(audio.samples.last)
        return last.presentationTime + last.duration
    }

    /// 4.5 s of picture (135 frames) and 8 ms more sound, as whole-packet cuts at `retake`s leave it (up to half a
    /// packet either way): with the priming moved back before 0, the encoder's short last packet (320 samples)
    /// starts at 4.5013 s, after the picture's end. Trimming only the last packet missed it: the sound ended at
    /// 4.508 s. Every packet from the picture's end on is left out, and the one across it is cut there.
    func testSoundThatOutlastsThePictureByLessThanAPacketEndsWithThePicture() throws {
        let content: Int64 = 216_000 + 384 + 1024
        let packets = Array(repeating: Int64(1024), count: Int(content / 1024)) + [content % 1024]
        var edit = MovieIndexEdit()
        edit.audioPrimingSamples = 1024
        edit.audioPacketSamples = 1024
        let tracks = edit.apply(to: try index(videoFrames: 135, audioPacketDurations: packets))
        let video = try XCTUnwrap(tracks.first { $0.track.handler == "vide" })
        XCTAssertEqual(video.mediaDuration, 135 * 512)
        XCTAssertEqual(try audioEnd(tracks), 216_000, "the sound ends with the picture (4.5 s at 48 kHz)")
    }

    /// A packet that starts exactly at the picture's end plays none of it: it is left out too. 32 frames are
    /// 1.0667 s, 51200 samples: 50 packets after the priming, so packet 51 starts right at the picture's end.
    func testAPacketStartingExactlyAtThePicturesEndIsLeftOut() throws {
        var edit = MovieIndexEdit()
        edit.audioPrimingSamples = 1024
        edit.audioPacketSamples = 1024
        let tracks = edit.apply(to: try index(videoFrames: 32, audioPacketDurations: Array(repeating: 1024, count: 53)))
        let audio = try XCTUnwrap(tracks.first { $0.track.handler == "soun" })
        XCTAssertEqual(try audioEnd(tracks), 51_200)
        XCTAssertEqual(audio.samples.count, 51, "the priming packet and 50 of sound; the two from 1.0667 s on are left out")
    }

    /// A movie of several audio tracks (the mix and the voices, whose packets have the same times): a retake's
    /// discarded span and the picture's end cut every one of them at the same whole packets, so they stay aligned.
    func testEveryAudioTrackIsCutAtTheSamePackets() throws {
        var edit = MovieIndexEdit()
        edit.audioPrimingSamples = 1024
        edit.audioPacketSamples = 1024
        // 90 frames (3 s), the second second discarded; 3 s of sound and the priming, in whole packets.
        edit.discardedSpans = [MediaTime.seconds(1)..<MediaTime.seconds(2)]
        let packets = Array(repeating: Int64(1024), count: (144_000 + 1024) / 1024 + 1)
        let tracks = edit.apply(to: try index(videoFrames: 90, audioPacketDurations: packets, audioTracks: 4))
        let audio = tracks.filter { $0.track.handler == "soun" }
        XCTAssertEqual(audio.count, 4)
        let times = audio.map { $0.samples.map { [$0.decodeTime, $0.duration] } }
        XCTAssertLessThan(times[0].count, packets.count - 40, "the span's packets are left out")
        for track in times.dropFirst() { XCTAssertEqual(track, times[0]) }
        XCTAssertEqual(try audioEnd(tracks), 96_000, "the sound ends with the 2 s of picture kept")
    }
}
