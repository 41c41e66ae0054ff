import CV4L2
import Foundation
import PauseCamCore

/// A real v4l2loopback device node opened for writing. Plain `open`/`ioctl`/`write` (not libv4l2, whose
/// conversions are for capture). Owns the descriptor; `close()` (or deinit) releases it. Every call goes through the
/// `descriptor` lock, so a `close()` from another thread never lets a write reach a reused number.
public final class V4L2LoopbackNode: V4L2LoopbackDevice {
    public let path: String
    /// The open descriptor; nil once closed.
    private let descriptor: Guarded<FileDescriptor?>

    /// Opens `path` read-write and blocking (a write hands one whole frame to the driver, which never waits for a
    /// reader), close-on-exec. The corresponding C function is `open`.
    public init(path: String) throws {
        self.path = path
        switch retryingOnInterrupt({ pausecam_open(path, O_RDWR | O_CLOEXEC) }) {
        case .success(let fd):
            descriptor = Guarded(FileDescriptor(owning: fd))
        case .failure(let error):
            throw V4L2Error.from(error, device: path, call: "open")
        }
    }

    deinit { close() }

    private static var outputType: UInt32 { V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue }

    /// Runs one ioctl on `value` under the lock (`V4L2Ioctl.call`, the kernel's), EINTR retried; throws a
    /// `V4L2Error` named after the call.
    private func perform<T>(_ request: UInt, _ name: String, _ value: inout T) throws {
        let failure: Errno? = withUnsafeMutableBytes(of: &value) { raw in
            descriptor.withLock { V4L2Ioctl.call($0?.rawValue, libv4l2: false, request, raw.baseAddress!) }
        }
        if let failure { throw V4L2Error.from(failure, device: path, call: name) }
    }

    public func queryCapability() throws -> V4L2Capability {
        var cap = v4l2_capability()
        try perform(pausecam_vidioc_querycap(), "VIDIOC_QUERYCAP", &cap)
        return V4L2Capability(cap)
    }

    public func setOutputFormat(pixelFormat: V4L2PixelFormat, width: Int, height: Int) throws -> V4L2NegotiatedFormat {
        var format = v4l2_format.progressive(type: Self.outputType, pixelFormat: pixelFormat, width: width,
                                             height: height)
        // I420's first plane has one byte a pixel, and the two quarter-size chroma planes follow it; YUYV has two.
        let planar = pixelFormat == .yuv420
        format.fmt.pix.bytesperline = UInt32(clamping: planar ? width : width * 2)
        format.fmt.pix.sizeimage = UInt32(clamping: planar ? width * height * 3 / 2 : width * height * 2)
        try perform(pausecam_vidioc_s_fmt(), "VIDIOC_S_FMT", &format)
        return V4L2NegotiatedFormat(format)
    }

    public func setOutputFrameRate(_ rate: FrameRate) throws -> FrameRate? {
        var parm = v4l2_streamparm()
        parm.type = Self.outputType
        parm.parm.output.timeperframe = v4l2_fract(timePerFrameOf: rate)
        do {
            try perform(pausecam_vidioc_s_parm(), "VIDIOC_S_PARM", &parm)
        } catch V4L2Error.call(_, _, let code) where code == EINVAL || code == ENOTTY {
            return nil
        }
        return parm.parm.output.timeperframe.frameRate
    }

    /// The corresponding C function is `write`; a short write is finished with more writes.
    public func writeFrame(_ bytes: UnsafeRawBufferPointer) throws {
        let failure: Errno? = descriptor.withLock { open -> Errno? in
            guard let open else { return .badFileDescriptor }
            do throws(Errno) { try open.writeAll(bytes) } catch { return error }
            return nil
        }
        if let failure { throw V4L2Error.from(failure, device: path, call: "write") }
    }

    public func close() {
        let open = descriptor.withLock { open -> FileDescriptor? in
            defer { open = nil }
            return open
        }
        // Nothing is lost by a failed close of a device node: no data waits in it.
        try? open?.close()
    }
}
