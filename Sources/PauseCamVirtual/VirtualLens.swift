import Foundation
import PauseCamCore

/// A camera that draws PauseCam's documented test pattern, so the whole pipeline runs without hardware.
///
/// The contract (tests measure it in decoded movies, so change it only with them):
/// - a solid background in the lens's colour;
/// - a moving white bar, `width/32` wide, in the bottom eighth of the frame, one full sweep every 2 s, so the
///   encoder has real work;
/// - a centred square outline, white, 4 px thick, whose side is half the frame height (digital zoom is measured by
///   how large it appears);
/// - the sync flash: the top-left square, side a quarter of the frame height, is white on the first frame at or
///   after each whole second of the clock and black on every other frame.
///
/// Frames are captured on the clock's frame grid (PTS = k × frame duration) and delivered through the serial context
/// `deliveryLatency` after their PTS, on the serial context. The static parts are drawn once; each frame copies them and draws only the bar
/// and the flash.
public final class VirtualLens: Camera, Sendable {
    public let displayName: String
    public let format: CameraFormat
    /// The rig role this lens serves; stamped on every frame.
    public let lens: String
    public let color: RGBColor

    private let serialContext: any SerialContext
    /// Started and stopped from the device worker, read by the ticks on the serial context.
    private struct State {
        var running = false
        /// Bumped by every start and stop, so the ticks of an earlier run end.
        var generation = 0
        var previousPTS: MediaTime?
        var onEnd: (@Sendable (String) -> Void)?
        var startCount = 0
    }

    private let state = Guarded(State())
    /// How many times `start` was called (tests of cold standby count camera openings).
    public var startCount: Int { state.withLock { $0.startCount } }
    private let base: [Plane]
    /// How long after `start` the first frame is captured: a real camera takes a few hundred milliseconds to
    /// stream after it is opened, which is what cold standby and plug-to-switch must bridge. Zero by default.
    public let startupDelay: MediaTime

    /// A lens named `lens` drawing in `color` at `width`×`height` and `rate`, ticking on `serialContext`; its first
    /// frame comes `startupDelay` after each start.
    public init(lens: String, color: RGBColor, width: Int, height: Int, rate: FrameRate, serialContext: any SerialContext,
                startupDelay: MediaTime = .zero) {
        self.startupDelay = startupDelay
        precondition(width % 2 == 0 && height % 2 == 0 && width >= 16 && height >= 16, "even size ≥ 16 expected")
        self.lens = lens
        self.color = color
        self.displayName = "Virtual \(lens) (\(color))"
        self.format = CameraFormat(width: width, height: height, rate: rate, pixelFormat: .yuv420p)
        self.serialContext = serialContext
        self.base = TestPatternPainter.staticPlanes(width: width, height: height, color: color)
    }

    public func start(deliver: @escaping @Sendable (VideoFrame) -> Void,
                      onEnd: @escaping @Sendable (String) -> Void) throws {
        let myGeneration: Int = state.withLock { state in
            state.running = true
            state.generation += 1
            state.previousPTS = nil
            state.onEnd = onEnd
            state.startCount += 1
            return state.generation
        }
        let now = serialContext.clock.now() + startupDelay
        let duration = format.rate.frameDuration
        // The first grid point at or after now (plus the start-up delay).
        let index = (try? now.subtracting(.zero).rescaled(to: duration.timescale, rounding: .up).value) ?? 0
        let ticks = (index + duration.value - 1) / duration.value
        tick(frameIndex: ticks, generation: myGeneration, deliver: deliver)
    }

    private func tick(frameIndex: Int64, generation myGeneration: Int, deliver: @escaping @Sendable (VideoFrame) -> Void) {
        let duration = format.rate.frameDuration
        let pts = MediaTime(value: frameIndex * duration.value, timescale: duration.timescale)
        serialContext.schedule(at: pts + VirtualLens.deliveryLatency) { [weak self] in
            guard let self else { return }
            let previous: MediaTime?? = self.state.withLock { state in
                guard state.running, state.generation == myGeneration else { return .none }
                let previous = state.previousPTS
                state.previousPTS = pts
                return .some(previous)
            }
            guard case .some(let previousPTS) = previous else { return }
            deliver(self.render(pts: pts, previous: previousPTS))
            self.tick(frameIndex: frameIndex + 1, generation: myGeneration, deliver: deliver)
        }
    }

    /// How long after its capture time a frame is delivered. Like a real camera's, it is never zero, so a command
    /// given at a frame's exact capture time is always on the "before" side of that frame.
    public static let deliveryLatency = MediaTime.milliseconds(1)

    /// Draws the frame captured at `pts` (public so tests and benchmarks can render without a serialContext).
    public func render(pts: MediaTime, previous: MediaTime?) -> VideoFrame {
        var planes = base
        let flash = SyncSchedule.isFlashFrame(pts: pts, previous: previous)
        TestPatternPainter.drawDynamic(into: &planes, width: format.width, height: format.height, pts: pts,
                                       flash: flash)
        return VideoFrame(pts: pts, width: format.width, height: format.height, format: .yuv420p, planes: planes,
                          lens: lens)
    }

    public func stop() {
        state.withLock { state in
            state.running = false
            state.generation += 1
            state.onEnd = nil
        }
    }

    /// True while frames are being delivered.
    public var isRunning: Bool { state.withLock { $0.running } }

    /// Behaves like a camera pulled out mid-stream: frames stop and `onEnd` is called once with `reason`. For
    /// fault tests and demos of the unplug fallback.
    public func unplug(reason: String = "unplugged") {
        let end: (@Sendable (String) -> Void)? = state.withLock { state in
            let end = state.running ? state.onEnd : nil
            state.running = false
            state.generation += 1
            state.onEnd = nil
            return end
        }
        end?(reason)
    }
}
