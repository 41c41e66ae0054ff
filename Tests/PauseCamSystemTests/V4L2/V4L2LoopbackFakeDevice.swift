import Foundation
import PauseCamCore
@testable import PauseCamSystem

/// A scripted v4l2loopback device for tests: answers QUERYCAP with a loopback (or whatever `capability` says),
/// remembers the format and rate set and every picture written, can hold a write until released (a slow reader
/// side), and can fail writes with an errno. Waiting is on a condition with a deadline, never a sleep.
/// Unchecked Sendable: every stored property is read and written only under `condition`.
final class V4L2LoopbackFakeDevice: V4L2LoopbackDevice, @unchecked Sendable {
    let path: String
    private let condition = NSCondition()
    private var capabilityAnswer: V4L2Capability
    private var sizeTaken: (width: Int, height: Int)?
    private var formats: [(V4L2PixelFormat, Int, Int)] = []
    private var rates: [FrameRate] = []
    private var pictures: [[UInt8]] = []
    private var holding = false
    private var writesStarted = 0
    private var writeErrno: Int32?
    private var closed = false

    init(path: String = "/dev/video42", card: String = "PauseCam",
         nodeCapabilities: V4L2Capability.Flags = [.videoOutput, .streaming, .deviceCaps],
         driver: String = "v4l2 loopback") {
        self.path = path
        capabilityAnswer = V4L2Capability(driver: driver, card: card, busInfo: "platform:v4l2loopback-042",
                                          nodeCapabilities: nodeCapabilities)
    }

    /// The next `setOutputFormat` answers with this size instead of the one asked for.
    func takeSize(width: Int, height: Int) { condition.withLock { sizeTaken = (width, height) } }
    /// Writes wait from now until `release()`.
    func hold() { condition.withLock { holding = true } }
    /// Lets waiting writes go on.
    func release() { condition.withLock { holding = false; condition.broadcast() } }
    /// Every write from now fails with `code`.
    func failWrites(with code: Int32) { condition.withLock { writeErrno = code } }

    var formatsSet: [(V4L2PixelFormat, Int, Int)] { condition.withLock { formats } }
    var ratesSet: [FrameRate] { condition.withLock { rates } }
    var written: [[UInt8]] { condition.withLock { pictures } }
    var isClosed: Bool { condition.withLock { closed } }

    /// Waits until `predicate` holds (checked after each change); false after `timeout` seconds, a bound only a
    /// broken writer reaches.
    func wait(timeout: TimeInterval = 30, until predicate: (_ started: Int, _ written: Int, _ closed: Bool) -> Bool)
        -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while !predicate(writesStarted, pictures.count, closed) {
                if !condition.wait(until: deadline) { return predicate(writesStarted, pictures.count, closed) }
            }
            return true
        }
    }

    func queryCapability() throws -> V4L2Capability { condition.withLock { capabilityAnswer } }

    func setOutputFormat(pixelFormat: V4L2PixelFormat, width: Int, height: Int) throws -> V4L2NegotiatedFormat {
        condition.withLock {
            formats.append((pixelFormat, width, height))
            let size = sizeTaken ?? (width, height)
            return V4L2NegotiatedFormat(pixelFormat: pixelFormat, width: size.width, height: size.height,
                                        bytesPerLine: size.width * 2, imageSize: size.width * size.height * 2)
        }
    }

    func setOutputFrameRate(_ rate: FrameRate) throws -> FrameRate? {
        condition.withLock { rates.append(rate) }
        return rate
    }

    func writeFrame(_ bytes: UnsafeRawBufferPointer) throws {
        let copy = [UInt8](bytes)
        let failure: Int32? = condition.withLock {
            writesStarted += 1
            condition.broadcast()
            while holding { condition.wait() }
            if let code = writeErrno { return code }
            pictures.append(copy)
            condition.broadcast()
            return nil
        }
        if let failure { throw V4L2Error.from(errno: failure, device: path, call: "write") }
    }

    func close() { condition.withLock { closed = true; condition.broadcast() } }
}
