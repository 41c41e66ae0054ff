import Foundation
import XCTest
@testable import PauseCamCore
@testable import PauseCamSystem

/// A voice's Broadcast WAV as outside readers see it: ffprobe and sox read 24-bit mono PCM at 48 kHz of the right
/// length, the `bext` time reference reads back, gaps are silence, `retake`'s spans are left out at their samples,
/// and a process killed mid-clip leaves a file both read with the length written.
final class BroadcastWaveWriterTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "pausecam-bwf-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// 2027-01-05 10:30:00.5 UTC.
    static let startedAt = Date(timeIntervalSince1970: 1_799_145_000.5)
    static let expectedReference = UInt64(10 * 3600 + 30 * 60) * 48_000 + 24_000

    static func factory() throws -> BroadcastWaveWriterFactory {
        BroadcastWaveWriterFactory(timeZone: try XCTUnwrap(TimeZone(identifier: "UTC")))
    }

    /// Hands `seconds` of samples (sample n is `value(n)`) to `sink` in 20 ms chunks from file time `from`.
    static func feed(_ sink: any VoiceWaveSink, seconds: Int, from: Int = 0, value: (Int) -> Int16) throws {
        for chunk in 0..<(seconds * 50) {
            let first = (from * 50 + chunk) * 960
            try sink.append((first..<(first + 960)).map(value), at: MediaTime(value: Int64(first), timescale: 48_000))
        }
    }

    /// The file decoded by ffmpeg as 16-bit samples (the top two bytes of each 24-bit one).
    static func decoded(_ path: String) throws -> [Int16] {
        let (out, err) = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-i", path, "-f", "s16le", "-"])
        XCTAssertEqual(err, "", "ffmpeg decodes it without a complaint")
        return out.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// `sox --i -s`: the sample count sox reads from the header.
    static func soxSamples(_ path: String) throws -> Int? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sox") else {
            throw XCTSkip("/usr/bin/sox is not installed (package sox)")
        }
        let (out, err) = try MovieWriterFixture.run("sox", ["--i", "-s", path])
        let text = String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(err.contains("FAIL"), err)
        return Int(text)
    }

    func testTheFileIs24BitMonoPCMWithItsTimeReferenceAndOutsideReadersAgreeOnItsLength() throws {
        let sink = try Self.factory().makeVoiceSink(directory: folder + "/clip.iso", voice: "host", sampleRate: 48_000,
                                                    startedAt: Self.startedAt, blockWhenBehind: true)
        XCTAssertEqual(sink.path, folder + "/clip.iso/host.wav")
        try Self.feed(sink, seconds: 2) { Int16(truncatingIfNeeded: $0 * 7) }
        let summary = try sink.finish(discarding: [])
        XCTAssertEqual(summary.samples, 96_000)

        let json = try MovieWriterFixture.probe(sink.path, ["-show_streams", "-show_format"])
        let stream = try XCTUnwrap((json["streams"] as? [[String: Any]])?.first)
        XCTAssertEqual(stream["codec_name"] as? String, "pcm_s24le")
        XCTAssertEqual(stream["sample_rate"] as? String, "48000")
        XCTAssertEqual(stream["channels"] as? Int, 1)
        XCTAssertEqual(stream["bits_per_sample"] as? Int, 24)
        let format = try XCTUnwrap(json["format"] as? [String: Any])
        XCTAssertEqual(MovieWriterFixture.double(format["duration"]), 2.0)
        let tags = try XCTUnwrap(format["tags"] as? [String: Any])
        XCTAssertEqual(tags["time_reference"] as? String, String(Self.expectedReference), "bext TimeReference")
        // FFmpeg's wav demuxer reads the rest of the bext under its own names.
        XCTAssertEqual(tags["comment"] as? String, "host", "bext Description")
        XCTAssertEqual(tags["encoded_by"] as? String, "PauseCam", "bext Originator")
        XCTAssertEqual(tags["date"] as? String, "2027-01-05", "bext OriginationDate")
        XCTAssertEqual(tags["creation_time"] as? String, "10:30:00", "bext OriginationTime")
        XCTAssertEqual(try Self.soxSamples(sink.path), 96_000)
        XCTAssertTrue(try Self.decoded(sink.path) == (0..<96_000).map { Int16(truncatingIfNeeded: $0 * 7) },
                      "every sample exact")
    }

    func testAGapIsSilenceSoEverySampleStaysAtItsFileTime() throws {
        let sink = try Self.factory().makeVoiceSink(directory: folder, voice: "guest", sampleRate: 48_000,
                                                    startedAt: Self.startedAt, blockWhenBehind: true)
        try Self.feed(sink, seconds: 1) { _ in 1000 }
        // One second missing (a chunk refused, a stall), then the third second.
        try Self.feed(sink, seconds: 1, from: 2) { _ in 3000 }
        _ = try sink.finish(discarding: [])
        let samples = try Self.decoded(sink.path)
        XCTAssertEqual(samples.count, 144_000)
        XCTAssertTrue(samples[0..<48_000].allSatisfy { $0 == 1000 })
        XCTAssertTrue(samples[48_000..<96_000].allSatisfy { $0 == 0 }, "silence")
        XCTAssertTrue(samples[96_000...].allSatisfy { $0 == 3000 })
    }

    func testARetakesSpansAreLeftOutAtTheirSamplesAndTheTimeReferenceStays() throws {
        let sink = try Self.factory().makeVoiceSink(directory: folder, voice: "host", sampleRate: 48_000,
                                                    startedAt: Self.startedAt, blockWhenBehind: true)
        // Second k holds the value k + 1; a span of 1 s to 2 s (the first take of scene 2) and a frame at 30 fps.
        try Self.feed(sink, seconds: 4) { Int16($0 / 48_000 + 1) }
        let frame = MediaTime(value: 1, timescale: 30)
        let spans = [MediaTime.seconds(1)..<MediaTime.seconds(2), MediaTime.seconds(3)..<(MediaTime.seconds(3) + frame)]
        let summary = try sink.finish(discarding: spans)
        XCTAssertEqual(summary.samples, 192_000 - 48_000 - 1_600)
        let samples = try Self.decoded(sink.path)
        XCTAssertEqual(samples.count, summary.samples)
        XCTAssertEqual(try Self.soxSamples(sink.path), summary.samples)
        let expected = Array(repeating: Int16(1), count: 48_000) + Array(repeating: Int16(3), count: 48_000)
            + Array(repeating: Int16(4), count: 48_000 - 1_600)
        XCTAssertTrue(samples == expected, "the spans' samples are gone, everything else in order")
        let tags = try MovieWriterFixture.probe(sink.path, ["-show_format"])["format"] as? [String: Any]
        XCTAssertEqual((tags?["tags"] as? [String: Any])?["time_reference"] as? String, String(Self.expectedReference))
        XCTAssertFalse(FileManager.default.fileExists(atPath: sink.path + ".cut"), "no temporary file is left")
    }

    func testDiscardRemovesTheFileAndAnExistingFileIsNeverOverwritten() throws {
        let factory = try Self.factory()
        let sink = try factory.makeVoiceSink(directory: folder, voice: "host", sampleRate: 48_000,
                                             startedAt: Self.startedAt, blockWhenBehind: true)
        try Self.feed(sink, seconds: 1) { _ in 5 }
        XCTAssertThrowsError(try factory.makeVoiceSink(directory: folder, voice: "host", sampleRate: 48_000,
                                                       startedAt: Self.startedAt, blockWhenBehind: true))
        XCTAssertThrowsError(try factory.makeVoiceSink(directory: folder, voice: "../escape", sampleRate: 48_000,
                                                       startedAt: Self.startedAt, blockWhenBehind: true))
        sink.discard()
        XCTAssertFalse(FileManager.default.fileExists(atPath: sink.path))
    }
}

