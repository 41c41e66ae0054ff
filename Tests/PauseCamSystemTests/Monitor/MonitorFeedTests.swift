import Foundation
import XCTest
import PauseCamCore
@testable import PauseCamSystem
import PauseCamVirtual

/// The live monitor's pictures: made only while someone watches, from the program's lens (and its digital zoom)
/// and from every lens for the tiles, as JPEGs that real ffprobe and ffmpeg read back at the right size and colour.
final class MonitorFeedTests: XCTestCase {
    static let colors = ["wide": "#d03030", "main": "#20c040", "tele": "#3050e0"]

    // MARK: The engine on the simulated clock

    func testNothingIsMadeOrKeptWhileNobodyWatches() throws {
        let engine = Engine()
        XCTAssertTrue(engine.runner.perform(.wait(.seconds(1))).ok)
        engine.feed.offer(Self.solidFrame(lens: "main", color: "#20c040", width: 64, height: 36, pts: .seconds(2)))
        engine.feed.waitForWorker()
        XCTAssertEqual(engine.counter.monitorRounds, 0, "the worker ran while nobody watched")
        XCTAssertNil(engine.feed.programPicture(after: 0, timeoutSeconds: 0))
        XCTAssertNil(engine.feed.lensPicture("main"))
        engine.stop()
    }

    func testAWatchedIdleEngineShowsTheProgramLensThenTheLensSwitchedToAndATilePerLens() throws {
        let engine = Engine()
        engine.feed.startWatching()
        XCTAssertTrue(engine.runner.perform(.wait(.milliseconds(500))).ok)
        XCTAssertEqual(engine.controller.clips.recorder?.session.state, nil, "idle: the intake is closed")

        let first = try XCTUnwrap(engine.feed.programPicture(after: 0, timeoutSeconds: 60))
        let shown = try Self.decode(first)
        XCTAssertEqual(shown.width, 320)
        XCTAssertEqual(shown.height, 180)
        XCTAssertEqual(first.width, 320)
        XCTAssertEqual(first.height, 180)
        Self.assertColor(shown.centre, "#20c040", "the default lens, main")

        engine.feed.waitForWorker()
        for (lens, color) in Self.colors {
            let tile = try XCTUnwrap(engine.feed.lensPicture(lens), "no tile for \(lens)")
            let decoded = try Self.decode(tile)
            XCTAssertEqual(decoded.width, 320, lens)
            XCTAssertEqual(decoded.height, 180, lens)
            Self.assertColor(decoded.centre, color, "tile of \(lens)")
        }

        XCTAssertTrue(engine.runner.perform(.lens(.named("tele"))).ok)
        let before = try XCTUnwrap(engine.feed.programPicture(after: 0, timeoutSeconds: 0)).sequence
        XCTAssertTrue(engine.runner.perform(.wait(.milliseconds(300))).ok)
        let next = try XCTUnwrap(engine.feed.programPicture(after: before, timeoutSeconds: 60))
        // The worker runs beside the simulated loop, so one or more pictures may come in the 300 ms; every one
        // made after the switch, the newest included, shows tele (a picture begun before it is dropped).
        XCTAssertGreaterThan(next.sequence, before)
        Self.assertColor(try Self.decode(next).centre, "#3050e0", "after `lens tele`")
        XCTAssertEqual(engine.feed.failures.count, 0, engine.feed.failures.last ?? "")
        engine.stop()
    }

    // MARK: Offered directly

    func testTheProgramIsAtMost960WideAndCroppedToTheDigitalZoomLikeTheMovie() throws {
        let feed = MonitorFeed(programLens: "main")
        feed.startWatching()
        // Blue, with a green centre of half the size: a 2× zoom shows only the green.
        let frame = Self.frameWithCentre(lens: "main", width: 1280, height: 720, outside: "#3050e0", centre: "#20c040")
        feed.offer(frame)
        let whole = try XCTUnwrap(feed.programPicture(after: 0, timeoutSeconds: 60))
        let wholeShown = try Self.decode(whole)
        XCTAssertEqual([wholeShown.width, wholeShown.height], [960, 540])
        Self.assertColor(wholeShown.corner, "#3050e0", "no zoom: the corner is outside the centre")

        feed.programChanged(lens: "main", digitalZoom: 2)
        let zoomed = try XCTUnwrap(feed.programPicture(after: whole.sequence, timeoutSeconds: 60))
        let zoomedShown = try Self.decode(zoomed)
        XCTAssertEqual([zoomedShown.width, zoomedShown.height], [960, 540])
        Self.assertColor(zoomedShown.corner, "#20c040", "2× digital zoom: only the centre")
        XCTAssertEqual(zoomed.captureTime, frame.pts)
        feed.close()
    }

