import Foundation
import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// Encoders that cannot open: the error names the call, and the codec context is freed exactly once (it used to be
/// freed in `init` and again in `deinit`: a double free that ASan reports, and that glibc may abort on).
final class EncoderFailureTests: XCTestCase {
    func testAVideoEncoderWithAnUnknownPresetThrowsAndFreesItsContextOnce() {
        var settings = MovieWriterFixture.settings(audio: false)
        settings.preset = "no-such-preset"
        for _ in 0..<3 {
            XCTAssertThrowsError(try VideoEncoder(settings: settings, globalHeader: true)) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains("avcodec_open2(libx264 preset no-such-preset"), text)
            }
        }
    }

    func testAnAudioEncoderAtARateAACCannotUseThrowsAndFreesItsContextOnce() {
        for _ in 0..<3 {
            XCTAssertThrowsError(try AudioEncoder(settings: MovieSettings.AudioSettings(sampleRate: 12_345),
                                                  globalHeader: true)) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains("avcodec_open2(aac 12345 Hz"), text)
            }
        }
    }

    /// The encoders open on the writer's own thread (the serial context never waits for x264): an open that fails
    /// is the error of `finish`, and leaves nothing behind, not even the reserved `.partial`.
    func testAMovieWriterWhoseEncoderCannotOpenThrowsAndRemovesNothingElse() throws {
        let directory = try MovieWriterFixture.directory("bad-preset")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var settings = MovieWriterFixture.settings()
        settings.preset = "no-such-preset"
        let sink = try MovieWriterFactory(warn: { _ in }, videoQueueLimit: 8)
            .makeSink(directory: directory, baseName: "clip", settings: settings)
        _ = try? sink.appendVideo(MovieWriterFixture.movingFrame(width: 320, height: 180, index: 0), at: .zero,
                                  keyframe: true)
        XCTAssertThrowsError(try sink.finish(chapters: [])) { error in
            XCTAssertTrue("\(error)".contains("no-such-preset") || "\(error)".contains("avcodec_open2"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [],
                       "the reserved .partial is removed when the encoder cannot open")
    }
}
