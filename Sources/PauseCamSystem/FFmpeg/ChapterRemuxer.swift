import CFFmpeg
import Foundation
import PauseCamCore

/// Turns the finished fragmented `.partial` into the final movie: a stream copy (no re-encode) of the audio and
/// video streams into a normal, seekable file (`+faststart` for mov/mp4) with one chapter per scene, added before
/// the header so every container keeps them.
///
/// Only audio and video are mapped: a chapter text track in the input would break the copy. The output is written
/// to a temporary name and then linked to the final name with `link()`, which fails instead of overwriting.
struct ChapterRemuxer {
    var inputPath: String
    var outputPath: String
    var container: MovieSettings.Container
    /// The audio encoder's priming (its `initial_padding`, in samples at `audioSampleRate`): the fragmented
    /// `.partial` stores the first AAC packet at 0 instead of −priming, so the copy moves audio back by this much
    /// and the final file's edit list hides the priming again, keeping audio in sync with video.
    var audioPrimingSamples: Int64 = 0
    var audioSampleRate: Int32 = 48_000
    /// The duration a video packet gets when nothing else tells (a one-frame movie): one frame at the rig's rate.
    var videoFrameDuration = MediaTime(value: 1, timescale: 30)
    /// Spans of the `.partial`'s file time that `retake` discarded, in order: their packets are left out and every
    /// later packet moves back by their length. A span starts and ends at a scene start, where the recorder forced
    /// a keyframe (closed GOP: no kept frame refers across it), so the video cut is exact; audio is cut at whole
    /// packets (`WholePacketAudioCut`), so it stays unbroken and within half a packet of the video.
    var discardedSpans: [Range<MediaTime>] = []
    /// The audio tracks' titles, in order (`MovieSettings.AudioTrack`): each audio stream is named again, and the
    /// first is the default, since the mov demuxer does not read back the names the `.partial` holds. Empty: a
    /// movie of one unnamed track, copied as it is.
    var audioTitles: [String] = []
    /// The movie's start timecode at its rate: the video stream gets it as its `timecode` entry, from which the
    /// mov/mp4 muxer writes a timecode track (`tmcd`) and Matroska a tag. `nil`: none.
    var timecode: MovieIndexWriter.TimecodeTrack?

    /// Copies the streams and adds `chapters`; the final file appears at `outputPath` only when complete. Returns
    /// how many audio samples (per channel) of the first audio track were left out of the movie: by the discarded
    /// spans, and past the picture's end (every track loses the same packets).
    @discardableResult
    func remux(chapters: [Chapter]) throws -> Int {
        let temporaryPath = outputPath + ClipFileNames.remuxSuffix
        if MovieNameReserver.exists(temporaryPath) {
            throw FFmpegError("remux(\(inputPath)): \(temporaryPath) exists and is not ours to overwrite; move it "
                              + "away and remux the .partial by hand", code: pausecam_averror(EEXIST))
        }
        do {
            let leftOut = try copy(to: temporaryPath, chapters: chapters)
            if case .failure(let failure) = retryingOnInterrupt({ link(temporaryPath, outputPath) }) {
                throw FFmpegError("link(\(temporaryPath) → \(outputPath)): the final name is taken "
                                  + "(\(failure.message)); the .partial file is kept",
                                  code: pausecam_averror(failure.rawValue))
            }
            unlink(temporaryPath)
            return leftOut
        } catch {
            unlink(temporaryPath)
            throw error
        }
    }

