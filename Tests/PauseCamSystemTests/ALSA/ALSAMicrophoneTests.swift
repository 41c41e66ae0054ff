import Foundation
import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// Collects chunks from the microphone's capture thread.
final class ALSAChunkLog: @unchecked Sendable {
    private let lock = NSLock()
    private var chunks: [AudioChunk] = []
    let enough = XCTestExpectation(description: "five chunks")
    func append(_ chunk: AudioChunk) {
        lock.lock()
        chunks.append(chunk)
        let count = chunks.count
        lock.unlock()
        if count == 5 { enough.fulfill() }
    }
    var all: [AudioChunk] { lock.lock(); defer { lock.unlock() }; return chunks }
}

final class ALSAMicrophoneTests: XCTestCase {
    func testNullPCMDeliversOrderedChunksOnTheMonotonicClock() throws {
        let microphone: ALSAMicrophone
        do {
            microphone = try ALSAMicrophone(pcm: "null", warn: { _ in })
        } catch {
            throw XCTSkip("the ALSA null PCM does not open here: \(error)")
        }
        XCTAssertEqual(microphone.sampleRate, 48_000)
        XCTAssertTrue([1, 2].contains(microphone.channels))
        XCTAssertEqual(microphone.displayName, "ALSA null")
        let before = MonotonicClock.now()
        let log = ALSAChunkLog()
        try microphone.start(deliver: { log.append($0) }, onEnd: { _ in XCTFail("the null PCM never ends") })
        wait(for: [log.enough], timeout: 10)
        microphone.stop()
        microphone.stop()
        let after = MonotonicClock.now()
        let chunks = log.all
        XCTAssertGreaterThanOrEqual(chunks.count, 5)
        for (previous, next) in zip(chunks, chunks.dropFirst()) {
            // Stamped with measured capture times, never before half a sample ahead of the previous chunk's end:
            // the samples stay in order (the drift correction downstream handles the rest).
            XCTAssertGreaterThanOrEqual(next.pts, previous.end - .nanoseconds(500_000_000 / 48_000),
                                        "samples in order")
            XCTAssertGreaterThan(next.pts, previous.pts)
        }
        // On CLOCK_MONOTONIC: the first sample lies within the buffer's span before start, and not after stop.
        let first = try XCTUnwrap(chunks.first)
        XCTAssertGreaterThan(first.pts, before - .seconds(1))
        XCTAssertLessThan(first.pts, after)
        XCTAssertTrue(chunks.allSatisfy { $0.channels == microphone.channels && $0.sampleRate == 48_000 })
        XCTAssertEqual(microphone.statistics.chunks, chunks.count)
    }

    func testAPCMThatDoesNotExistIsAClearError() {
        XCTAssertThrowsError(try ALSAMicrophone(pcm: "pausecam_no_such_pcm", warn: { _ in })) { error in
            guard let alsa = error as? ALSAError else { return XCTFail("\(error)") }
            XCTAssertEqual(alsa.pcm, "pausecam_no_such_pcm")
            XCTAssertEqual(alsa.call, "snd_pcm_open")
            let text = alsa.description
            XCTAssertTrue(text.contains("pausecam_no_such_pcm") && text.contains(alsa.message) && !alsa.message.isEmpty,
                          text)
            XCTAssertTrue(text.contains("arecord -L"), text)
        }
    }
}
