import Foundation
import PauseCamCore

/// A V4L2 camera as a PauseCam `Camera`: negotiates a mode for its rig lens when made, then streams through mmap
/// buffers on its own capture thread.
///
/// Frames are stamped with the driver's capture time (`CLOCK_MONOTONIC`, the session clock), never with when this
/// code ran. Sequence gaps count as dropped frames, `V4L2_BUF_FLAG_ERROR` frames are skipped and counted. MJPEG is
/// passed on undecoded as `jpeg` (the writer decodes only what reaches the movie); YUYV is passed on packed as
/// `yuyv422`. When the device vanishes mid-stream (`ENODEV`), the capture thread releases everything and calls `onEnd` once; the session decides what follows.
///
/// The camera owns its `V4L2Device` and closes it when the device is gone or the camera is released.
/// Unchecked Sendable: `controls` caches what the camera lists without a lock and is used from the serial context
/// only; counters and `gone` are one `Guarded` value; the device is Sendable (its node serialises every call).
public final class V4L2Camera: Camera, @unchecked Sendable {
    public let displayName: String
    /// Why the camera streams in its encoding when the lens has `format: auto`; `nil` otherwise.
    public let formatChoice: String?
    public let format: CameraFormat
    /// The camera's controls (zoom, exposure, focus, power line), for presets applied while recording.
    public let controls: V4L2Controls
    /// What `VIDIOC_QUERYCAP` said.
    public let capability: V4L2Capability
    /// What `VIDIOC_S_FMT` settled on.
    public let negotiated: V4L2NegotiatedFormat
    /// The PTZ controls the camera has (`zoom_absolute`, `pan_absolute`, `tilt_absolute`), read when it was opened.
    public let ptzRanges: [PTZAxis: PTZRange]

    /// How many mmap buffers to ask for: enough to ride out a slow encoder tick without drops.
    public static let bufferCount: UInt32 = 4

    /// The node; `internal` for the extensions that set its controls (`V4L2CameraPTZ`).
    let device: V4L2Device
    private let lensName: String
    /// The lens's `latency:`, taken off every timestamp: when the light hit the sensor, not when the camera stamped.
    private let latency: MediaTime
    private let warn: @Sendable (String) -> Void
    private let capture = CaptureThread()
    /// What `start` and the capture thread share. Its lock is also held across `start`'s buffer set-up and the
    /// capture thread's release of the buffers, so the two never interleave.
    private struct CaptureState {
        var counters = V4L2CaptureStatistics()
        /// The device went away mid-stream: the camera cannot start again.
        var gone = false
    }

    private let state = Guarded(CaptureState())

    /// Opens the node at `path` through libv4l2 and prepares it for `lens`. `formatChoice` says why the lens's
    /// `format:` is what it is when `format: auto` chose it (`USBFormatAutoResolution`), for the sidecar.
    public static func open(path: String, lens: Rig.Lens, formatChoice: String? = nil,
                            warn: @escaping @Sendable (String) -> Void) throws -> V4L2Camera {
        try V4L2Camera(device: V4L2DeviceNode(path: path), lens: lens, formatChoice: formatChoice, warn: warn)
    }

    /// Prepares `device` for `lens`: checks it captures video, chooses and sets a mode (`V4L2FormatChooser`), sets
    /// the frame rate and applies the lens's `controls:`. Warnings (a missing control, a rate the driver changed)
    /// go to `warn`.
    public init(device: V4L2Device, lens: Rig.Lens, formatChoice: String? = nil,
                warn: @escaping @Sendable (String) -> Void) throws {
        self.device = device
        self.formatChoice = formatChoice
        self.lensName = lens.name
        self.latency = lens.latency
        self.warn = warn
        capability = try device.queryCapability()
        displayName = "\(device.path) (\(capability.card))"
        guard capability.canCapture else { throw V4L2Error.notCapture(device: device.path, card: capability.card) }
        let modes = try V4L2FormatCatalog.modes(of: device)
        let choice = try V4L2FormatChooser.choose(format: lens.format, width: lens.width, height: lens.height,
                                                  rate: lens.rate, from: modes, device: device.path)
        negotiated = try device.setFormat(pixelFormat: choice.pixelFormat, width: choice.width, height: choice.height)
        let pixelFormat: PixelFormat
        if negotiated.pixelFormat.isJPEG {
            pixelFormat = .jpeg
        } else if negotiated.pixelFormat == .yuyv {
            pixelFormat = .yuyv422
        } else {
            throw V4L2Error.noUsableFormat(device: device.path, wanted: choice.pixelFormat.description,
                                           offered: "\(negotiated.pixelFormat) after VIDIOC_S_FMT")
        }
        var rate = choice.rate ?? V4L2FormatChooser.defaultRateCap
        if let wanted = choice.rate {
            do {
                if let set = try device.setFrameRate(wanted) {
                    if set != wanted { warn("\(displayName): asked for \(wanted) fps, the camera chose \(set) fps") }
                    rate = set
                }
            } catch V4L2Error.unplugged(let device, let call) {
                throw V4L2Error.unplugged(device: device, call: call)
            } catch {
                warn("\(displayName): cannot set the frame rate (\(error)); the camera keeps its own")
            }
        }
        format = CameraFormat(width: negotiated.width, height: negotiated.height, rate: rate, pixelFormat: pixelFormat)
        controls = V4L2Controls(device: device, cameraName: displayName, warn: warn)
        ptzRanges = controls.ptzRanges()
        controls.apply(lens.controls)
    }

