import Foundation
import PauseCamCore
@testable import PauseCamSystem

/// A scripted `V4L2Device` for tests: answers the ENUM ioctls from a list of modes, remembers every control set,
/// and plays back a script of dequeue results (frames or errnos). Thread-safe, since the camera's capture thread
/// and the test both touch it.
final class V4L2FakeDevice: V4L2Device, @unchecked Sendable {
    enum Dequeue {
        case frame(V4L2DequeuedBuffer, [UInt8])
        case failure(Int32)
    }

    let path: String
    var capability: V4L2Capability
    var modes: [V4L2Mode]
    var controls: [UInt32: V4L2ControlInfo] = [:]
    var menus: [UInt32: [V4L2MenuItem]] = [:]
    var streamOnErrno: Int32?
    var rateChosenByDriver: FrameRate?
    private let lock = NSLock()
    private var script: [Dequeue] = []
    private var buffers: [UInt32: [UInt8]] = [:]
    private(set) var setControls: [(UInt32, Int32)] = []
    private(set) var formatSet: (V4L2PixelFormat, Int, Int)?
    private(set) var rateSet: FrameRate?
    private(set) var streaming = false
    private(set) var mapped = 0
    private(set) var closed = false
    private var menuQueryCount = 0

    init(path: String = "/dev/video9", card: String = "Fake Cam", modes: [V4L2Mode]) {
        self.path = path
        self.modes = modes
        capability = V4L2Capability(driver: "fake", card: card, busInfo: "usb-fake-1",
                                    nodeCapabilities: [.videoCapture, .streaming])
    }

    func play(_ items: [Dequeue]) {
        lock.lock(); script += items; lock.unlock()
    }

    var controlWrites: [(UInt32, Int32)] {
        lock.lock(); defer { lock.unlock() }
        return setControls
    }

    var isClosed: Bool {
        lock.lock(); defer { lock.unlock() }
        return closed
    }

    private var formats: [V4L2FormatDescription] {
        var seen: [V4L2FormatDescription] = []
        for mode in modes where !seen.contains(where: { $0.pixelFormat == mode.pixelFormat }) {
            seen.append(V4L2FormatDescription(pixelFormat: mode.pixelFormat, description: "\(mode.pixelFormat)",
                                              emulated: mode.emulated))
        }
        return seen
    }

    func queryCapability() throws -> V4L2Capability { capability }

    func enumerateFormat(index: UInt32) throws -> V4L2FormatDescription? {
        index < formats.count ? formats[Int(index)] : nil
    }

    func enumerateFrameSize(pixelFormat: V4L2PixelFormat, index: UInt32) throws -> V4L2FrameSize? {
        let sizes = modes.filter { $0.pixelFormat == pixelFormat }
        return index < sizes.count ? .discrete(width: sizes[Int(index)].width, height: sizes[Int(index)].height) : nil
    }

    func enumerateFrameInterval(pixelFormat: V4L2PixelFormat, width: Int, height: Int,
                                index: UInt32) throws -> V4L2FrameInterval? {
        guard let mode = modes.first(where: { $0.pixelFormat == pixelFormat && $0.width == width && $0.height == height })
        else { return nil }
        return index < mode.rates.count ? .discrete(mode.rates[Int(index)]) : nil
    }

    func setFormat(pixelFormat: V4L2PixelFormat, width: Int, height: Int) throws -> V4L2NegotiatedFormat {
        formatSet = (pixelFormat, width, height)
        return V4L2NegotiatedFormat(pixelFormat: pixelFormat, width: width, height: height,
                                    bytesPerLine: pixelFormat == .yuyv ? width * 2 : 0, imageSize: width * height * 2)
    }

    func setFrameRate(_ rate: FrameRate) throws -> FrameRate? {
        rateSet = rate
        return rateChosenByDriver ?? rate
    }

    func queryControl(id: UInt32) throws -> V4L2ControlInfo? { controls[id] }

    func queryMenu(id: UInt32, index: UInt32) throws -> V4L2MenuItem? {
        lock.withLock { menuQueryCount += 1 }
        return menus[id]?.first { $0.index == index }
    }

    /// How many `VIDIOC_QUERYMENU` calls were made.
    var menuQueries: Int { lock.withLock { menuQueryCount } }

    func getControl(id: UInt32) throws -> Int32 {
        lock.lock(); defer { lock.unlock() }
        return setControls.last { $0.0 == id }?.1 ?? controls[id]?.defaultValue ?? 0
    }

    func setControl(id: UInt32, value: Int32) throws {
        guard controls[id] != nil else { throw V4L2Error.from(errno: EINVAL, device: path, call: "VIDIOC_S_CTRL") }
        lock.lock(); setControls.append((id, value)); lock.unlock()
    }

    /// Compound controls the fake has (`VIDIOC_QUERY_EXT_CTRL`), and the rectangles set on them, in order.
    var extendedControls: [UInt32: V4L2ExtendedControlInfo] = [:]
    private(set) var rectangleWrites: [(UInt32, PixelRect)] = []

    func queryExtendedControl(id: UInt32) throws -> V4L2ExtendedControlInfo? { extendedControls[id] }

    func setRectangleControl(id: UInt32, to rectangle: PixelRect) throws {
        guard extendedControls[id] != nil else {
            throw V4L2Error.from(errno: EINVAL, device: path, call: "VIDIOC_S_EXT_CTRLS")
        }
        lock.lock(); rectangleWrites.append((id, rectangle)); lock.unlock()
    }

    func requestBuffers(count: UInt32) throws -> UInt32 { count }
    func mapBuffer(index: UInt32) throws { lock.lock(); mapped += 1; lock.unlock() }
    func unmapBuffers() { lock.lock(); mapped = 0; lock.unlock() }
    func queueBuffer(index: UInt32) throws {}

    func dequeueBuffer() throws -> V4L2DequeuedBuffer? {
        lock.lock(); defer { lock.unlock() }
        guard !script.isEmpty else { return nil }
        switch script.removeFirst() {
        case .frame(let buffer, let bytes):
            buffers[buffer.index] = bytes
            return buffer
        case .failure(let code):
            throw V4L2Error.from(errno: code, device: path, call: "VIDIOC_DQBUF")
        }
    }

    func bufferBytes(index: UInt32, count: Int) -> [UInt8] {
        lock.lock(); defer { lock.unlock() }
        return Array((buffers[index] ?? []).prefix(count))
    }

    func streamOn() throws {
        if let code = streamOnErrno { throw V4L2Error.from(errno: code, device: path, call: "VIDIOC_STREAMON") }
        lock.lock(); streaming = true; lock.unlock()
    }

    func streamOff() throws { lock.lock(); streaming = false; lock.unlock() }

    func waitForFrame(timeoutMilliseconds: Int32) throws -> Bool {
        lock.lock()
        let ready = !script.isEmpty
        lock.unlock()
        if !ready { usleep(2_000) }
        return ready
    }

    func close() { lock.lock(); closed = true; lock.unlock() }
}
