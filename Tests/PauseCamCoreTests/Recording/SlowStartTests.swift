import XCTest
@testable import PauseCamCore

/// A camera that delivers from its own thread (as V4L2 capture threads do) while `record` is still opening the
/// movie: the frames captured from the command's time on belong to the clip, however long the opening takes.
final class SlowStartTests: XCTestCase {
    /// A camera the test drives by hand: `send` is what a capture thread does with each frame.
    final class ManualCamera: Camera, @unchecked Sendable {
        let displayName = "Manual camera"
        let format = CameraFormat(width: 64, height: 36, rate: FrameRate(30), pixelFormat: .yuv420p)
        private var deliver: (@Sendable (VideoFrame) -> Void)?
        func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) {
            self.deliver = deliver
        }
        func stop() { deliver = nil }
        func send(at pts: MediaTime) {
            deliver?(VideoFrame(pts: pts, width: 64, height: 36, format: .yuv420p,
                                planes: [Plane(bytes: [UInt8](repeating: 100, count: 64 * 36), stride: 64),
                                         Plane(bytes: [UInt8](repeating: 128, count: 32 * 18), stride: 32),
                                         Plane(bytes: [UInt8](repeating: 128, count: 32 * 18), stride: 32)],
                                lens: "main"))
        }
    }

    /// Opens recording sinks, but first runs `whileOpening` (the capture thread going on meanwhile).
    final class SlowSinkFactory: MovieSinkFactory {
        let inner = RecordingSinkFactory()
        var whileOpening: () -> Void = {}
        func makeSink(directory: String, baseName: String, settings: MovieSettings) throws -> any MovieSink {
            whileOpening()
            return try inner.makeSink(directory: directory, baseName: baseName, settings: settings)
        }
    }

    func testFramesCapturedWhileTheMovieOpensAreInTheClip() throws {
        var rig = EngineFixture.makeRig()
        rig.lenses = rig.lenses.filter { $0.name == "main" }
        rig.defaultLens = "main"
        let serialContext = SimulatedSerialContext()
        let camera = ManualCamera()
        let factory = SlowSinkFactory()
        let controller = EngineFixture.makeController(rig: rig, cameras: ["main": camera], microphone: nil, sinkFactory: factory,
                                       store: MemorySidecarStore(), serialContext: serialContext,
                                       wallClock: { Date(timeIntervalSince1970: 0) }, outputDirectory: "/v",
                                       finishing: InlineWorker(), devices: InlineWorker(), notify: { _ in })
        serialContext.perform { controller.startDevices() }
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        let start = runner.now
        let frame = FrameRate(30).frameDuration
        func captured(_ k: Int64) -> MediaTime { start + .milliseconds(1) + (try! frame.multiplied(by: k)) }
        // Frame 0 is captured (1 ms after the command) while the movie is still opening.
        factory.whileOpening = { camera.send(at: captured(0)) }
        XCTAssertTrue(runner.perform(.record(name: nil)).ok)
        for k in Int64(1)...30 {
            serialContext.advance(until: captured(k))
            camera.send(at: captured(k))
        }
        serialContext.advance(until: captured(30) + .milliseconds(1))
        let clip = try XCTUnwrap(runner.finishClip())
        // Stopped just after frame 30: frames 0…30 are the clip, 31 frames. Frame 0 lost would leave 30.
        XCTAssertEqual(factory.inner.sinks.first?.video.count, 31)
        XCTAssertEqual(clip.sidecar.duration, 31.0 / 30, accuracy: 1e-9)
    }
}
