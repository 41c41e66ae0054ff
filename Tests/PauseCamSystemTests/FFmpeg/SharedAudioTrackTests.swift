import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// An ISO's writer takes the program writer's AAC packets (`SharedAudioTrack`) instead of encoding the sound again.
/// Its trouble must never reach the program: an ISO stopped early, or one that never opened, leaves the program's
/// audio thread free, on the simulated clock's blocking channels too, for more packets than an ISO's channel holds.
final class SharedAudioTrackTests: XCTestCase {
    /// 40 s of sound in one-second chunks (and of pictures, which the sound may not outlast): 1,875 AAC packets,
    /// more than an ISO's 1,000-packet channel.
    private static let seconds = 40

    private static func second(_ index: Int) -> AudioChunk {
        AudioChunk(pts: .seconds(Int64(index)), sampleRate: 48_000, channels: 1,
                   samples: (0..<48_000).map { Int16(truncatingIfNeeded: ($0 * 37 + index * 11) % 4000 - 2000) })
    }

    private func record(program: MovieWriter, frames: Int) throws {
        for index in 0..<frames {
            try program.appendVideo(MovieWriterFixture.solidFrame(width: 320, height: 180, y: UInt8(index % 200)),
                                    at: MediaTime(value: Int64(index), timescale: 30), keyframe: index == 0)
        }
        for index in 0..<Self.seconds { try program.appendAudio(Self.second(index)) }
    }

    func testAnIsoAbortedBeforeTheSoundNeverHoldsUpTheProgram() throws {
        let folder = try MovieWriterFixture.directory("shared-abort")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let factory = MovieWriterFactory(warn: { _ in }, videoQueueLimit: 8)
        let program = try XCTUnwrap(try factory.makeSink(directory: folder, baseName: "program",
                                                         settings: MovieWriterFixture.settings()) as? MovieWriter)
        let iso = try factory.makeIsoSink(directory: folder + "/program.iso", baseName: "wide",
                                          settings: MovieWriterFixture.settings(), program: program)
        XCTAssertTrue(iso.takesProgramSound)
        iso.abort()
        try record(program: program, frames: Self.seconds * 30)
        let summary = try program.finish(chapters: [])
        XCTAssertEqual(summary.audioSamplesWritten, Self.seconds * 48_000, accuracy: 1024)
    }

    func testAnIsoThatNeverOpenedNeverHoldsUpTheProgramAndTheOthersGetEveryPacket() throws {
        let folder = try MovieWriterFixture.directory("shared-failed")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let factory = MovieWriterFactory(warn: { _ in }, videoQueueLimit: 8)
        let program = try XCTUnwrap(try factory.makeSink(directory: folder, baseName: "program",
                                                         settings: MovieWriterFixture.settings()) as? MovieWriter)
        var broken = MovieWriterFixture.settings()
        broken.preset = "no-such-preset"
        let failed = try factory.makeIsoSink(directory: folder + "/program.iso", baseName: "tele", settings: broken,
                                             program: program)
        let good = try factory.makeIsoSink(directory: folder + "/program.iso", baseName: "wide",
                                           settings: MovieWriterFixture.settings(), program: program)
        try record(program: program, frames: Self.seconds * 30)
        for index in 0..<Self.seconds * 30 {
            try good.appendVideo(MovieWriterFixture.solidFrame(width: 320, height: 180, y: 90),
                                 at: MediaTime(value: Int64(index), timescale: 30), keyframe: index == 0)
        }
        let programSummary = try program.finish(chapters: [])
        XCTAssertThrowsError(try failed.finish(chapters: []), "x264 refused the preset")
        let isoSummary = try good.finish(chapters: [])
        XCTAssertEqual(isoSummary.audioSamplesDropped, 0)
        let packets = { (path: String) throws -> [String] in
            let output = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-c", "copy",
                                                               "-f", "framemd5", "-"]).out
            return String(decoding: output, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
                .map(String.init)
        }
        let programPackets = try packets(programSummary.path)
        XCTAssertGreaterThan(programPackets.count, 1000)
        XCTAssertEqual(try packets(isoSummary.path), programPackets, "the program's packets, the flush's included")
    }
}
