import Foundation
import PauseCamCore

/// The program as a webcam: writes every program frame it is given to a v4l2loopback device as packed YUYV at the
/// program's size, so a browser, a video-call app or `ffplay` reading the device sees PauseCam's picture, whatever
/// the recording does.
///
/// Threads: `appendVideo` (the serial context) only hands the frame to a one-frame `BoundedChannel` whose policy is
/// `.dropOldest` — the newest frame wins, and a slow device costs webcam frames, never the caller's time. The
/// writer thread draws and packs each frame (`CanvasYUYVPacker`) and writes it. A write that fails (`ENODEV`: the
/// module was unloaded or the device removed) ends the output: `onEnded` is told once, on the writer thread, and
/// later frames are ignored; the recording is not this type's business. `close()` (any thread, also from
/// `onEnded`) stops the writer and closes the device.
public final class V4L2LoopbackOutput: LiveSink, Sendable {
    /// The device node, as the user named it or as its label resolved.
    public var name: String { device.path }
    /// What the device took: YUYV at the program's size.
    public let format: V4L2NegotiatedFormat
    /// The rate the readers are told, when the driver takes one.
    public let rate: FrameRate?

    /// How many frames reached the device, and whether the output ended by itself (and why).
    public struct Statistics: Sendable, Equatable {
        /// Frames written whole.
        public var framesWritten = 0
        /// Frames that could not be drawn (a torn JPEG): the readers keep the previous picture.
        public var framesNotDrawn = 0
        /// Frames a newer one replaced before the writer took them.
        public var framesReplaced = 0
        /// Why the output ended by itself, if it did.
        public var ended: V4L2LoopbackError?
    }

    private let device: any V4L2LoopbackDevice
    private let frames = BoundedChannel<VideoFrame>(capacity: 1, policy: .dropOldest)
    private let writer = CaptureThread()
    private let counts = Guarded(Statistics())
    private let onEnded: @Sendable (V4L2LoopbackError) -> Void

    /// Checks that `device` is a loopback that takes a writer, sets YUYV at `width`×`height` (made even) and
    /// `rate`, and starts the writer thread. Throws `V4L2LoopbackError` (not a loopback, busy, format refused, a
    /// failed call); the device is then closed. `onEnded` hears a write failure, once.
    public init(device: any V4L2LoopbackDevice, width: Int, height: Int, rate: FrameRate,
                onEnded: @escaping @Sendable (V4L2LoopbackError) -> Void) throws {
        self.device = device
        self.onEnded = onEnded
        let evenWidth = width & ~1, evenHeight = height & ~1
        do {
            let capability = try device.queryCapability()
            guard capability.isLoopback else {
                throw V4L2LoopbackError.notLoopback(device: device.path, driver: capability.driver,
                                                    card: capability.card)
            }
            guard capability.canOutput else {
                throw V4L2LoopbackError.busy(device: device.path, card: capability.card)
            }
            let format = try device.setOutputFormat(pixelFormat: .yuyv, width: evenWidth, height: evenHeight)
            guard format.pixelFormat == .yuyv, format.width == evenWidth, format.height == evenHeight else {
                throw V4L2LoopbackError.formatRefused(
                    device: device.path, wanted: "YUYV \(evenWidth)x\(evenHeight)",
                    got: "\(format.pixelFormat) \(format.width)x\(format.height)")
            }
            self.format = format
            self.rate = try device.setOutputFrameRate(rate)
        } catch let error as V4L2Error {
            device.close()
            throw error.errnoCode == EBUSY ? V4L2LoopbackError.busy(device: device.path, card: "")
                                           : V4L2LoopbackError.device(error)
        } catch {
            device.close()
            throw error
        }
        // The thread holds the output until `close()` ends its loop.
        writer.start(name: "pausecam.webcam") { [self] in
            writeLoop(width: evenWidth, height: evenHeight)
            _ = writer.end()
        }
    }

    /// What was written so far.
    public var statistics: Statistics {
        var now = counts.withLock { $0 }
        now.framesReplaced = frames.droppedTotal
        return now
    }

    /// Hands `frame` to the writer; never waits. The live time is not needed: a loopback device has no clock of its
    /// own, readers take each picture as it comes.
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
        device.close()
    }

    /// The writer thread: packs and writes each frame until the channel closes or a write fails.
    private func writeLoop(width: Int, height: Int) {
        let packer: CanvasYUYVPacker
        do {
            packer = try CanvasYUYVPacker(width: width, height: height)
        } catch {
            let ended = V4L2LoopbackError.formatRefused(device: device.path, wanted: "YUYV \(width)x\(height)",
                                                        got: "\(error)")
            counts.withLock { $0.ended = ended }
            frames.discardAndClose()
            return onEnded(ended)
        }
        let picture = UnsafeMutableRawBufferPointer.allocate(byteCount: packer.pictureByteCount, alignment: 64)
        defer { picture.deallocate() }
        while let frame = frames.receive() {
            do {
                try packer.pack(frame, into: picture)
            } catch {
                counts.withLock { $0.framesNotDrawn += 1 }
                continue
            }
            do {
                try device.writeFrame(UnsafeRawBufferPointer(picture))
                counts.withLock { $0.framesWritten += 1 }
            } catch {
                let ended = (error as? V4L2Error).map(V4L2LoopbackError.device)
                    ?? .device(.call(device: device.path, call: "write", errno: EIO))
                counts.withLock { $0.ended = ended }
                frames.discardAndClose()
                device.close()
                return onEnded(ended)
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
