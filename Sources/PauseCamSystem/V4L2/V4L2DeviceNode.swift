import CV4L2
import Foundation
import PauseCamCore

/// A real V4L2 device node. Owns the file descriptor (a `FileDescriptor` closed with `v4l2_close` or `close`) and
/// the mmap buffers (`V4L2BufferMapping`s); `close()` (or deinit) releases both.
/// One `V4L2Camera` drives it; its capture thread and the serial context (control changes) may call it at once,
/// so every use of the descriptor goes through the `node` mutex (see `borrowDescriptor`).
public final class V4L2DeviceNode: V4L2Device {
    /// Which C calls reach the node.
    public enum Access: Sendable {
        /// libv4l2 (`v4l2_open`, `v4l2_ioctl`, `v4l2_mmap`…): for cameras, whose quirks libv4l2 knows.
        case libv4l2
        /// The kernel directly (`open`, `ioctl`, `mmap`…): for probing QUERYCAP/ENUM/QUERYCTRL, which needs none
        /// of libv4l2's set-up, and which umockdev can intercept (libv4l2 issues raw syscalls it cannot).
        case kernel
    }

    public let path: String
    public let access: Access
    /// What the capture thread (which closes the node when the camera is unplugged) and control changes from the
    /// serial context share: no call may reach a descriptor number already closed and reused elsewhere.
    struct NodeState {
        /// The open descriptor, or nil once `close()` was asked for.
        var descriptor: FileDescriptor?
        /// Threads inside `poll` on `descriptor` right now; while any is, `close()` leaves the real close to the last.
        var pollers = 0
        /// The descriptor `close()` could not close yet because a `poll` was using it.
        var closeDeferred: FileDescriptor?
        /// The mmap buffers by index, under the same lock, so a `close()` never unmaps a buffer while
        /// `bufferBytes` copies it.
        var mappings: [UInt32: V4L2BufferMapping] = [:]
    }

    let node: Guarded<NodeState>

    /// Opens `path` read-write and non-blocking (DQBUF then returns EAGAIN instead of stalling a stop), and
    /// close-on-exec. The corresponding C function is `v4l2_open` (or `open`).
    public init(path: String, access: Access = .libv4l2) throws {
        self.path = path
        self.access = access
        let flags = Self.openFlags
        let opened = retryingOnInterrupt {
            access == .libv4l2 ? pausecam_v4l2_open(path, flags) : pausecam_open(path, flags)
        }
        switch opened {
        case .success(let fd):
            node = Guarded(NodeState(descriptor: access == .libv4l2 ? FileDescriptor(owning: fd, release: { v4l2_close($0) })
                                                                  : FileDescriptor(owning: fd)))
        case .failure(let error):
            throw V4L2Error.from(error, device: path, call: "open")
        }
    }

    deinit { close() }

    /// The flags every node is opened with, whichever the access: `O_CLOEXEC` so a camera never stays open (busy)
    /// in a program PauseCam starts.
    static let openFlags = O_RDWR | O_NONBLOCK | O_CLOEXEC

    /// The descriptor for a call that may block (`poll`), counted so that `close()` meanwhile does not free the
    /// number for reuse; `nil` once closed. Give it back with `returnDescriptor()`.
    private func borrowDescriptor() -> FileDescriptor? {
        node.withLock { node in
            guard let descriptor = node.descriptor else { return nil }
            node.pollers += 1
            return descriptor
        }
    }

    /// Ends a `borrowDescriptor()`; the last borrower performs a close that was asked for meanwhile.
    private func returnDescriptor() {
        let deferred: FileDescriptor? = node.withLock { node in
            node.pollers -= 1
            guard node.pollers == 0 else { return nil }
            defer { node.closeDeferred = nil }
            return node.closeDeferred
        }
        // Nothing to report to: the camera is being released.
        try? deferred?.close()
    }

    /// The one ioctl wrapper (`V4L2Ioctl.call` under the node's lock): EINTR retried, nil on success or the errno.
    private func control(_ request: UInt, _ argument: UnsafeMutableRawPointer) -> Errno? {
        node.withLock { node in
            V4L2Ioctl.call(node.descriptor?.rawValue, libv4l2: access == .libv4l2, request, argument)
        }
    }

    /// Runs one ioctl on a value of type `T`, throwing a `V4L2Error` named after the call.
    private func perform<T>(_ request: UInt, _ name: String, _ value: inout T) throws {
        let failure = withUnsafeMutableBytes(of: &value) { control(request, $0.baseAddress!) }
        if let failure { throw V4L2Error.from(failure, device: path, call: name) }
    }

    /// Like `perform`, but `EINVAL` (the end of an enumeration, or an unknown ID) is `false` rather than an error.
    private func performEnumerating<T>(_ request: UInt, _ name: String, _ value: inout T) throws -> Bool {
        let failure = withUnsafeMutableBytes(of: &value) { control(request, $0.baseAddress!) }
        if failure == .invalidArgument { return false }
        if let failure { throw V4L2Error.from(failure, device: path, call: name) }
        return true
    }

    private static var captureType: UInt32 { V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue }

