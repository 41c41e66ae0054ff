import Foundation
import PauseCamCore

/// A camera that replays a movie file (`file: PATH` in a rig): users rehearse a script with real footage, and tests
/// and benchmarks get camera-like pictures and real JPEGs without hardware.
///
/// Timing: frames are captured on the file's own frame grid of the session clock, like a `VirtualLens`'s: frame k
/// of the file gets PTS = (g + k) × frame duration, g being the first grid point at or after `start`, and is
/// delivered through the serial context `deliveryLatency` after its PTS. So on the simulated clock the lens is driven by
/// the `SerialContext` and a run is deterministic; on the real clock it plays at the file's rate.
///
/// Pacing: a camera shows what happens *now*, so the file plays on the session's clock, not from its first frame
/// at every start. A lens started (a cold standby lens on a switch, a lens started again) at g begins with the
/// file's frame at g − `epoch`, the time since the lens was made with its session (modulo the file's length with
/// `loop: true`; past the end without loop it ends at once, as it would have had it run from the start).
///
/// Decoding: a decode thread per start reads the file with a `FileLensReader` (MJPEG undecoded, the
/// path a UVC camera's frames take; anything else through libavcodec into yuv420p) and keeps at most
/// `FileLens.lookahead` pictures ready in a `FileLensFeed`. At the end of the file, `loop: true` opens the file
/// again and goes on counting frames; otherwise the lens ends like an unplugged camera (`onEnd("end of file …")`).
/// The thread owns its reader (and so the C objects); it leaves when the lens stops or is released.
/// Sendable: what starts, ticks and stops share is one `Guarded` value; the C reader lives on its own thread.
public final class FileLens: Camera {
    public let displayName: String
    public let format: CameraFormat
    /// The rig role this lens serves; stamped on every frame.
    public let lens: String
    /// The movie file, as opened.
    public let path: String
    /// Whether the file starts over at its end (`loop: true`) instead of ending the lens.
    public let loops: Bool
    /// True when the file is MJPEG: its JPEGs go through the same decoder as a UVC camera's.
    public let isMJPEG: Bool
    /// The session-clock time the file's first frame stands for: when the lens was made (its session's start).
    public let epoch: MediaTime
    /// The file's length in frames at its own rate, when the container says; the loop's modulus.
    public let frameCount: Int64?

    private let serialContext: any SerialContext
    /// What `start`, `stop` and the ticks on the serial context share.
    private struct State {
        var running = false
        /// Counts starts and stops, so a tick of an earlier start stops by itself.
        var generation = 0
        var feed: FileLensFeed?
        var onEnd: (@Sendable (String) -> Void)?
        /// The reader opened by `init` to check the file, handed to the first start so the file is not opened twice.
        var prepared: FileLensReader?

        /// Stops delivery: ticks of the current start find another generation, and the decode thread's feed is
        /// cancelled.
        mutating func halt() {
            running = false
            generation += 1
            onEnd = nil
            feed?.cancel()
            feed = nil
        }
    }

    private let state: Guarded<State>

    /// How many decoded pictures the decode thread keeps ready: enough to absorb a slow frame, small enough that a
    /// 1080p lens holds a few megabytes, not a movie.
    public static let lookahead = 4

    /// How long after its capture time a frame is delivered; never zero, like a real camera's (see `VirtualLens`).
    public static let deliveryLatency = MediaTime.milliseconds(1)

    /// Opens `path` for the lens named `lens`, checking now that it is a movie FFmpeg can decode, so a missing or
    /// unreadable file is reported (with its path) before anything is recorded. `epoch` is the session-clock time
    /// of the file's first frame; by default now, when the session wires its lenses.
    public init(path: String, lens: String, loop: Bool, serialContext: any SerialContext, epoch: MediaTime? = nil) throws {
        let reader = try FileLensReader(path: path)
        self.epoch = epoch ?? serialContext.clock.now()
        frameCount = reader.frameCount
        self.path = path
        self.lens = lens
        self.loops = loop
        self.serialContext = serialContext
        format = reader.format
        isMJPEG = reader.isMJPEG
        displayName = "File \(lens) (\(PathText.lastComponent(of: path)))"
        state = Guarded(State(prepared: reader))
    }

    deinit { state.withLock { $0.feed?.cancel() } }

    /// What a file lens on `path` would deliver (its size, its own rate, `jpeg` when the file is MJPEG), read
    /// without making a lens: `check` judges a rig's ISOs with it before any session exists. Throws the
    /// `FileLensError` a lens on that path would.
    public static func format(ofMovieAt path: String) throws -> CameraFormat {
        try FileLensReader(path: path).format
    }