    deinit {
        stop()
        device.close()
    }

    /// Counters so far (thread-safe).
    public var statistics: V4L2CaptureStatistics { state.withLock { $0.counters } }

    /// Maps the buffers, starts streaming and the capture thread. Throws `V4L2Error.bandwidthExhausted` when the
    /// USB bus has no room for this stream (`STREAMON`: `ENOSPC`), with everything released again.
    public func start(deliver: @escaping @Sendable (VideoFrame) -> Void,
                      onEnd: @escaping @Sendable (String) -> Void) throws {
        try state.withLock { state in
            guard !capture.isRunning else { return }
            if state.gone { throw V4L2Error.unplugged(device: device.path, call: "start") }
            do {
                let granted = try device.requestBuffers(count: Self.bufferCount)
                for index in 0..<granted {
                    try device.mapBuffer(index: index)
                    try device.queueBuffer(index: index)
                }
                try device.streamOn()
            } catch {
                releaseBuffers()
                throw error
            }
            capture.start(name: "pausecam.v4l2 \(device.path)") { [self] in
                captureLoop(deliver: deliver, onEnd: onEnd)
            }
        }
    }

    /// Stops streaming and waits for the capture thread to finish (at most one poll timeout). Idempotent; safe to
    /// call from `deliver` itself, in which case it does not wait.
    public func stop() {
        capture.stop()
    }

    /// Stops streaming and closes the device node now rather than when the camera is released, so the node can be
    /// opened afresh (the freeze watchdog's reopen). The camera cannot start again afterwards.
    public func close() {
        capture.stop()
        device.close()
    }

    private func captureLoop(deliver: @Sendable (VideoFrame) -> Void,
                             onEnd: @Sendable (String) -> Void) {
        var lastSequence: UInt32?
        var warnedClock = false
        var endReason: String?
        while !capture.shouldStop {
            do {
                guard try device.waitForFrame(timeoutMilliseconds: 200) else { continue }
                guard let buffer = try device.dequeueBuffer() else { continue }
                let frame = process(buffer, lastSequence: &lastSequence, warnedClock: &warnedClock)
                try device.queueBuffer(index: buffer.index)
                if let frame { deliver(frame) }
            } catch {
                endReason = "\(error)"
                break
            }
        }
        _ = try? device.streamOff()
        state.withLock { state in
            releaseBuffers()
            if endReason != nil { state.gone = true }
        }
        let endedByItself = capture.end() && endReason != nil
        if let endReason {
            // Close before telling anyone: whoever hears `onEnd` may reopen the node (re-plug) at once.
            device.close()
            if endedByItself { onEnd(endReason) }
        }
    }

    /// Turns one dequeued buffer into a frame, or `nil` for a frame that is skipped (and counted). An MJPEG buffer
    /// is handed on undecoded (`PixelFormat.jpeg`): the movie writer decodes only the frames that reach the movie,
    /// so a hot lens in standby costs one copy of its buffer, not a decode. Only a buffer that does not even start
    /// like a JPEG (SOI, `FF D8`) is counted corrupt here; one that fails to decode later repeats the picture before.
    private func process(_ buffer: V4L2DequeuedBuffer, lastSequence: inout UInt32?,
                         warnedClock: inout Bool) -> VideoFrame? {
        var dropped = 0
        if let last = lastSequence, buffer.sequence &- last > 1, buffer.sequence &- last < 1 << 30 {
            dropped = Int(buffer.sequence &- last) - 1
        }
        lastSequence = buffer.sequence
        var corrupt = buffer.flags.contains(.error) || buffer.bytesUsed == 0
        var frame: VideoFrame?
        if !corrupt {
            let stamped: MediaTime
            if buffer.hasMonotonicTimestamp,
               let stamp = MediaTime.timespec(seconds: buffer.seconds, nanoseconds: buffer.microseconds * 1000) {
                stamped = stamp
            } else {
                if !warnedClock {
                    warn("\(displayName): the driver's timestamps are not on CLOCK_MONOTONIC; using dequeue time")
                    warnedClock = true
                }
                stamped = MonotonicClock.now()
            }
            let pts = latency == .zero ? stamped : ((try? stamped.subtracting(latency)) ?? stamped)
            let bytes = device.bufferBytes(index: buffer.index, count: buffer.bytesUsed)
            if negotiated.pixelFormat.isJPEG {
                if bytes.count > 2 && bytes[0] == 0xFF && bytes[1] == 0xD8 {
                    frame = VideoFrame(pts: pts, width: negotiated.width, height: negotiated.height, format: .jpeg,
                                       planes: [Plane(bytes: bytes, stride: 0)], lens: lensName, range: .full)
                }
            } else {
                let stride = negotiated.bytesPerLine > 0 ? negotiated.bytesPerLine : negotiated.width * 2
                if bytes.count >= stride * negotiated.height {
                    frame = VideoFrame(pts: pts, width: negotiated.width, height: negotiated.height, format: .yuyv422,
                                       planes: [Plane(bytes: bytes, stride: stride)], lens: lensName)
                }
            }
            corrupt = frame == nil
        }
        state.withLock { state in
            state.counters.dropped += dropped
            if corrupt { state.counters.corrupt += 1 } else { state.counters.delivered += 1 }
        }
        return frame
    }

    /// Unmaps and frees the mmap buffers; errors are ignored (the device may be gone). Called with `state`'s lock held.
    private func releaseBuffers() {
        device.unmapBuffers()
        _ = try? device.requestBuffers(count: 0)
    }
}