    /// Returns the first audio track's samples left out (discarded spans, sound past the picture).
    private func copy(to path: String, chapters: [Chapter]) throws -> Int {
        var input: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegError.check(avformat_open_input(&input, inputPath, nil, nil), "avformat_open_input(\(inputPath))")
        defer { avformat_close_input(&input) }
        guard let input else { return 0 }
        try FFmpegError.check(avformat_find_stream_info(input, nil), "avformat_find_stream_info(\(inputPath))")

        var created: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegError.check(avformat_alloc_output_context2(&created, nil, PartialMovieMuxer.formatName(container), path),
                              "avformat_alloc_output_context2(\(path))")
        guard let output = created else { return 0 }
        defer {
            if output.pointee.pb != nil { avio_closep(&output.pointee.pb) }
            avformat_free_context(output)
        }

        var streamMap = [Int32](repeating: -1, count: Int(input.pointee.nb_streams))
        // The input index of the first audio stream: the one whose samples left out are counted.
        var firstAudio: Int?
        var audioStreamsMapped = 0
        // Only the first video stream carries the timecode (the muxer makes one track per stream that has one).
        var timecodeGiven = false
        for index in 0..<Int(input.pointee.nb_streams) {
            let source = input.pointee.streams[index]!
            let type = source.pointee.codecpar.pointee.codec_type
            guard type == AVMEDIA_TYPE_VIDEO || type == AVMEDIA_TYPE_AUDIO else { continue }
            guard let stream = avformat_new_stream(output, nil) else {
                throw FFmpegError("avformat_new_stream(\(path))", code: pausecam_averror(ENOMEM))
            }
            try FFmpegError.check(avcodec_parameters_copy(stream.pointee.codecpar, source.pointee.codecpar),
                                  "avcodec_parameters_copy(\(path))")
            stream.pointee.codecpar.pointee.codec_tag = 0
            stream.pointee.time_base = source.pointee.time_base
            stream.pointee.sample_aspect_ratio = source.pointee.sample_aspect_ratio
            streamMap[index] = stream.pointee.index
            if type == AVMEDIA_TYPE_VIDEO, let timecode, !timecodeGiven {
                timecodeGiven = true
                // The muxer's timecode track counts labels at the stream's average rate.
                stream.pointee.avg_frame_rate = AVRational(num: timecode.rate.numerator, den: timecode.rate.denominator)
                av_dict_set(&stream.pointee.metadata, "timecode",
                            Timecode(rate: timecode.rate).string(forFrame: timecode.startFrame), 0)
            }
            if type == AVMEDIA_TYPE_AUDIO {
                if firstAudio == nil { firstAudio = index }
                if audioTitles.indices.contains(audioStreamsMapped) {
                    PartialMovieMuxer.label(stream, title: audioTitles[audioStreamsMapped],
                                            isDefault: audioStreamsMapped == 0,
                                            container: PartialMovieMuxer.formatName(container))
                }
                audioStreamsMapped += 1
            }
        }
        for (number, chapter) in chapters.enumerated() { try addChapter(chapter, id: number + 1, to: output) }
        // Sound is held back to the picture's end only when there is a picture (a sound-only file is copied as is).
        let hasVideo = (0..<Int(input.pointee.nb_streams)).contains {
            input.pointee.streams[$0]!.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
        }

        try FFmpegError.check(avio_open(&output.pointee.pb, path, AVIO_FLAG_WRITE), "avio_open(\(path))")
        var options: OpaquePointer?
        if container != .mkv { av_dict_set(&options, "movflags", "+faststart", 0) }
        defer { av_dict_free(&options) }
        try FFmpegError.check(avformat_write_header(output, &options), "avformat_write_header(\(path))")

        let box = FFmpegPacketBox()
        // The fragmented demuxer gives samples no duration; without one the final file's edit list would end
        // before the last frame. Each packet without one gets the distance from its stream's previous packet.
        var previousDTS = [Int64?](repeating: nil, count: streamMap.count)
        var videoShift: Int64?
        // Per audio stream with fixed-size packets: where its packets are cut, and the samples a packet holds.
        var audioCuts: [Int: (cut: WholePacketAudioCut, samples: Int)] = [:]
        // Per audio stream, the packets not written yet because they reach past the picture read so far (see
        // below), oldest first; and where the picture ends, exact, in the video stream's ticks.
        var heldAudio: [Int: [FFmpegPacketBox]] = [:]
        var videoEnd: (ticks: Int64, timeBase: AVRational)?
        func end(of packet: UnsafeMutablePointer<AVPacket>, in stream: UnsafeMutablePointer<AVStream>)
            -> (ticks: Int64, timeBase: AVRational) {
            (packet.pointee.pts + max(0, packet.pointee.duration), stream.pointee.time_base)
        }
        // Writes each stream's held audio packets that end within the picture read so far.
        func writeHeldAudio() throws {
            guard let videoEnd else { return }
            for (sourceIndex, queue) in heldAudio {
                let target = output.pointee.streams[Int(streamMap[sourceIndex])]!
                var written = 0
                for held in queue {
                    let packetEnd = end(of: held.packet, in: target)
                    guard av_compare_ts(packetEnd.ticks, packetEnd.timeBase, videoEnd.ticks, videoEnd.timeBase) <= 0
                    else { break }
                    try FFmpegError.check(av_interleaved_write_frame(output, held.packet),
                                          "av_interleaved_write_frame(\(path))")
                    written += 1
                }
                if written > 0 { heldAudio[sourceIndex] = Array(queue.dropFirst(written)) }
            }
        }
        for index in 0..<Int(input.pointee.nb_streams) where !discardedSpans.isEmpty {
            let source = input.pointee.streams[index]!
            let parameters = source.pointee.codecpar.pointee
            guard parameters.codec_type == AVMEDIA_TYPE_AUDIO, parameters.frame_size > 0, parameters.sample_rate > 0
            else { continue }
            let packetTicks = av_rescale_q(Int64(parameters.frame_size), AVRational(num: 1, den: parameters.sample_rate),
                                           source.pointee.time_base)
            guard packetTicks > 0 else { continue }
            let spans = discardedSpans.map { ticks($0.lowerBound, source.pointee.time_base)..<ticks($0.upperBound, source.pointee.time_base) }
            audioCuts[index] = (WholePacketAudioCut(spans: spans, packetTicks: packetTicks), Int(parameters.frame_size))
        }
        while true {
            let result = av_read_frame(input, box.packet)
            if result == pausecam_averror_eof() { break }
            try FFmpegError.check(result, "av_read_frame(\(inputPath))")
            defer { av_packet_unref(box.packet) }
            let sourceIndex = Int(box.packet.pointee.stream_index)
            guard sourceIndex < streamMap.count, streamMap[sourceIndex] >= 0 else { continue }
            let target = output.pointee.streams[Int(streamMap[sourceIndex])]!
            let source = input.pointee.streams[sourceIndex]!
            let dts = box.packet.pointee.dts
            if box.packet.pointee.duration <= 0 {
                if let previous = previousDTS[sourceIndex], dts != pausecam_av_nopts_value(), dts > previous {
                    box.packet.pointee.duration = dts - previous
                } else if source.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO {
                    box.packet.pointee.duration = av_rescale_q(
                        videoFrameDuration.value, AVRational(num: 1, den: videoFrameDuration.timescale),
                        source.pointee.time_base)
                }
            }
            if dts != pausecam_av_nopts_value() { previousDTS[sourceIndex] = dts }
            // With B-frames the encoder's first DTS is negative; the fragmented `.partial` pulled it to 0, which
            // moved every video PTS later by the reorder delay. The first video packet is the IDR frame whose PTS
            // was 0, so its PTS now is that delay: take it off again (the final file's edit list handles the
            // negative DTS, as it does for the audio priming).
            if source.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO {
                if videoShift == nil { videoShift = max(0, box.packet.pointee.pts == pausecam_av_nopts_value() ? 0 : box.packet.pointee.pts) }
                if let shift = videoShift, shift > 0 {
                    if box.packet.pointee.pts != pausecam_av_nopts_value() { box.packet.pointee.pts -= shift }
                    if box.packet.pointee.dts != pausecam_av_nopts_value() { box.packet.pointee.dts -= shift }
                }
            }
            if source.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO && audioPrimingSamples > 0 {
                let shift = av_rescale_q(audioPrimingSamples, AVRational(num: 1, den: audioSampleRate),
                                         source.pointee.time_base)
                if box.packet.pointee.pts != pausecam_av_nopts_value() { box.packet.pointee.pts -= shift }
                if box.packet.pointee.dts != pausecam_av_nopts_value() { box.packet.pointee.dts -= shift }
            }
            if var audio = audioCuts[sourceIndex], box.packet.pointee.pts != pausecam_av_nopts_value() {
                let shift = audio.cut.shift(forPacketAt: box.packet.pointee.pts)
                audioCuts[sourceIndex] = audio
                guard let shift else { continue }
                box.packet.pointee.pts -= shift
                if box.packet.pointee.dts != pausecam_av_nopts_value() { box.packet.pointee.dts -= shift }
            } else if !discardedSpans.isEmpty {
                guard let shift = shiftAfterCuts(pts: box.packet.pointee.pts, timeBase: source.pointee.time_base)
                else { continue }
                if box.packet.pointee.pts != pausecam_av_nopts_value() { box.packet.pointee.pts -= shift }
                if box.packet.pointee.dts != pausecam_av_nopts_value() { box.packet.pointee.dts -= shift }
            }
            av_packet_rescale_ts(box.packet, source.pointee.time_base, target.pointee.time_base)
            box.packet.pointee.stream_index = streamMap[sourceIndex]
            box.packet.pointee.pos = -1
            if source.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO && hasVideo
                && box.packet.pointee.pts != pausecam_av_nopts_value() {
                // An audio packet waits until the picture reaches its end: the ones still waiting when the picture
                // has ended are cut to it below.
                let held = FFmpegPacketBox()
                av_packet_move_ref(held.packet, box.packet)
                heldAudio[sourceIndex, default: []].append(held)
                try writeHeldAudio()
                continue
            }
            if source.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
                && box.packet.pointee.pts != pausecam_av_nopts_value() {
                let packetEnd = end(of: box.packet, in: target)
                if videoEnd.map({ av_compare_ts(packetEnd.ticks, packetEnd.timeBase, $0.ticks, $0.timeBase) > 0 }) ?? true {
                    videoEnd = packetEnd
                }
            }
            try FFmpegError.check(av_interleaved_write_frame(output, box.packet), "av_interleaved_write_frame(\(path))")
            try writeHeldAudio()
        }
        // A movie's sound ends with its picture. The last AAC packet is padded to a whole packet and its duration
        // says how much of it plays: the packet that crosses the last frame's end is cut there (never lengthened),
        // and packets that start at or after it (whole-packet cuts at retakes can leave sound up to half a packet
        // longer than the picture) are left out, their samples counted with the ones the cuts left out.
        var samplesPastThePicture = 0
        for (sourceIndex, queue) in heldAudio.sorted(by: { $0.key < $1.key }) {
            let target = output.pointee.streams[Int(streamMap[sourceIndex])]!
            let endTicks = videoEnd.map { av_rescale_q($0.ticks, $0.timeBase, target.pointee.time_base) }
            for held in queue {
                if let endTicks {
                    let room = endTicks - held.packet.pointee.pts
                    if room <= 0 {
                        guard sourceIndex == firstAudio else { continue }
                        samplesPastThePicture += Int(av_rescale_q(
                            max(0, held.packet.pointee.duration), target.pointee.time_base,
                            AVRational(num: 1, den: max(1, target.pointee.codecpar.pointee.sample_rate))))
                        continue
                    }
                    if room < held.packet.pointee.duration { held.packet.pointee.duration = room }
                }
                try FFmpegError.check(av_interleaved_write_frame(output, held.packet),
                                      "av_interleaved_write_frame(\(path))")
            }
        }
        try FFmpegError.check(av_write_trailer(output), "av_write_trailer(\(path))")
        let cutOut = firstAudio.flatMap { audioCuts[$0] }.map { Int($0.cut.droppedPackets) * $0.samples } ?? 0
        return cutOut + samplesPastThePicture
    }