    func testTilesAreMadeFromYUYVAndFromAnMJPEGCamerasUndecodedJPEG() throws {
        let feed = MonitorFeed(programLens: "main")
        feed.startWatching()
        let jpeg = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=0xd03030:s=640x360",
                                                         "-frames:v", "1", "-f", "mjpeg", "-"]).out
        XCTAssertGreaterThan(jpeg.count, 100)
        feed.offer(VideoFrame(pts: .seconds(1), width: 640, height: 360, format: .jpeg,
                              planes: [Plane(bytes: [UInt8](jpeg), stride: 0)], lens: "wide", range: .full))
        feed.offer(Self.yuyvFrame(lens: "tele", color: "#3050e0", width: 1280, height: 720, pts: .seconds(1)))
        feed.waitForWorker()
        let wide = try Self.decode(try XCTUnwrap(feed.lensPicture("wide")))
        XCTAssertEqual([wide.width, wide.height], [320, 180])
        Self.assertColor(wide.centre, "#d03030", "the MJPEG lens's tile")
        let tele = try Self.decode(try XCTUnwrap(feed.lensPicture("tele")))
        XCTAssertEqual([tele.width, tele.height], [320, 180])
        Self.assertColor(tele.centre, "#3050e0", "the YUYV lens's tile")
        XCTAssertNil(feed.lensPicture("main"), "main offered nothing")
        XCTAssertNil(feed.programPicture(after: 0, timeoutSeconds: 0), "the program lens, main, has no frame")
        XCTAssertEqual(feed.failures.count, 0, feed.failures.last ?? "")
        feed.close()
    }

    /// While someone watches, an MJPEG frame that makes a program picture is decoded once for the monitor and the
    /// movie together: the movie's scaler takes the monitor's decoded picture. Unwatched, the scaler decodes.
    func testTheMovieTakesTheProgramPicturesDecodeInsteadOfDecodingTheFrameAgain() throws {
        let jpeg = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=0x20c040:s=640x360",
                                                         "-frames:v", "1", "-f", "mjpeg", "-"]).out
        func frame(_ seconds: Int64) -> VideoFrame {
            VideoFrame(pts: .seconds(seconds), width: 640, height: 360, format: .jpeg,
                       planes: [Plane(bytes: [UInt8](jpeg), stride: 0)], lens: "main", range: .full)
        }
        let feed = MonitorFeed(programLens: "main")
        feed.startWatching()
        let watched = frame(1)
        feed.offer(watched)
        feed.waitForWorker()
        XCTAssertNotNil(feed.programPicture(after: 0, timeoutSeconds: 0), "the program picture was made")
        let movieCounter = CanvasCounter()
        let movie = CanvasScaler(width: 640, height: 360, hooks: movieCounter)
        let canvas = try movie.scale(watched)
        movie.recycle(canvas)
        XCTAssertEqual(movieCounter.decodedJPEGs, 0, "the movie decoded a frame the monitor had decoded")
        feed.stopWatching()
        feed.close()

        let unwatched = frame(2)
        let aloneCounter = CanvasCounter()
        let alone = CanvasScaler(width: 640, height: 360, hooks: aloneCounter)
        alone.recycle(try alone.scale(unwatched))
        XCTAssertEqual(aloneCounter.decodedJPEGs, 1, "with nobody watching the movie decodes its own frames")
    }

    func testWaitingForAProgramPictureEndsWithNilAfterItsTimeoutAndAtClose() throws {
        let feed = MonitorFeed(programLens: "main")
        feed.startWatching()
        XCTAssertNil(feed.programPicture(after: 0, timeoutSeconds: 0.2), "no frame came")

        let returned = DispatchSemaphore(value: 0)
        let result = Mutexed<MonitorPicture??>(nil)
        Thread.detachNewThread {
            result.set(feed.programPicture(after: 0, timeoutSeconds: 600))
            returned.signal()
        }
        let deadline = Date() + 60
        while feed.waitingViewers == 0 && Date() < deadline { usleep(1000) }
        XCTAssertEqual(feed.waitingViewers, 1, "the viewer never started waiting")
        feed.close()
        XCTAssertEqual(returned.wait(timeout: .now() + 60), .success, "close left a viewer waiting")
        XCTAssertEqual(result.value.map { $0 == nil }, true, "a viewer woken by close gets no picture")
    }

    func testTenThousandOffersWithNobodyReadingAllReturn() throws {
        let feed = MonitorFeed(programLens: "main")
        feed.startWatching()
        let frame = Self.solidFrame(lens: "main", color: "#20c040", width: 320, height: 180, pts: .zero)
        let offered = Mutexed(0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for index in 0..<10_000 {
                var next = frame
                next.pts = MediaTime(value: Int64(index), timescale: 30)
                feed.offer(next)
                offered.set(index + 1)
            }
            done.signal()
        }
        _ = done.wait(timeout: .now() + 120)
        XCTAssertEqual(offered.value, 10_000, "offer blocked with nobody reading")
        feed.waitForWorker()
        XCTAssertNotNil(feed.programPicture(after: 0, timeoutSeconds: 0))
        XCTAssertEqual(feed.failures.count, 0, feed.failures.last ?? "")
        feed.close()
    }

    // MARK: Fixtures

    /// A value shared with a thread the test starts.
    final class Mutexed<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Value
        init(_ value: Value) { stored = value }
        var value: Value { lock.withLock { stored } }
        func set(_ value: Value) { lock.withLock { stored = value } }
    }

    /// The engine on the virtual rig (three 320×180 lenses, default main) and the simulated clock, with a feed.
    struct Engine {
        let counter = CanvasCounter()
        let feed: MonitorFeed
        let serialContext = SimulatedSerialContext()
        let controller: RigController
        let runner: ScriptRunner

        init() {
            feed = MonitorFeed(programLens: "main", hooks: counter)
            let lenses = ["wide", "main", "tele"].map { name in
                Rig.Lens(name: name, source: .virtual(color: RGBColor(hex: MonitorFeedTests.colors[name]!)!),
                         width: 320, height: 180, rate: FrameRate(30))
            }
            let rig = Rig(name: "Monitor rig", output: Rig.OutputSettings(width: 320, height: 180, rate: FrameRate(30)),
                          audio: Rig.AudioInput(device: .none), lenses: lenses, defaultLens: "main")
            var cameras: [String: any Camera] = [:]
            for lens in lenses {
                guard case .virtual(let color) = lens.source else { continue }
                cameras[lens.name] = VirtualLens(lens: lens.name, color: color, width: 320, height: 180,
                                                 rate: FrameRate(30), serialContext: serialContext)
            }
            let hub = DeviceHub(rig: rig, cameras: cameras, microphone: nil, serialContext: serialContext,
                                devices: InlineWorker(), monitor: feed, notify: { _ in })
            let clips = ClipController(rig: rig, sinkFactory: MovieWriterFactory(), store: AtomicSidecarStore(),
                                       serialContext: serialContext, wallClock: { Date(timeIntervalSince1970: 1_800_000_000) },
                                       outputDirectory: NSTemporaryDirectory(), finishing: InlineWorker(), notify: { _ in })
            controller = RigController(rig: rig, devices: hub, clips: clips, serialContext: serialContext, monitor: feed,
                                       notify: { _ in })
            runner = ScriptRunner(controller: controller, serialContext: serialContext)
            serialContext.perform { [controller] in controller.startDevices() }
        }

        func stop() {
            serialContext.perform { [controller] in controller.stopDevices() }
            feed.close()
        }
    }

    /// A monitor picture as real ffmpeg reads it: its size, and the mean colour of an 8×8 patch at its centre and
    /// near its top-left corner.
    struct Decoded {
        var width: Int, height: Int
        var centre: [Int], corner: [Int]
    }

    static func decode(_ picture: MonitorPicture) throws -> Decoded {
        let path = NSTemporaryDirectory() + "pausecam-monitor-\(UUID().uuidString).jpg"
        try Data(picture.jpeg).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (probe, probeError) = try MovieWriterFixture.run("ffprobe", [
            "-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", path])
        let fields = String(decoding: probe, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: ",").map(String.init)
        XCTAssertEqual(fields.first, "mjpeg", probeError)
        guard fields.count == 3, let width = Int(fields[1]), let height = Int(fields[2]) else {
            throw XCTSkip("ffprobe said \(fields) \(probeError)")
        }
        func patch(_ x: String, _ y: String) throws -> [Int] {
            let (data, error) = try MovieWriterFixture.run("ffmpeg", [
                "-v", "error", "-i", path, "-vf", "crop=8:8:\(x):\(y),scale=1:1:flags=area",
                "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
            XCTAssertEqual(data.count, 3, error)
            return [UInt8](data).map(Int.init)
        }
        return Decoded(width: width, height: height, centre: try patch("(iw-8)/2", "(ih-8)/2"), corner: try patch("4", "4"))
    }

    /// `rgb` is `hex` within JPEG and YUV rounding.
    static func assertColor(_ rgb: [Int], _ hex: String, _ what: String, file: StaticString = #filePath,
                            line: UInt = #line) {
        let color = RGBColor(hex: hex)!
        let wanted = [Int(color.red), Int(color.green), Int(color.blue)]
        XCTAssertEqual(rgb.count, 3, what, file: file, line: line)
        for (got, expected) in zip(rgb, wanted) where abs(got - expected) > 12 {
            XCTFail("\(what): got RGB \(rgb), wanted \(wanted) (\(hex))", file: file, line: line)
            return
        }
    }

    /// A solid yuv420p frame (BT.601 limited range, as the virtual lenses paint).
    static func solidFrame(lens: String, color: String, width: Int, height: Int, pts: MediaTime) -> VideoFrame {
        frameWithCentre(lens: lens, width: width, height: height, outside: color, centre: color, pts: pts)
    }

    /// A yuv420p frame in `outside` with a centred rectangle of half its size in `centre`.
    static func frameWithCentre(lens: String, width: Int, height: Int, outside: String, centre: String,
                                pts: MediaTime = .seconds(1)) -> VideoFrame {
        let out = TestPatternPainter.yuv(RGBColor(hex: outside)!), mid = TestPatternPainter.yuv(RGBColor(hex: centre)!)
        func plane(_ w: Int, _ h: Int, _ outValue: UInt8, _ midValue: UInt8) -> Plane {
            var bytes = [UInt8](repeating: outValue, count: w * h)
            for row in (h / 4)..<(h * 3 / 4) {
                for column in (w / 4)..<(w * 3 / 4) { bytes[row * w + column] = midValue }
            }
            return Plane(bytes: bytes, stride: w)
        }
        return VideoFrame(pts: pts, width: width, height: height, format: .yuv420p,
                          planes: [plane(width, height, out.y, mid.y), plane(width / 2, height / 2, out.u, mid.u),
                                   plane(width / 2, height / 2, out.v, mid.v)], lens: lens)
    }

    /// A solid packed YUYV frame, as an uncompressed UVC camera delivers.
    static func yuyvFrame(lens: String, color: String, width: Int, height: Int, pts: MediaTime) -> VideoFrame {
        let (y, u, v) = TestPatternPainter.yuv(RGBColor(hex: color)!)
        let bytes = [UInt8](repeating: 0, count: width * height * 2).indices.map { index -> UInt8 in
            switch index % 4 {
            case 1: return u
            case 3: return v
            default: return y
            }
        }
        return VideoFrame(pts: pts, width: width, height: height, format: .yuyv422,
                          planes: [Plane(bytes: bytes, stride: width * 2)], lens: lens)
    }
}
