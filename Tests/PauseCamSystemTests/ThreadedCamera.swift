import Foundation
import PauseCamCore

/// A camera that captures like a V4L2 capture thread: its own thread makes a fresh 1080p yuv420p frame (3.1 MB,
/// newly allocated, as a dequeued buffer copied out of the driver would be) every frame period, stamps it with the
/// clock's time and delivers it, whatever the serial context is doing. Nothing it does waits for the context.
final class ThreadedCamera: Camera, @unchecked Sendable {
    let displayName: String
    let format: CameraFormat
    private let lens: String
    private let clock: any Clock
    private let lock = NSLock()
    private var running = false
    private var delivered = 0
    private let ended = DispatchSemaphore(value: 0)

    init(lens: String, clock: any Clock, width: Int = 1920, height: Int = 1080, rate: FrameRate = FrameRate(30)) {
        self.lens = lens
        self.clock = clock
        displayName = "Threaded \(lens)"
        format = CameraFormat(width: width, height: height, rate: rate, pixelFormat: .yuv420p)
    }

    /// Frames handed to `deliver` so far.
    var deliveredCount: Int { lock.withLock { delivered } }

    func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) {
        lock.withLock { running = true }
        let period = 1.0 / format.rate.framesPerSecondForTests
        let thread = Thread { [self] in
            var next = Date()
            var index = 0
            while lock.withLock({ running }) {
                deliver(makeFrame(index: index))
                index += 1
                lock.withLock { delivered += 1 }
                next += period
                // A capture thread that fell behind (the machine is loaded) takes the next frame at once.
                let wait = next.timeIntervalSinceNow
                if wait > 0 { Thread.sleep(forTimeInterval: wait) } else { next = Date() }
            }
            ended.signal()
        }
        thread.name = "test.camera.\(lens)"
        thread.start()
    }

    /// Ends the capture thread and waits for it, as `V4L2Camera.stop` joins its own.
    func stop() {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        if wasRunning { ended.wait() }
    }

    private func makeFrame(index: Int) -> VideoFrame {
        let width = format.width, height = format.height
        let luma = Plane(bytes: [UInt8](repeating: UInt8(16 + index % 200), count: width * height), stride: width)
        let blue = Plane(bytes: [UInt8](repeating: 128, count: width / 2 * height / 2), stride: width / 2)
        let red = Plane(bytes: [UInt8](repeating: 128, count: width / 2 * height / 2), stride: width / 2)
        return VideoFrame(pts: clock.now(), width: width, height: height, format: .yuv420p,
                          planes: [luma, blue, red], lens: lens)
    }
}

extension FrameRate {
    /// Frames per second as a `Double`, only to pace a test thread's sleeps.
    var framesPerSecondForTests: Double { Double(numerator) / Double(denominator) }
}
