import Foundation
import PauseCamCore

/// The body of `GET /program.mjpg`: `multipart/x-mixed-replace` with one JPEG part per program picture, at most
/// `maximumRate` pictures a second. It asks for a new picture only when the previous one has been handed to the
/// connection in full, and then takes the newest, so a slow viewer skips pictures and never queues them. With no
/// new picture for a second, the last one is sent again, so a viewer that left is noticed.
/// Unchecked Sendable: its buffer and offset belong to the one connection thread that reads the body; only `closed` is shared, under `lock`.
final class MJPEGStream: HTTPBodyStream, @unchecked Sendable {
    static let boundary = "pausecam-frame"
    static let maximumRate = 15.0

    private let pictures: any MonitorPictures
    private let isStopping: @Sendable () -> Bool
    private let onClose: @Sendable () -> Void
    private var pending: [UInt8] = []
    private var offset = 0
    private var lastSequence: UInt64 = 0
    private var lastPicture: MonitorPicture?
    /// The earliest the next picture may go (the monotonic clock: a wall-clock step must not stall the stream).
    private var nextPictureTime = ContinuousClock.now
    private let lock = NSLock()
    private var closed = false

    /// Starts watching `pictures`; `onClose` runs once when the viewer is gone.
    init(pictures: any MonitorPictures, isStopping: @escaping @Sendable () -> Bool, onClose: @escaping @Sendable () -> Void) {
        self.pictures = pictures
        self.isStopping = isStopping
        self.onClose = onClose
        pictures.startWatching()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        if offset == pending.count {
            if isStopping() { return nil }
            let wait = nextPictureTime - ContinuousClock.now
            if wait > .zero { Thread.sleep(forTimeInterval: wait / .seconds(1)) }
            if let picture = pictures.programPicture(after: lastSequence, timeoutSeconds: 1) {
                lastSequence = picture.sequence
                lastPicture = picture
            } else if lastPicture == nil {
                return 0
            }
            guard let picture = lastPicture else { return 0 }
            nextPictureTime = ContinuousClock.now + .seconds(1 / Self.maximumRate)
            pending = Array("--\(Self.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(picture.jpeg.count)\r\n\r\n".utf8)
                + picture.jpeg + Array("\r\n".utf8)
            offset = 0
        }
        let count = min(buffer.count, pending.count - offset)
        pending.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }

    func close() {
        let first: Bool = lock.withLock { defer { closed = true }; return !closed }
        guard first else { return }
        pictures.stopWatching()
        onClose()
    }
}
