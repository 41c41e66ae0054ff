import Foundation
import PauseCamCore
import PauseCamSystem

/// A `V4L2Device` that streams packed YUYV from memory at a fixed rate on the real clock, for measuring what a
/// `V4L2Camera` spends on each frame without a camera: the capture thread waits for the next frame time like
/// `poll` on a real node, and takes its copy of each buffer exactly as it would from a real mmap buffer.
///
/// The four "mmap" buffers are allocated and written once (resident, like a driver's); `bufferBytes` copies out
/// of them the way `V4L2DeviceNode.bufferBytes` does. Used by one camera's capture thread; the counters are read
/// after it stopped.
/// Unchecked Sendable: raw buffers and counters used by one camera's capture thread and read after it stopped; no
/// lock, so the bench times the camera's own work and not this stand-in's.
final class PacedYUYVDevice: V4L2Device, @unchecked Sendable {
    let path = "/dev/bench-yuyv"
    let width: Int
    let height: Int
    let rate: FrameRate
    private var buffers: [UnsafeMutableRawPointer] = []
    private var next: UInt32 = 0
    private var sequence: UInt32 = 0
    private var nextFrameNanoseconds: UInt64 = 0
    /// For the floor figure: copy each buffer into this one reused buffer and hand back nothing (the camera then
    /// counts the frame corrupt and delivers none), so only the memcpy itself is left.
    private var scratch: UnsafeMutableRawPointer?

    /// A device streaming `width`×`height` YUYV at `rate`.
    /// With `copyOnly`, `bufferBytes` copies into one reused buffer and returns nothing (the floor of a copy).
    init(width: Int, height: Int, rate: FrameRate, copyOnly: Bool = false) {
        self.width = width
        self.height = height
        self.rate = rate
        if copyOnly {
            scratch = UnsafeMutableRawPointer.allocate(byteCount: width * height * 2, alignment: 4096)
            memset(scratch!, 0, width * height * 2)
        }
    }

    deinit {
        unmapBuffers()
        scratch?.deallocate()
    }

    private var frameBytes: Int { width * height * 2 }
    private var frameNanoseconds: UInt64 { UInt64(1_000_000_000) * UInt64(rate.denominator) / UInt64(rate.numerator) }

    func queryCapability() throws -> V4L2Capability {
        V4L2Capability(driver: "bench", card: "Paced YUYV", busInfo: "bench", nodeCapabilities: [.videoCapture, .streaming])
    }

    func enumerateFormat(index: UInt32) throws -> V4L2FormatDescription? {
        index == 0 ? V4L2FormatDescription(pixelFormat: .yuyv, description: "YUYV 4:2:2") : nil
    }

    func enumerateFrameSize(pixelFormat: V4L2PixelFormat, index: UInt32) throws -> V4L2FrameSize? {
        index == 0 && pixelFormat == .yuyv ? .discrete(width: width, height: height) : nil
    }

    func enumerateFrameInterval(pixelFormat: V4L2PixelFormat, width: Int, height: Int,
                                index: UInt32) throws -> V4L2FrameInterval? {
        index == 0 && pixelFormat == .yuyv ? .discrete(rate) : nil
    }

    func setFormat(pixelFormat: V4L2PixelFormat, width: Int, height: Int) throws -> V4L2NegotiatedFormat {
        V4L2NegotiatedFormat(pixelFormat: .yuyv, width: self.width, height: self.height, bytesPerLine: self.width * 2,
                             imageSize: frameBytes)
    }

    func setFrameRate(_ rate: FrameRate) throws -> FrameRate? { self.rate }
    func queryControl(id: UInt32) throws -> V4L2ControlInfo? { nil }
    func queryMenu(id: UInt32, index: UInt32) throws -> V4L2MenuItem? { nil }
    func getControl(id: UInt32) throws -> Int32 { 0 }
    func setControl(id: UInt32, value: Int32) throws {}
    func requestBuffers(count: UInt32) throws -> UInt32 { count }

    func mapBuffer(index: UInt32) throws {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: frameBytes, alignment: 4096)
        // A grey picture with a little texture, written once so every page is resident.
        let bytes = buffer.bindMemory(to: UInt8.self, capacity: frameBytes)
        for offset in 0..<frameBytes { bytes[offset] = offset & 1 == 0 ? UInt8(truncatingIfNeeded: 96 + offset % 64) : 128 }
        buffers.append(buffer)
    }

    func unmapBuffers() {
        for buffer in buffers { buffer.deallocate() }
        buffers = []
    }

    func queueBuffer(index: UInt32) throws {}

    func dequeueBuffer() throws -> V4L2DequeuedBuffer? {
        guard !buffers.isEmpty else { return nil }
        let index = next
        next = (next + 1) % UInt32(buffers.count)
        sequence &+= 1
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return V4L2DequeuedBuffer(index: index, bytesUsed: frameBytes, flags: .timestampMonotonic, sequence: sequence,
                                  seconds: Int64(now.tv_sec), microseconds: Int64(now.tv_nsec) / 1000)
    }

    func bufferBytes(index: UInt32, count: Int) -> [UInt8] {
        guard Int(index) < buffers.count else { return [] }
        if let scratch {
            memcpy(scratch, buffers[Int(index)], min(count, frameBytes))
            return []
        }
        return Array(UnsafeRawBufferPointer(start: buffers[Int(index)], count: min(count, frameBytes)))
    }

    func streamOn() throws { nextFrameNanoseconds = DispatchTime.now().uptimeNanoseconds + frameNanoseconds }
    func streamOff() throws {}

    /// Sleeps until the next frame time (at most the timeout), like `poll` on a streaming node.
    func waitForFrame(timeoutMilliseconds: Int32) throws -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        let limit = now + UInt64(timeoutMilliseconds) * 1_000_000
        if nextFrameNanoseconds > now { usleep(UInt32((min(nextFrameNanoseconds, limit) - now) / 1000)) }
        guard DispatchTime.now().uptimeNanoseconds >= nextFrameNanoseconds else { return false }
        nextFrameNanoseconds += frameNanoseconds
        return true
    }

    func close() {}
}
