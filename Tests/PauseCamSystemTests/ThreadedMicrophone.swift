import Foundation
import PauseCamCore

/// A microphone that captures like ALSA's capture thread: its own thread delivers a 10 ms chunk of 48 kHz mono
/// every 10 ms, stamped on the sample clock from the clock's time at start, whatever the serial context is doing.
final class ThreadedMicrophone: Microphone, @unchecked Sendable {
    let displayName = "Threaded microphone"
    let sampleRate: Int32 = 48_000
    let channels = 1
    private let clock: any Clock
    private let lock = NSLock()
    private var running = false
    private let ended = DispatchSemaphore(value: 0)

    init(clock: any Clock) { self.clock = clock }

    func start(deliver: @escaping @Sendable (AudioChunk) -> Void, onEnd: @escaping @Sendable (String) -> Void) {
        lock.withLock { running = true }
        let first = clock.now()
        let chunkFrames = Int(sampleRate) / 100
        let thread = Thread { [self] in
            var sampleFrames: Int64 = 0
            let started = Date()
            while lock.withLock({ running }) {
                let pts = first + MediaTime(value: sampleFrames, timescale: sampleRate)
                deliver(AudioChunk(pts: pts, sampleRate: sampleRate, channels: channels,
                                   samples: [Int16](repeating: 0, count: chunkFrames * channels)))
                sampleFrames += Int64(chunkFrames)
                let due = started.addingTimeInterval(Double(sampleFrames) / Double(sampleRate))
                let wait = due.timeIntervalSinceNow
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            }
            ended.signal()
        }
        thread.name = "test.microphone"
        thread.start()
    }

    /// Ends the capture thread and waits for it.
    func stop() {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        if wasRunning { ended.wait() }
    }
}
