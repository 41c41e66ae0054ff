import Foundation
import PauseCamCore

/// The body of `GET /program.mjpg`: `multipart/x-mixed-replace` with one JPEG part per program picture, at most
/// `maximumRate` pictures a second. It asks for a new picture only when the previous one has been handed to the
/// connection in full, and then takes the newest, so a slow viewer skips pictures and never queues them. With no
/// new picture for a second, the last one is sent again, so a viewer that left is noticed.
///
/// Threads: `read` from the one connection thread that sends the body (its state is a `Guarded` only so the type is
/// `Sendable`: that lock is never contended, and no wait happens under it); `close` from libmicrohttpd's thread.
final class MJPEGStream: HTTPBodyStream, Sendable {
    static let boundary = "pausecam-frame"
    static let maximumRate = 15.0

    private let pictures: any MonitorPictures
    private let isStopping: @Sendable () -> Bool
    private let onClose: @Sendable () -> Void
    /// What the connection thread is sending and what it sent last.
    private struct Outgoing {
        var pending: [UInt8] = []
        var offset = 0
        var lastSequence: UInt64 = 0
        var lastPicture: MonitorPicture?
        /// The earliest the next picture may go (the monotonic clock: a wall-clock step must not stall the stream).
        var nextPictureTime = ContinuousClock.now
    }

    private let outgoing = Guarded(Outgoing())
    private let closed = Guarded(false)

    /// Starts watching `pictures`; `onClose` runs once when the viewer is gone.
    init(pictures: any MonitorPictures, isStopping: @escaping @Sendable () -> Bool, onClose: @escaping @Sendable () -> Void) {
        self.pictures = pictures
        self.isStopping = isStopping
        self.onClose = onClose
        pictures.startWatching()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        let (sentAll, nextPictureTime, lastSequence) = outgoing.withLock {
            ($0.offset == $0.pending.count, $0.nextPictureTime, $0.lastSequence)
        }
        if sentAll {
            if isStopping() { return nil }
            let wait = nextPictureTime - ContinuousClock.now
            if wait > .zero { Thread.sleep(forTimeInterval: wait / .seconds(1)) }
            let fresh = pictures.programPicture(after: lastSequence, timeoutSeconds: 1)
            let ready = outgoing.withLock { outgoing -> Bool in
                if let fresh {
                    outgoing.lastSequence = fresh.sequence
                    outgoing.lastPicture = fresh
                }
                guard let picture = outgoing.lastPicture else { return false }
                outgoing.nextPictureTime = ContinuousClock.now + .seconds(1 / Self.maximumRate)
                outgoing.pending = Array("--\(Self.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(picture.jpeg.count)\r\n\r\n".utf8)
                    + picture.jpeg + Array("\r\n".utf8)
                outgoing.offset = 0
                return true
            }
            guard ready else { return 0 }
        }
        return outgoing.withLock { outgoing in
            let count = min(buffer.count, outgoing.pending.count - outgoing.offset)
            outgoing.pending.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + outgoing.offset, byteCount: count)
            }
            outgoing.offset += count
            return count
        }
    }

    func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        pictures.stopWatching()
        onClose()
    }
}
