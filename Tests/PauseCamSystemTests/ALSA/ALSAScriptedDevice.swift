import Foundation
import PauseCamCore
@testable import PauseCamSystem

/// A scripted `ALSACaptureDevice`: each read plays the next step (frames stamped at a time, or an error code), and
/// every recovery, start and close is recorded. When the script runs out, waits time out.
final class ALSAScriptedDevice: ALSACaptureDevice, @unchecked Sendable {
    enum Step {
        /// A read of `frames` frames whose hardware timestamp (no frames left available) is `time`.
        case frames(Int, at: MediaTime)
        /// A read that fails with this negative code.
        case failure(Int32)
    }

    let name = "scripted"
    let rate: Int32
    let channels: Int
    let periodFrames: Int
    let monotonicTimestamps = true
    private let lock = NSLock()
    private var script: [Step]
    private var current: Step?
    private var log: [String] = []
    private var isClosed = false
    private var unplugged = false

    init(rate: Int32 = 48_000, channels: Int = 2, script: [Step]) {
        self.rate = rate
        self.channels = channels
        periodFrames = Int(rate) / 50
        self.script = script
    }

    /// "prepare", "start", "recover(-32)", "close"… in call order.
    var calls: [String] { lock.withLock { log } }
    var closed: Bool { lock.withLock { isClosed } }

    func prepare() throws { lock.withLock { log.append("prepare") } }
    func start() throws { lock.withLock { log.append("start") } }

    func wait(milliseconds: Int32) -> Int32 {
        let empty = lock.withLock { script.isEmpty }
        if empty { usleep(2_000); return 0 }
        return 1
    }

    func read(into buffer: UnsafeMutablePointer<Int16>, frames: Int) -> Int {
        lock.withLock {
            guard !script.isEmpty else { return Int(-EAGAIN) }
            let step = script.removeFirst()
            current = step
            switch step {
            case .frames(let count, _):
                buffer.update(repeating: 1000, count: min(count, frames) * channels)
                return min(count, frames)
            case .failure(let code):
                return Int(code)
            }
        }
    }

    func hardwareTimestamp() -> (available: Int, time: MediaTime)? {
        lock.withLock {
            guard case .frames(let count, let time)? = current else { return nil }
            return (0, time + MediaTime(value: Int64(count), timescale: rate))
        }
    }

    func recover(from code: Int32) throws { lock.withLock { log.append("recover(\(code))") } }
    /// Makes `isDisconnected` true, as when the card is pulled out between two reads.
    func unplug() { lock.withLock { unplugged = true } }
    var isDisconnected: Bool { lock.withLock { unplugged } }
    func drop() {}
    func close() { lock.withLock { log.append("close"); isClosed = true } }
}