/// A process killed (SIGKILL) while it writes a voice file: the file must read with the length of what was
/// written up to its last size sync (every half second of sound), in ffprobe and in sox, though no trailer came.
/// The writing process is this test binary again, running `testWritesUntilKilled`, which only runs when the
/// parent sets `PAUSECAM_BWF_KILL_FOLDER`.
final class BroadcastWaveKillTests: XCTestCase {
    private static let folderVariable = "PAUSECAM_BWF_KILL_FOLDER"

    func testWritesUntilKilled() throws {
        guard let folder = ProcessInfo.processInfo.environment[Self.folderVariable] else {
            throw XCTSkip("runs only as the child of testAKilledWriterLeavesAReadableFileOfTheLengthWritten")
        }
        let sink = try BroadcastWaveWriterTests.factory().makeVoiceSink(
            directory: folder, voice: "host", sampleRate: 48_000, startedAt: BroadcastWaveWriterTests.startedAt,
            blockWhenBehind: true)
        // 3.2 s: synced at every half second through 3 s; the last 0.2 s may or may not reach the disk.
        try BroadcastWaveWriterTests.feed(sink, seconds: 3) { Int16(truncatingIfNeeded: $0) }
        for chunk in 0..<10 {
            let first = 144_000 + chunk * 960
            try sink.append((first..<(first + 960)).map { Int16(truncatingIfNeeded: $0) },
                            at: MediaTime(value: Int64(first), timescale: 48_000))
        }
        _ = FileManager.default.createFile(atPath: folder + "/handed-over", contents: nil)
        // Waits to be killed; the parent kills it as soon as the file says 3 s, or gives up.
        _ = DispatchSemaphore(value: 0).wait(timeout: .now() + 120)
    }