    public func queryCapability() throws -> V4L2Capability {
        var cap = v4l2_capability()
        try perform(pausecam_vidioc_querycap(), "VIDIOC_QUERYCAP", &cap)
        return V4L2Capability(cap)
    }

    public func enumerateFormat(index: UInt32) throws -> V4L2FormatDescription? {
        var desc = v4l2_fmtdesc()
        desc.index = index
        desc.type = Self.captureType
        guard try performEnumerating(pausecam_vidioc_enum_fmt(), "VIDIOC_ENUM_FMT", &desc) else { return nil }
        return V4L2FormatDescription(pixelFormat: V4L2PixelFormat(fourcc: desc.pixelformat),
                                     description: Self.string(desc.description),
                                     emulated: desc.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0)
    }

    public func enumerateFrameSize(pixelFormat: V4L2PixelFormat, index: UInt32) throws -> V4L2FrameSize? {
        var size = v4l2_frmsizeenum()
        size.index = index
        size.pixel_format = pixelFormat.fourcc
        guard try performEnumerating(pausecam_vidioc_enum_framesizes(), "VIDIOC_ENUM_FRAMESIZES", &size)
        else { return nil }
        if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
            return .discrete(width: Int(size.discrete.width), height: Int(size.discrete.height))
        }
        let s = size.stepwise
        return .stepwise(minWidth: Int(s.min_width), maxWidth: Int(s.max_width), widthStep: Int(s.step_width),
                         minHeight: Int(s.min_height), maxHeight: Int(s.max_height), heightStep: Int(s.step_height))
    }

    public func enumerateFrameInterval(pixelFormat: V4L2PixelFormat, width: Int, height: Int,
                                       index: UInt32) throws -> V4L2FrameInterval? {
        var interval = v4l2_frmivalenum()
        interval.index = index
        interval.pixel_format = pixelFormat.fourcc
        interval.width = UInt32(width)
        interval.height = UInt32(height)
        guard try performEnumerating(pausecam_vidioc_enum_frameintervals(), "VIDIOC_ENUM_FRAMEINTERVALS",
                                     &interval) else { return nil }
        if interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
            guard let rate = Self.rate(interval.discrete) else { return nil }
            return .discrete(rate)
        }
        guard let fastest = Self.rate(interval.stepwise.min), let slowest = Self.rate(interval.stepwise.max)
        else { return nil }
        return .range(slowest: slowest, fastest: fastest)
    }

    public func setFormat(pixelFormat: V4L2PixelFormat, width: Int, height: Int) throws -> V4L2NegotiatedFormat {
        var format = v4l2_format.progressive(type: Self.captureType, pixelFormat: pixelFormat, width: width,
                                             height: height)
        try perform(pausecam_vidioc_s_fmt(), "VIDIOC_S_FMT", &format)
        return V4L2NegotiatedFormat(format)
    }

    public func setFrameRate(_ rate: FrameRate) throws -> FrameRate? {
        var parm = v4l2_streamparm()
        parm.type = Self.captureType
        parm.parm.capture.timeperframe = v4l2_fract(timePerFrameOf: rate)
        guard try performEnumerating(pausecam_vidioc_s_parm(), "VIDIOC_S_PARM", &parm) else { return nil }
        guard parm.parm.capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0 else { return nil }
        return Self.rate(parm.parm.capture.timeperframe)
    }

    public func queryControl(id: UInt32) throws -> V4L2ControlInfo? {
        var query = v4l2_queryctrl()
        query.id = id
        guard try performEnumerating(pausecam_vidioc_queryctrl(), "VIDIOC_QUERYCTRL", &query) else { return nil }
        return V4L2ControlInfo(id: query.id, name: Self.string(query.name),
                               type: V4L2ControlInfo.Kind(rawValue: query.type) ?? .other,
                               minimum: query.minimum, maximum: query.maximum, step: query.step,
                               defaultValue: query.default_value,
                               disabled: query.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) != 0)
    }

    public func queryMenu(id: UInt32, index: UInt32) throws -> V4L2MenuItem? {
        var menu = v4l2_querymenu()
        menu.id = id
        menu.index = index
        guard try performEnumerating(pausecam_vidioc_querymenu(), "VIDIOC_QUERYMENU", &menu) else { return nil }
        let name = Self.string(menu.name)
        return V4L2MenuItem(index: index, name: name, value: menu.value)
    }

    public func getControl(id: UInt32) throws -> Int32 {
        var value = v4l2_control()
        value.id = id
        try perform(pausecam_vidioc_g_ctrl(), "VIDIOC_G_CTRL", &value)
        return value.value
    }

    public func setControl(id: UInt32, value: Int32) throws {
        var control = v4l2_control()
        control.id = id
        control.value = value
        try perform(pausecam_vidioc_s_ctrl(), "VIDIOC_S_CTRL", &control)
    }

    public func queryExtendedControl(id: UInt32) throws -> V4L2ExtendedControlInfo? {
        var query = v4l2_query_ext_ctrl()
        query.id = id
        guard try performEnumerating(pausecam_vidioc_query_ext_ctrl(), "VIDIOC_QUERY_EXT_CTRL", &query) else {
            return nil
        }
        return V4L2ExtendedControlInfo(id: query.id, type: query.type, elementSize: query.elem_size,
                                       disabled: query.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) != 0)
    }

    public func setRectangleControl(id: UInt32, to rectangle: PixelRect) throws {
        let failure = V4L2RectangleControl.withExtendedControls(id: id, rectangle: rectangle) {
            control(pausecam_vidioc_s_ext_ctrls(), UnsafeMutableRawPointer($0))
        }
        if let failure { throw V4L2Error.from(failure, device: path, call: "VIDIOC_S_EXT_CTRLS") }
    }

    public func requestBuffers(count: UInt32) throws -> UInt32 {
        var request = v4l2_requestbuffers()
        request.count = count
        request.type = Self.captureType
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try perform(pausecam_vidioc_reqbufs(), "VIDIOC_REQBUFS", &request)
        return request.count
    }

    public func mapBuffer(index: UInt32) throws {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = Self.captureType
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        try perform(pausecam_vidioc_querybuf(), "VIDIOC_QUERYBUF", &buffer)
        let length = Int(buffer.length)
        // Under the lock: the descriptor must not be closed (and its number reused) between reading it and mmap.
        let offset = buffer.m.offset
        let failure: Errno? = node.withLock { node in
            guard let fd = node.descriptor?.rawValue else { return .badFileDescriptor }
            switch V4L2BufferMapping.map(descriptor: fd, offset: offset, length: length, access: access) {
            case .success(let mapping):
                node.mappings[index] = mapping
                return nil
            case .failure(let error):
                return error
            }
        }
        if let failure { throw V4L2Error.from(failure, device: path, call: "mmap") }
    }

    public func unmapBuffers() {
        // Each mapping unmaps itself when dropped.
        node.withLock { $0.mappings.removeAll() }
    }

    public func queueBuffer(index: UInt32) throws {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = Self.captureType
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        try perform(pausecam_vidioc_qbuf(), "VIDIOC_QBUF", &buffer)
    }

    public func dequeueBuffer() throws -> V4L2DequeuedBuffer? {
        var buffer = v4l2_buffer()
        buffer.type = Self.captureType
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        let failure = withUnsafeMutableBytes(of: &buffer) { control(pausecam_vidioc_dqbuf(), $0.baseAddress!) }
        if failure == .wouldBlock { return nil }
        if let failure { throw V4L2Error.from(failure, device: path, call: "VIDIOC_DQBUF") }
        return V4L2DequeuedBuffer(index: buffer.index, bytesUsed: Int(buffer.bytesused),
                                  flags: V4L2DequeuedBuffer.Flags(rawValue: buffer.flags), sequence: buffer.sequence,
                                  seconds: Int64(buffer.timestamp.tv_sec),
                                  microseconds: Int64(buffer.timestamp.tv_usec))
    }

    public func bufferBytes(index: UInt32, count: Int) -> [UInt8] {
        node.withLock { $0.mappings[index]?.bytes(count: count) ?? [] }
    }

    public func streamOn() throws {
        var type = Int32(Self.captureType)
        try perform(pausecam_vidioc_streamon(), "VIDIOC_STREAMON", &type)
    }

    public func streamOff() throws {
        var type = Int32(Self.captureType)
        try perform(pausecam_vidioc_streamoff(), "VIDIOC_STREAMOFF", &type)
    }

    /// Polls without holding the `node` lock (a wait must not hold up control changes) but with the descriptor
    /// borrowed, so a `close()` meanwhile cannot free its number for reuse.
    public func waitForFrame(timeoutMilliseconds: Int32) throws -> Bool {
        guard let fd = borrowDescriptor() else {
            throw V4L2Error.from(.badFileDescriptor, device: path, call: "poll")
        }
        defer { returnDescriptor() }
        // A vanished device wakes poll with POLLERR; DQBUF then reports ENODEV, which the camera handles. The poll
        // reads the number without `checkOpen`: the borrow keeps it ours even if `close()` comes meanwhile.
        switch Poll.wait([fd.rawValue], timeout: timeoutMilliseconds) {
        case .success(let ready): return ready[0] != 0
        case .failure(let error): throw V4L2Error.from(error, device: path, call: "poll")
        }
    }

    /// Unmaps the buffers and closes the descriptor — at once, or, while a `poll` uses it, when that poll
    /// returns. Every call after it fails with `EBADF`. Idempotent.
    public func close() {
        node.withLock { node in
            guard let open = node.descriptor else { return }
            node.mappings.removeAll()
            if node.pollers > 0 {
                node.closeDeferred = open
            } else {
                try? open.close()
            }
            node.descriptor = nil
        }
    }

    /// A NUL-terminated fixed-size C char array (imported as a tuple) as a String.
    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// A `v4l2_fract` interval (seconds per frame) as a frame rate; `nil` for a zero fraction.
    private static func rate(_ interval: v4l2_fract) -> FrameRate? {
        interval.frameRate
    }
}
