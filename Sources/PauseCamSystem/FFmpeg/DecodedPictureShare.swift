import Foundation

/// Decoded JPEG pictures shared between the movie's `CanvasScaler` and the monitor's `MonitorPictureMaker`, so a
/// camera frame that both need (the program lens while someone watches a recording) is decoded once. Decoding a
/// 1080p MJPEG frame is most of what a picture costs (4–10 ms), and both sides ask for the same frame within a few
/// milliseconds of each other. The monitor, which takes the newest frame and is ahead of the movie's encoder (its
/// frames wait in the recorder's queues), publishes what it decodes; the encoder takes a published picture, or
/// waits for one being decoded, and decodes only the frames the monitor skipped (those it keeps to itself).
///
/// Holds each lens's last `framesPerLens` published frames, and only while the monitor is watched (`startSharing`/`stopSharing`, from
/// `MonitorFeed`); otherwise every call simply decodes. A picture is a reference to the decoder's buffers, read by
/// both threads and written by neither.
/// Unchecked Sendable: its table is under `condition`.
final class DecodedPictureShare: @unchecked Sendable {
    /// The one share of the process: the composition root makes one monitor feed and one movie at a time.
    static let shared = DecodedPictureShare()

    /// Which picture: a lens's frame, by the storage of its JPEG bytes. The movie's copy of a frame carries
    /// another timestamp (file time) than the monitor's (capture time), but both share the camera's bytes
    /// (copy-on-write, never mutated); the share keeps those bytes alive while it holds them, so no other frame can
    /// come to have their address.
    struct Key {
        var lens: String
        var bytes: [UInt8]

        /// True when both name the same frame: the same lens and the same byte storage.
        func names(_ other: Key) -> Bool {
            guard lens == other.lens, bytes.count == other.bytes.count, !bytes.isEmpty else { return false }
            return bytes.withUnsafeBufferPointer { mine in
                other.bytes.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
            }
        }
    }

    /// How long a second asker waits for the first one's decode before decoding itself.
    static let waitLimit = 0.25

    private let condition = NSCondition()
    private var sharers = 0
    /// How many published frames per lens are held: the encoder may be this many program pictures behind the
    /// monitor (at 15 of 30 frames, a third of a second) and still find them. A decoded 1080p 4:2:2 picture is
    /// 4 MB.
    static let framesPerLens = 8
    /// Each lens's last frames, oldest first: a picture once decoded, `nil` while someone decodes it.
    private var recent: [String: [(key: Key, picture: DecodedPicture?)]] = [:]

    /// Someone will ask for pictures the movie also decodes (a monitor viewer came).
    func startSharing() {
        condition.lock()
        sharers += 1
        condition.unlock()
    }

    /// That one left; with nobody, the pictures held are let go.
    func stopSharing() {
        condition.lock()
        sharers = max(0, sharers - 1)
        if sharers == 0 { recent = [:] }
        condition.broadcast()
        condition.unlock()
    }

    /// The picture of `key` if it is decoded already; nothing is claimed or waited for.
    func ready(_ key: Key) -> DecodedPicture? {
        condition.lock()
        defer { condition.unlock() }
        return recent[key.lens]?.last(where: { $0.key.names(key) })?.picture
    }

    /// The picture of `key`: the one published already, or the one being decoded for publishing by another thread
    /// (waited for up to `waitLimit`), or what `decode` makes now, then published when `publish` says so. Without
    /// sharers it only decodes.
    func picture(_ key: Key, publish: Bool, decode: () throws -> DecodedPicture?) throws -> DecodedPicture? {
        condition.lock()
        guard sharers > 0 else {
            condition.unlock()
            return try decode()
        }
        let deadline = Date().addingTimeInterval(Self.waitLimit)
        while let entry = recent[key.lens]?.last(where: { $0.key.names(key) }) {
            if let picture = entry.picture {
                condition.unlock()
                return picture
            }
            if !condition.wait(until: deadline) { break }
        }
        guard publish else {
            condition.unlock()
            return try decode()
        }
        recent[key.lens, default: []].removeAll { $0.key.names(key) }
        recent[key.lens, default: []].append((key, nil))
        if recent[key.lens]!.count > Self.framesPerLens { recent[key.lens]!.removeFirst() }
        condition.unlock()
        let made: DecodedPicture?
        do {
            made = try decode()
        } catch {
            settle(key, nil)
            throw error
        }
        settle(key, made)
        return made
    }

    /// Records the outcome of a claimed decode (`nil`: none; the next asker decodes) and wakes whoever waits.
    private func settle(_ key: Key, _ picture: DecodedPicture?) {
        condition.lock()
        if let index = recent[key.lens]?.lastIndex(where: { $0.key.names(key) }) {
            if let picture, sharers > 0 {
                recent[key.lens]![index].picture = picture
            } else {
                recent[key.lens]!.remove(at: index)
            }
        }
        condition.broadcast()
        condition.unlock()
    }
}