    public func start(deliver: @escaping @Sendable (VideoFrame) -> Void,
                      onEnd: @escaping @Sendable (String) -> Void) throws {
        let reader = try state.withLock { state -> FileLensReader? in
            defer { state.prepared = nil }
            return state.prepared
        } ?? FileLensReader(path: path)
        let feed = FileLensFeed(capacity: Self.lookahead)
        let myGeneration: Int = state.withLock { state in
            state.feed?.cancel()
            state.feed = feed
            state.running = true
            state.generation += 1
            state.onEnd = onEnd
            return state.generation
        }
        let duration = format.rate.frameDuration
        // The first grid point at or after now.
        let now = (try? serialContext.clock.now().rescaled(to: duration.timescale, rounding: .up).value) ?? 0
        let first = (now + duration.value - 1) / duration.value
        let fileFrame = startFrame(gridIndex: first)
        reader.seek(toFrame: fileFrame)
        let (path, lens, loops) = (self.path, self.lens, self.loops)
        let thread = Thread { FileLens.decode(first: reader, path: path, lens: lens, loop: loops, into: feed) }
        thread.name = "file lens \(lens)"
        thread.start()
        tick(frameIndex: first, generation: myGeneration, feed: feed, deliver: deliver)
    }

    /// The file's frame that grid point `gridIndex` (frame durations of the file since clock zero) shows: the
    /// frames elapsed since `epoch`, modulo the file's length when it loops; 0 when `epoch` is later, or when a
    /// looping file does not say its length.
    func startFrame(gridIndex: Int64) -> Int64 {
        let duration = format.rate.frameDuration
        guard let epochTicks = try? epoch.rescaled(to: duration.timescale, rounding: .up).value else { return 0 }
        let epochIndex = (epochTicks + duration.value - 1) / duration.value
        let elapsed = max(0, gridIndex - epochIndex)
        guard loops else { return elapsed }
        // A looping file of unknown length starts from its beginning (the only position known to exist).
        guard let frameCount, frameCount > 0 else { return 0 }
        return elapsed % frameCount
    }

    /// Decodes the file (again and again when looping) into `feed` until the feed is cancelled or the file ends.
    private static func decode(first: FileLensReader, path: String, lens: String, loop: Bool,
                               into feed: FileLensFeed) {
        var reader: FileLensReader? = first
        var picturesThisPass = 0
        while !feed.isCancelled {
            do {
                if reader == nil {
                    reader = try FileLensReader(path: path)
                    picturesThisPass = 0
                }
                if let picture = try reader!.nextFrame(pts: .zero, lens: lens) {
                    picturesThisPass += 1
                    guard feed.put(.picture(picture)) else { return }
                } else if loop && picturesThisPass > 0 {
                    reader = nil
                } else if loop {
                    _ = feed.put(.failure("movie file \(path) has no picture to loop"))
                    return
                } else {
                    _ = feed.put(.end)
                    return
                }
            } catch {
                _ = feed.put(.failure("\(error)"))
                return
            }
        }
    }

    private func tick(frameIndex: Int64, generation myGeneration: Int, feed: FileLensFeed,
                      deliver: @escaping @Sendable (VideoFrame) -> Void) {
        let duration = format.rate.frameDuration
        let pts = MediaTime(value: frameIndex * duration.value, timescale: duration.timescale)
        serialContext.schedule(at: pts + Self.deliveryLatency) { [weak self] in
            guard let self, self.isCurrent(myGeneration), let item = feed.take() else { return }
            switch item {
            case .picture(var frame):
                guard self.isCurrent(myGeneration) else { return }
                frame.pts = pts
                deliver(frame)
                self.tick(frameIndex: frameIndex + 1, generation: myGeneration, feed: feed, deliver: deliver)
            case .end:
                self.end(myGeneration, reason: "end of file \(self.path)")
            case .failure(let reason):
                self.end(myGeneration, reason: reason)
            }
        }
    }

    private func isCurrent(_ myGeneration: Int) -> Bool {
        state.withLock { $0.running && $0.generation == myGeneration }
    }

    /// The lens ended by itself (end of file, a read error): frames stop and `onEnd` is called once.
    private func end(_ myGeneration: Int, reason: String) {
        let end: (@Sendable (String) -> Void)? = state.withLock { state in
            guard state.running, state.generation == myGeneration else { return nil }
            defer { state.halt() }
            return state.onEnd
        }
        end?(reason)
    }

    public func stop() {
        state.withLock { $0.halt() }
    }

    /// True while frames are being delivered.
    public var isRunning: Bool { state.withLock { $0.running } }
}
