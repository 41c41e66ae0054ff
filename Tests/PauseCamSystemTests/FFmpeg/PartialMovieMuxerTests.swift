import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// The fragmented `.partial` on a disk that fills mid-write: the failed write leaves part of a fragment, and closing
/// cuts the file back to the last whole fragment, so every box in it is whole.
final class PartialMovieMuxerTests: XCTestCase {
    private var mountPoint: String?

    override func tearDown() {
        if let mountPoint { _ = try? Self.runTool("/bin/umount", [mountPoint]) }
        super.tearDown()
    }

    func testAWriteThatFillsTheDiskIsCutBackToTheLastWholeFragment() throws {
        let directory = try MovieWriterFixture.directory("torn")
        guard try Self.runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", directory]) == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (needs root and mount rights)")
        }
        mountPoint = directory
        let path = directory + "/clip.mov.partial"
        let settings = MovieWriterFixture.settings(audio: false, width: 320, height: 180)
        let encoder = try VideoEncoder(settings: settings, globalHeader: true)
        let muxer = try PartialMovieMuxer(path: path, container: .mov)
        let stream = try muxer.addStream(from: encoder.context)
        try muxer.open(container: .mov)
        let stage = PartialMuxerStage(muxer: muxer, videoStream: stream, audioStreams: [])
        let scaler = CanvasScaler(width: 320, height: 180)
        // Noise compresses badly: the small disk fills within a few fragments (every 15th frame a keyframe).
        var failure: Error?
        for index in 0..<3_000 where failure == nil {
            let canvas = try scaler.scale(FileWritingTests.noisyFrame(width: 320, height: 180))
            defer { scaler.recycle(canvas) }
            do {
                try encoder.encode(canvas, at: MediaTime(value: Int64(index), timescale: 30), keyframe: index % 15 == 0,
                                   emit: { try stage.write($0) })
            } catch {
                failure = error
            }
        }
        let error = try XCTUnwrap(failure, "the disk never filled")
        XCTAssertTrue("\(error)".contains("No space left on device"), "\(error)")
        XCTAssertTrue(muxer.torn)
        stage.close()
        XCTAssertNil(muxer.cutBackFailure)

        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(Self.wholeBoxesEnd(bytes), bytes.count, "the file ends in a torn box")
        let probed = try MovieWriterFixture.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                            "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
                                                            path])
        XCTAssertEqual(probed.err, "")
        let frames = Int(String(decoding: probed.out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertGreaterThan(frames ?? 0, 0, "the whole fragments are kept")
    }

    /// Where the run of whole top-level boxes of `bytes` ends (`bytes.count` when the last box is whole).
    static func wholeBoxesEnd(_ bytes: Data) -> Int {
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if size == 1, offset + 16 <= bytes.count { size = bytes[offset + 8 ..< offset + 16].reduce(0) { $0 << 8 | Int($1) } }
            if size == 0 { size = bytes.count - offset }
            guard size >= 8, offset + size <= bytes.count else { return offset }
            offset += size
        }
        return offset
    }

    private static func runTool(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