    func testAKilledWriterLeavesAReadableFileOfTheLengthWritten() throws {
        let folder = NSTemporaryDirectory() + "pausecam-bwf-kill-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let wave = folder + "/host.wav"
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["PauseCamSystemTests.BroadcastWaveKillTests/testWritesUntilKilled"]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.folderVariable: folder]) { $1 }
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        defer { if child.isRunning { kill(child.processIdentifier, SIGKILL); child.waitUntilExit() } }

        // Until the child has handed everything over and its header says at least 3 s (or a minute passes).
        let deadline = Date().addingTimeInterval(60)
        var samples: Int?
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: folder + "/handed-over"),
               let count = try BroadcastWaveWriterTests.soxSamples(wave), count >= 144_000, count < 1_000_000 {
                samples = count
                break
            }
            XCTAssertTrue(child.isRunning, "the child writes until it is killed")
            guard child.isRunning else { return }
            usleep(20_000)
        }
        XCTAssertEqual(samples, 144_000, "the header says the 3 s synced, whatever is still in the muxer's buffer")
        XCTAssertEqual(kill(child.processIdentifier, SIGKILL), 0)
        child.waitUntilExit()
        XCTAssertEqual(child.terminationReason, .uncaughtSignal)

        XCTAssertEqual(try BroadcastWaveWriterTests.soxSamples(wave), 144_000, "sox reads the length written")
        let format = try MovieWriterFixture.probe(wave, ["-show_format"])["format"] as? [String: Any]
        XCTAssertEqual(MovieWriterFixture.double(format?["duration"]), 3.0, "ffprobe too")
        let decoded = try BroadcastWaveWriterTests.decoded(wave)
        XCTAssertEqual(decoded.count, 144_000)
        XCTAssertTrue(decoded == (0..<144_000).map { Int16(truncatingIfNeeded: $0) }, "every sample written is there")
        XCTAssertEqual((format?["tags"] as? [String: Any])?["time_reference"] as? String,
                       String(BroadcastWaveWriterTests.expectedReference))
    }
}
