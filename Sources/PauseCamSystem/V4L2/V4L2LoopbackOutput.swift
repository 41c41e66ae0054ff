import Foundation
import PauseCamCore

/// The program as a webcam: writes every program frame it is given to a v4l2loopback device at the program's size,
/// as planar I420 ("YU12", the default) or packed YUYV, so a browser, a video-call app or `ffplay` reading the device
/// sees PauseCam's picture, whatever the recording does.
///
/// Threads: `appendVideo` (the serial context) only hands the frame to a one-frame `BoundedChannel` whose policy is
/// `.dropOldest` — the newest frame wins, and a slow device costs webcam frames, never the caller's time (a
/// benchmark on the simulated clock asks for `.block` instead, so every frame is written and counted). The writer
/// thread makes each picture (`WebcamPicturePacker`: a copy when the frame already is the picture, nothing when it
/// repeats the one before) and writes it.
///
/// A write that fails (`ENODEV`: the module was unloaded or the device removed) loses the device: `onLost` is told
/// once, on the writer thread, and the device is closed. When the output was given a way to `reopen` the device,
/// the writer then tries it at most once every `reopenInterval`, on its own thread as frames come (opening a node is
/// quick, and nothing else waits for it); the first one that opens and takes the same format brings the webcam
/// back, told through `onBack`. Without `reopen` the output stays ended. The recording is not this type's business.
/// `close()` (any thread, also from the callbacks) stops the writer and closes the device.
public final class V4L2LoopbackOutput: LiveSink, Sendable {
    /// The device node, as the user named it or as its label resolved (the node reopened, after a return).
    public var name: String { path.withLock { $0 } }
    /// What the device took: the layout and the program's size.
    public let format: V4L2NegotiatedFormat
    /// The rate the readers are told, when the driver takes one.
    public let rate: FrameRate?

    /// How many frames reached the device, and whether it is lost now (and why).
    public struct Statistics: Sendable, Equatable {
        /// Frames written whole.
        public var framesWritten = 0
        /// Of those, frames that were already the picture and were copied, not converted.
        public var framesCopied = 0
        /// Of those, frames that repeated the picture before (the same pixels): written again, not made again.
        public var framesRepeated = 0
        /// Frames that could not be drawn (a torn JPEG): the readers keep the previous picture.
        public var framesNotDrawn = 0
        /// Frames a newer one replaced before the writer took them.
        public var framesReplaced = 0
        /// Frames that came while the device was lost.
        public var framesWhileLost = 0
        /// Why the device is lost now; nil while it is written (again).
        public var lost: V4L2LoopbackError?
        /// Times the device was lost, and times it came back.
        public var losses = 0
        public var returns = 0
    }

    private let path: Guarded<String>
    private let device: Guarded<(any V4L2LoopbackDevice)?>
    private let frames: BoundedChannel<VideoFrame>
    private let writer = CaptureThread()
    private let counts = Guarded(Statistics())
    private let onLost: @Sendable (V4L2LoopbackError) -> Void
    private let reopen: (@Sendable () throws -> any V4L2LoopbackDevice)?
    private let reopenInterval: Duration
    private let onBack: @Sendable (String) -> Void

    /// Checks that `device` is a loopback that takes a writer, sets `pixelFormat` (`.yuv420` or `.yuyv`) at
    /// `width`×`height` (made even) and `rate`, and starts the writer thread. Throws `V4L2LoopbackError` (not a
    /// loopback, busy, format refused, a failed call); the device is then closed. `onLost` hears each loss of the
    /// device, `onBack` (with the node's path) each return; `reopen` opens the device again after a loss (nil: a
    /// loss ends the output). `blockWhenBehind` makes a frame wait for the writer instead of replacing the one
    /// waiting: for a benchmark on the simulated clock only.
    public init(device: any V4L2LoopbackDevice, pixelFormat: V4L2PixelFormat = .yuv420, width: Int, height: Int,
                rate: FrameRate, blockWhenBehind: Bool = false,
                reopen: (@Sendable () throws -> any V4L2LoopbackDevice)? = nil, reopenInterval: Duration = .seconds(1),
                onLost: @escaping @Sendable (V4L2LoopbackError) -> Void,
                onBack: @escaping @Sendable (String) -> Void = { _ in }) throws {
        precondition(pixelFormat == .yuv420 || pixelFormat == .yuyv, "a webcam writes I420 or YUYV")
        let evenWidth = width & ~1, evenHeight = height & ~1
        (format, self.rate) = try Self.prepare(device, pixelFormat: pixelFormat, width: evenWidth, height: evenHeight,
                                               rate: rate)
        path = Guarded(device.path)
        self.device = Guarded(device)
        frames = BoundedChannel(capacity: 1, policy: blockWhenBehind ? .block : .dropOldest)
        self.onLost = onLost
        self.reopen = reopen
        self.reopenInterval = reopenInterval
        self.onBack = onBack
        let layout: WebcamPicturePacker.Layout = pixelFormat == .yuv420 ? .i420 : .yuyv
        // The thread holds the output until `close()` ends its loop.
        writer.start(name: "pausecam.webcam") { [self] in
            writeLoop(layout: layout, width: evenWidth, height: evenHeight, rate: rate)
            _ = writer.end()
        }
    }

