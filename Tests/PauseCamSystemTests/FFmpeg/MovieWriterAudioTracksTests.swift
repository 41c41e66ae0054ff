import Foundation
import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// A movie of several audio tracks (`MovieSettings.AudioSettings.tracks`): the stereo mix and one mono track per
/// voice, taken from one stream of 5-channel chunks in which every channel carries its own tone. Every track must
/// carry exactly its channels (its tones, none of the others'), be titled, start and end with the others (a retake's
/// cut included), and survive every path a movie takes: in place, by a copy, mkv, a killed recording, an ISO.
final class MovieWriterAudioTracksTests: XCTestCase {
    /// The tone of each of the chunks' channels: the mix's left and right, then the host, the guest, the room.
    private static let tones: [Double] = [440, 660, 880, 1100, 1320]
    private static let tracks = [MovieSettings.AudioTrack(title: "mix", channels: [0, 1]),
                                 MovieSettings.AudioTrack(title: "host", channels: [2]),
                                 MovieSettings.AudioTrack(title: "guest", channels: [3]),
                                 MovieSettings.AudioTrack(title: "room", channels: [4])]
    /// The tones each track's decoded channels must carry, in the tracks' order.
    private static let trackTones: [[Double]] = [[440, 660], [880], [1100], [1320]]

    private static func settings(_ container: MovieSettings.Container = .mov,
                                 tracks: [MovieSettings.AudioTrack] = tracks) -> MovieSettings {
        var settings = MovieWriterFixture.settings()
        settings.container = container
        var audio = MovieSettings.AudioSettings(sampleRate: 48_000, channels: 5)
        audio.tracks = tracks
        settings.audio = audio
        return settings
    }

    /// The 1/30 s chunk at frame `index`: channel c carries `tones[c]`, continuous from chunk to chunk.
    private static func chunk(_ index: Int) -> AudioChunk {
        let count = 1600, channels = tones.count
        var samples = [Int16](repeating: 0, count: count * channels)
        for i in 0..<count {
            let t = Double(index * count + i) / 48_000
            for c in 0..<channels { samples[i * channels + c] = Int16(6000 * sin(2 * Double.pi * tones[c] * t)) }
        }
        return AudioChunk(pts: MediaTime(value: Int64(index), timescale: 30), sampleRate: 48_000,
                          channels: channels, samples: samples)
    }

    /// Appends `frames` frames and their chunks, a keyframe every second (where scenes and retakes start).
    private static func record(_ sink: any MovieSink, frames: Int, sound: Bool = true) throws {
        for index in 0..<frames {
            try sink.appendVideo(MovieWriterFixture.movingFrame(width: 320, height: 180, index: index),
                                 at: MediaTime(value: Int64(index), timescale: 30), keyframe: index % 30 == 0)
            if sound { try sink.appendAudio(chunk(index)) }
        }
    }

    /// Four seconds with the second one retaken (discarded), finished with three chapters.
    private func recordWithARetake(_ name: String, _ container: MovieSettings.Container, inPlace: Bool) throws
        -> (summary: MovieSummary, folder: String) {
        let folder = try MovieWriterFixture.directory(name)
        let factory = MovieWriterFactory(warn: { _ in }, videoQueueLimit: 8, finishesInPlace: inPlace)
        let sink = try factory.makeSink(directory: folder, baseName: name, settings: Self.settings(container))
        try Self.record(sink, frames: 120)
        let summary = try sink.finish(chapters: [Chapter(title: "One", start: .zero, end: .seconds(1)),
                                                 Chapter(title: "Two", start: .seconds(1), end: .seconds(2)),
                                                 Chapter(title: "Three", start: .seconds(2), end: .seconds(3))],
                                      discarding: [MediaTime.seconds(1)..<MediaTime.seconds(2)])
        return (summary, folder)
    }

    /// The audio streams as ffprobe shows them.
    private static func audioStreams(_ path: String) throws -> [[String: Any]] {
        try MovieWriterFixture.probe(path, ["-show_streams", "-select_streams", "a"])["streams"]
            as? [[String: Any]] ?? []
    }