    /// How far a packet at `pts` (in `timeBase`, already in file time) moves back: the length of every discarded
    /// span that ends at or before it; `nil` when it lies inside one and is left out.
    private func shiftAfterCuts(pts: Int64, timeBase: AVRational) -> Int64? {
        guard pts != pausecam_av_nopts_value() else { return 0 }
        var shift: Int64 = 0
        for span in discardedSpans {
            let start = ticks(span.lowerBound, timeBase), end = ticks(span.upperBound, timeBase)
            if pts >= end { shift += end - start } else if pts >= start { return nil }
        }
        return shift
    }

    private func ticks(_ time: MediaTime, _ timeBase: AVRational) -> Int64 {
        av_rescale_q(time.value, AVRational(num: 1, den: time.timescale), timeBase)
    }

    /// Appends one chapter (milliseconds; the output context frees it).
    private func addChapter(_ chapter: Chapter, id: Int, to output: UnsafeMutablePointer<AVFormatContext>) throws {
        guard let raw = av_mallocz(MemoryLayout<AVChapter>.size) else {
            throw FFmpegError("av_mallocz(AVChapter)", code: pausecam_averror(ENOMEM))
        }
        let entry = raw.bindMemory(to: AVChapter.self, capacity: 1)
        entry.pointee.id = Int64(id)
        entry.pointee.time_base = AVRational(num: 1, den: 1000)
        entry.pointee.start = (try? chapter.start.rescaled(to: 1000, rounding: .nearest).value) ?? 0
        entry.pointee.end = max(entry.pointee.start,
                                (try? chapter.end.rescaled(to: 1000, rounding: .nearest).value) ?? entry.pointee.start)
        av_dict_set(&entry.pointee.metadata, "title", chapter.title, 0)
        let result = pausecam_add_chapter(output, entry)
        if result < 0 {
            av_dict_free(&entry.pointee.metadata)
            av_free(raw)
            throw FFmpegError("av_dynarray_add(chapter \(chapter.title))", code: result)
        }
    }
}