    /// The set-up both the first opening and a return make: QUERYCAP says a loopback that takes a writer, then the
    /// format (exactly the one asked for) and the rate. The device is closed when it throws.
    private static func prepare(_ device: any V4L2LoopbackDevice, pixelFormat: V4L2PixelFormat, width: Int,
                                height: Int, rate: FrameRate) throws -> (V4L2NegotiatedFormat, FrameRate?) {
        do {
            let capability = try device.queryCapability()
            guard capability.isLoopback else {
                throw V4L2LoopbackError.notLoopback(device: device.path, driver: capability.driver,
                                                    card: capability.card)
            }
            guard capability.canOutput else {
                throw V4L2LoopbackError.busy(device: device.path, card: capability.card)
            }
            let format = try device.setOutputFormat(pixelFormat: pixelFormat, width: width, height: height)
            guard format.pixelFormat == pixelFormat, format.width == width, format.height == height else {
                throw V4L2LoopbackError.formatRefused(
                    device: device.path, wanted: "\(pixelFormat) \(width)x\(height)",
                    got: "\(format.pixelFormat) \(format.width)x\(format.height)")
            }
            return (format, try device.setOutputFrameRate(rate))
        } catch let error as V4L2Error {
            device.close()
            throw error.errnoCode == EBUSY ? V4L2LoopbackError.busy(device: device.path, card: "")
                                           : V4L2LoopbackError.device(error)
        } catch {
            device.close()
            throw error
        }
    }

    /// What was written so far.
    public var statistics: Statistics {
        var now = counts.withLock { $0 }
        now.framesReplaced = frames.droppedTotal
        return now
    }

    /// Hands `frame` to the writer; never waits (unless `blockWhenBehind`). The live time is not needed: a loopback
    /// device has no clock of its own, readers take each picture as it comes.
    public func appendVideo(_ frame: VideoFrame, at liveTime: MediaTime) {
        frames.send(frame)
    }

    /// A webcam carries no sound.
    public func appendAudio(_ chunk: AudioChunk) {}

    /// Stops the writer (the frame waiting is dropped) and closes the device. Idempotent; any thread. Until it is
    /// called the writer thread keeps the output alive.
    public func close() {
        frames.discardAndClose()
        writer.stop()
        device.withLock { open in
            defer { open = nil }
            return open
        }?.close()
    }

    /// The writer thread: makes and writes each frame's picture until the channel closes; after a loss, tries to
    /// reopen the device as frames come, or ends when it cannot.
    private func writeLoop(layout: WebcamPicturePacker.Layout, width: Int, height: Int, rate: FrameRate) {
        let packer: WebcamPicturePacker
        do {
            packer = try WebcamPicturePacker(width: width, height: height, layout: layout)
        } catch {
            let lost = V4L2LoopbackError.formatRefused(device: name, wanted: "\(format.pixelFormat) \(width)x\(height)",
                                                       got: "\(error)")
            counts.withLock { $0.lost = lost; $0.losses += 1 }
            frames.discardAndClose()
            return onLost(lost)
        }
        let picture = UnsafeMutableRawBufferPointer.allocate(byteCount: packer.pictureByteCount, alignment: 64)
        defer { picture.deallocate() }
        var nextAttempt: ContinuousClock.Instant?
        while let frame = frames.receive() {
            guard let current = device.withLock({ $0 }) else {
                counts.withLock { $0.framesWhileLost += 1 }
                guard let due = nextAttempt, ContinuousClock.now >= due else { continue }
                if let back = try? reopen?() {
                    do {
                        _ = try Self.prepare(back, pixelFormat: format.pixelFormat, width: width, height: height,
                                             rate: rate)
                        device.withLock { $0 = back }
                        path.withLock { $0 = back.path }
                        counts.withLock { $0.lost = nil; $0.returns += 1 }
                        onBack(back.path)
                    } catch {
                        // Not usable yet (busy, another format): the next attempt comes after the interval.
                    }
                }
                nextAttempt = ContinuousClock.now + reopenInterval
                continue
            }
            let route: WebcamPicturePacker.Route
            do {
                route = try packer.pack(frame, into: picture)
            } catch {
                counts.withLock { $0.framesNotDrawn += 1 }
                continue
            }
            do {
                try current.writeFrame(UnsafeRawBufferPointer(picture))
                counts.withLock {
                    $0.framesWritten += 1
                    if route == .copied { $0.framesCopied += 1 }
                    if route == .repeated { $0.framesRepeated += 1 }
                }
            } catch {
                let lost = (error as? V4L2Error).map(V4L2LoopbackError.device)
                    ?? .device(.call(device: current.path, call: "write", errno: EIO))
                counts.withLock { $0.lost = lost; $0.losses += 1 }
                device.withLock { $0 = nil }
                current.close()
                onLost(lost)
                guard reopen != nil else {
                    frames.discardAndClose()
                    return
                }
                nextAttempt = ContinuousClock.now + reopenInterval
            }
        }
    }
}

extension V4L2Error {
    /// The errno the call failed with, when the case keeps one.
    var errnoCode: Int32? {
        switch self {
        case .call(_, _, let code): return code
        case .unplugged: return ENODEV
        case .bandwidthExhausted: return ENOSPC
        case .notCapture, .noUsableFormat: return nil
        }
    }
}