    /// Track `number`'s sound decoded to 16-bit PCM, its channels interleaved (`-map 0:a:N`, as a player picks it).
    private static func decode(_ path: String, track number: Int) throws -> [Int16] {
        let (out, err) = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a:\(number)",
                                                               "-f", "s16le", "-acodec", "pcm_s16le", "-"])
        XCTAssertEqual(err, "", "decoding track \(number) of \(path)")
        return out.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// The power of `frequency` in channel `channel` of interleaved `samples` (Goertzel), over `range` of frames.
    private static func power(_ samples: [Int16], channels: Int, channel: Int, frequency: Double,
                              range: Range<Int>) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / 48_000)
        var previous = 0.0, beforePrevious = 0.0
        for frame in range {
            let value = Double(samples[frame * channels + channel]) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = value
        }
        return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
    }

    /// Each track decodes to its own tones and to none of the others, in each take (before and after the cut);
    /// every track decodes to the same number of samples. Returns that number.
    @discardableResult
    private func assertEveryTrackCarriesItsTones(_ path: String, tracks: Int = 4, file: StaticString = #filePath,
                                                 line: UInt = #line) throws -> Int {
        var lengths: [Int] = []
        for number in 0..<tracks {
            let own = Self.trackTones[number]
            let pcm = try Self.decode(path, track: number)
            let frames = pcm.count / own.count
            lengths.append(frames)
            XCTAssertGreaterThan(frames, 48_000, "track \(number) has sound", file: file, line: line)
            guard frames > 48_000 else { continue }
            // A window inside the first take, and one inside the last.
            for window in [9_600..<33_600, (frames - 33_600)..<(frames - 9_600)] {
                for (channel, tone) in own.enumerated() {
                    let mine = Self.power(pcm, channels: own.count, channel: channel, frequency: tone, range: window)
                    for other in Self.tones where other != tone {
                        let theirs = Self.power(pcm, channels: own.count, channel: channel, frequency: other,
                                                range: window)
                        XCTAssertGreaterThan(mine, 1000 * theirs,
                                             "track \(number) channel \(channel): \(tone) Hz, not \(other) Hz",
                                             file: file, line: line)
                    }
                }
            }
        }
        XCTAssertEqual(Set(lengths).count, 1, "every track as long as the others: \(lengths)", file: file, line: line)
        return lengths.first ?? 0
    }

    /// Four audio streams of 2, 1, 1, 1 channels, titled (ffprobe's `title` in Matroska; in mov/mp4 the `hdlr`
    /// name ffprobe 5.1 shows as `handler_name`, and the track's `udta`/`name`), the mix the default; all starting
    /// together and lasting as long, within one AAC packet.
    private func assertFourTitledTracks(_ path: String, container: MovieSettings.Container,
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        let streams = try Self.audioStreams(path)
        XCTAssertEqual(streams.map { $0["channels"] as? Int }, [2, 1, 1, 1], file: file, line: line)
        let tags = streams.map { $0["tags"] as? [String: String] ?? [:] }
        let titleKey = container == .mkv ? "title" : "handler_name"
        XCTAssertEqual(tags.map { $0[titleKey] }, ["mix", "host", "guest", "room"], "\(container)", file: file,
                       line: line)
        XCTAssertEqual(streams.map { ($0["disposition"] as? [String: Int])?["default"] }, [1, 0, 0, 0],
                       "\(container)", file: file, line: line)
        if container != .mkv {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            for title in ["mix", "host", "guest", "room"] {
                var box = Data([0, 0, 0, UInt8(8 + title.utf8.count)])
                box.append(contentsOf: Array("name\(title)".utf8))
                XCTAssertNotNil(bytes.range(of: box), "a udta name box for \(title)", file: file, line: line)
            }
        }
        let starts = streams.compactMap { MovieWriterFixture.double($0["start_time"]) }
        XCTAssertEqual(starts.count, 4, file: file, line: line)
        XCTAssertEqual(Set(starts).count, 1, "every track starts together: \(starts)", file: file, line: line)
        let durations = streams.compactMap { MovieWriterFixture.double($0["duration"]) }
        if container != .mkv {
            XCTAssertEqual(durations.count, 4, file: file, line: line)
            for duration in durations {
                XCTAssertEqual(duration, durations[0], accuracy: 1024.0 / 48_000, "\(durations)", file: file,
                               line: line)
            }
        }
    }

    func testEveryTrackCarriesItsChannelsTitledAndCutAlikeInEveryContainer() throws {
        for (container, inPlace) in [(MovieSettings.Container.mov, true), (.mp4, true), (.mkv, false), (.mov, false)] {
            let name = "tracks-\(container.rawValue)-\(inPlace ? "inplace" : "copy")"
            let (summary, folder) = try recordWithARetake(name, container, inPlace: inPlace)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try assertFourTitledTracks(summary.path, container: container)
            let frames = try assertEveryTrackCarriesItsTones(summary.path)
            // Three seconds of picture after the retake; the sound ends with it.
            XCTAssertEqual(Double(frames) / 48_000, 3, accuracy: 1024.0 / 48_000, "\(container)")
            // The summary counts one track's samples (the mix's), not the four tracks' together.
            XCTAssertEqual(summary.audioSamplesWritten, 3 * 48_000, accuracy: 2048, "\(container)")
            let chapters = try MovieWriterFixture.probe(summary.path, ["-show_chapters"])["chapters"]
                as? [[String: Any]] ?? []
            XCTAssertEqual(chapters.count, 3, "\(container)")
            let video = try MovieWriterFixture.probe(summary.path, ["-show_streams", "-select_streams", "v",
                                                                    "-count_frames"])["streams"] as? [[String: Any]]
            XCTAssertEqual(video?.first?["nb_read_frames"] as? String, "90", "\(container)")
        }
    }

    /// What mpv and other players do to pick a voice: `-map 0:a:2` is the guest, alone.
    func testMappingTheThirdAudioStreamExtractsTheGuestAlone() throws {
        let (summary, folder) = try recordWithARetake("tracks-map", .mov, inPlace: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let extracted = folder + "/guest.wav"
        let (_, err) = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-i", summary.path, "-map", "0:a:2",
                                                             extracted])
        XCTAssertEqual(err, "")
        let streams = try Self.audioStreams(extracted)
        XCTAssertEqual(streams.map { $0["channels"] as? Int }, [1])
        let pcm = try Self.decode(extracted, track: 0)
        XCTAssertGreaterThan(pcm.count, 48_000)
        guard pcm.count > 48_000 else { return }
        let window = 9_600..<33_600
        let guest = Self.power(pcm, channels: 1, channel: 0, frequency: 1100, range: window)
        for other in Self.tones where other != 1100 {
            XCTAssertGreaterThan(guest, 1000 * Self.power(pcm, channels: 1, channel: 0, frequency: other, range: window))
        }
    }

    /// A recording killed mid-way: the `.partial` as it is plays every track, titled, each with its tones.
    func testAKilledRecordingsPartialPlaysEveryTrack() throws {
        let folder = try MovieWriterFixture.directory("tracks-crash")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paths = try MovieNameReserver(directory: folder, baseName: "crash", fileExtension: "mov").reserve()
        let stages = EncodingStageProbe()
        let sink = MovieWriter(paths: paths, settings: Self.settings(), hooks: stages)
        try Self.record(sink, frames: 120)
        XCTAssertTrue(stages.waitUntil(.x264, handled: 120), "x264 took every picture")
        XCTAssertTrue(stages.waitUntil(.audio, handled: 120), "the audio thread took every chunk")
        // The file as a SIGKILL would leave it: copied before anything else is written.
        let copy = folder + "/copy.mov"
        try FileManager.default.copyItem(atPath: sink.partialPath, toPath: copy)
        sink.abort()
        let streams = try Self.audioStreams(copy)
        XCTAssertEqual(streams.map { $0["channels"] as? Int }, [2, 1, 1, 1])
        XCTAssertEqual(streams.map { ($0["tags"] as? [String: String])?["handler_name"] },
                       ["mix", "host", "guest", "room"])
        let frames = try assertEveryTrackCarriesItsTones(copy)
        XCTAssertGreaterThanOrEqual(Double(frames) / 48_000, 3.0 - 0.1, "all but the last fragment of 4 s")
    }

    /// An ISO has the program's sound: all four tracks, with their titles, the same packets.
    func testAnIsoMovieHasEveryTrackOfTheProgram() throws {
        let folder = try MovieWriterFixture.directory("tracks-iso")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let factory = MovieWriterFactory(warn: { _ in }, videoQueueLimit: 8)
        let program = try factory.makeSink(directory: folder, baseName: "program", settings: Self.settings())
        let iso = try factory.makeIsoSink(directory: folder + "/program.iso", baseName: "wide",
                                          settings: Self.settings(), program: program)
        XCTAssertTrue(iso.takesProgramSound)
        try Self.record(program, frames: 90)
        try Self.record(iso, frames: 90, sound: false)
        let programSummary = try program.finish(chapters: [])
        let isoSummary = try iso.finish(chapters: [])
        try assertFourTitledTracks(isoSummary.path, container: .mov)
        try assertEveryTrackCarriesItsTones(isoSummary.path)
        // The ISO counts the packets it copied (the priming packet's too), one track's.
        XCTAssertEqual(isoSummary.audioSamplesWritten, programSummary.audioSamplesWritten, accuracy: 1024)
        for number in 0..<4 {
            let packets = { (path: String) throws -> [String] in
                let output = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a:\(number)",
                                                                   "-c", "copy", "-f", "framemd5", "-"]).out
                return String(decoding: output, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
                    .map(String.init)
            }
            XCTAssertEqual(try packets(isoSummary.path), try packets(programSummary.path), "track \(number)")
        }
    }

    /// On the real clock an ISO that cannot keep up (here: still opening) drops the program's packets it has no room
    /// for, and counts the sound it lost once, in one track's samples, not once per track.
    func testAnIsoCountsTheSoundItDroppedOnceNotPerTrack() throws {
        let folder = try MovieWriterFixture.directory("tracks-iso-drop")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var settings = Self.settings()
        settings.blockWhenBehind = false
        let program = MovieWriter(paths: try MovieNameReserver(directory: folder, baseName: "program",
                                                               fileExtension: "mov").reserve(), settings: settings)
        let gate = OpeningGate()
        let iso = MovieWriter(paths: try MovieNameReserver(directory: folder + "/program.iso", baseName: "wide",
                                                           fileExtension: "mov").reserve(),
                              settings: settings, limits: MovieWriter.QueueLimits(audio: 10), soundOf: program,
                              hooks: gate)
        // Two seconds of sound (about 94 packets a track) while the ISO is held opening: only 10 fit its channel.
        for index in 0..<60 {
            try program.appendVideo(MovieWriterFixture.solidFrame(width: 320, height: 180, y: 90),
                                    at: MediaTime(value: Int64(index), timescale: 30), keyframe: index == 0)
            try program.appendAudio(Self.chunk(index))
        }
        let programSummary = try program.finish(chapters: [])
        gate.open()
        for index in 0..<60 {
            try iso.appendVideo(MovieWriterFixture.solidFrame(width: 320, height: 180, y: 90),
                                at: MediaTime(value: Int64(index), timescale: 30), keyframe: index == 0)
        }
        let isoSummary = try iso.finish(chapters: [])
        XCTAssertGreaterThan(isoSummary.audioSamplesDropped, 0, "the ISO had no room for most packets")
        XCTAssertLessThanOrEqual(isoSummary.audioSamplesDropped, programSummary.audioSamplesWritten + 1024,
                                 "no more than one track's sound is counted as lost")
    }

    /// Without `tracks` the movie has one track of every channel, unnamed, as before there were voices.
    func testNoTracksGivesOneUnnamedTrackOfEveryChannel() throws {
        let folder = try MovieWriterFixture.directory("tracks-none")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sink = try MovieWriterFactory().makeSink(directory: folder, baseName: "plain",
                                                     settings: Self.settings(tracks: []))
        try Self.record(sink, frames: 60)
        let summary = try sink.finish(chapters: [])
        let streams = try Self.audioStreams(summary.path)
        XCTAssertEqual(streams.map { $0["channels"] as? Int }, [5])
        XCTAssertEqual((streams.first?["tags"] as? [String: String])?["handler_name"], "SoundHandler")
        XCTAssertNil((streams.first?["tags"] as? [String: String])?["title"])
        let pcm = try Self.decode(summary.path, track: 0)
        XCTAssertGreaterThan(pcm.count, 5 * 48_000)
        guard pcm.count > 5 * 48_000 else { return }
        for (channel, tone) in Self.tones.enumerated() {
            let window = 9_600..<33_600
            let mine = Self.power(pcm, channels: 5, channel: channel, frequency: tone, range: window)
            for other in Self.tones where other != tone {
                XCTAssertGreaterThan(mine, 1000 * Self.power(pcm, channels: 5, channel: channel, frequency: other,
                                                             range: window), "channel \(channel)")
            }
        }
    }

    /// A track that names a channel the chunks do not have is refused when the movie opens, saying which.
    func testATrackOfAChannelThatIsNotRecordedIsRefused() {
        var audio = MovieSettings.AudioSettings(sampleRate: 48_000, channels: 3)
        audio.tracks = [MovieSettings.AudioTrack(title: "mix", channels: [0, 1]),
                        MovieSettings.AudioTrack(title: "guest", channels: [3])]
        XCTAssertThrowsError(try AudioEncoder(settings: audio, globalHeader: true)) { error in
            XCTAssertTrue("\(error)".contains("\"guest\" takes channels [3] of the 3 recorded"), "\(error)")
        }
    }
}

/// Holds a writer's encoder thread at the movie's open until the test opens the gate (at most a minute).
private final class OpeningGate: SystemHooks {
    private let semaphore = DispatchSemaphore(value: 0)

    func willOpenMovie(_ moviePath: String) { _ = semaphore.wait(timeout: .now() + 60) }

    func open() { semaphore.signal() }
}
