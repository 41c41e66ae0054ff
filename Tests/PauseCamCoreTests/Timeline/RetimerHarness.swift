@testable import PauseCamCore

/// Feeds a `Retimer` and keeps everything it returned, for the edge-case and property tests.
///
/// Audio samples carry their own global sample index `g` (low 16 bits in channel 0, high 16 bits in channel 1), so
/// a test can tell exactly which captured samples survived and compute each piece's capture time from its values.
struct RetimerHarness {
    struct AppendedFrame: Equatable {
        var pts: MediaTime
        var fileTime: MediaTime
        var startsSegment: Bool
    }

    var retimer: Retimer
    var frames: [AppendedFrame] = []
    var drops: [(pts: MediaTime, reason: Retimer.DropReason)] = []
    var audio: [AudioChunk] = []

    init(frameDuration: MediaTime) { retimer = Retimer(frameDuration: frameDuration) }

    /// Retimes one video frame and collects the audio it released; returns the decision.
    @discardableResult
    mutating func video(_ pts: MediaTime) -> Retimer.VideoDecision {
        let decision = retimer.retimeVideo(pts: pts)
        switch decision {
        case .append(let fileTime, let starts): frames.append(AppendedFrame(pts: pts, fileTime: fileTime, startsSegment: starts))
        case .drop(let reason): drops.append((pts, reason))
        }
        audio += retimer.takeAudio()
        return decision
    }

    mutating func audio(_ chunk: AudioChunk) {
        retimer.retimeAudio(chunk)
        audio += retimer.takeAudio()
    }

    mutating func finish() {
        retimer.finish()
        audio += retimer.takeAudio()
    }

    /// A stereo chunk of `count` samples starting at global sample `first` of a stream whose sample 0 is at `base`.
    static func chunk(base: MediaTime, rate: Int32, first: Int64, count: Int) -> AudioChunk {
        // Through a buffer pointer: the property test makes millions of samples in a debug build.
        let samples = [Int16](unsafeUninitializedCapacity: count * 2) { buffer, initialized in
            for i in 0..<count {
                let g = first + Int64(i)
                buffer[2 * i] = Int16(truncatingIfNeeded: g & 0xFFFF)
                buffer[2 * i + 1] = Int16(truncatingIfNeeded: g >> 16)
            }
            initialized = count * 2
        }
        let pts = base + MediaTime(value: first, timescale: rate)
        return AudioChunk(pts: pts, sampleRate: rate, channels: 2, samples: samples)
    }

    /// The global sample index of sample `i` of `chunk` (see `chunk(base:rate:first:count:)`).
    static func index(_ chunk: AudioChunk, _ i: Int) -> Int64 {
        Int64(UInt16(bitPattern: chunk.samples[2 * i + 1])) << 16 | Int64(UInt16(bitPattern: chunk.samples[2 * i]))
    }

    /// The output audio as merged ranges of global sample indices, checking that each piece is contiguous.
    func keptSampleRanges() -> (ranges: [Range<Int64>], contiguousPieces: Bool) {
        var ranges: [Range<Int64>] = []
        var contiguous = true
        for piece in audio {
            let first = RetimerHarness.index(piece, 0)
            piece.samples.withUnsafeBufferPointer { buffer in
                for i in 0..<piece.frameCount {
                    let g = Int64(UInt16(bitPattern: buffer[2 * i + 1])) << 16 | Int64(UInt16(bitPattern: buffer[2 * i]))
                    if g != first + Int64(i) { contiguous = false }
                }
            }
            let range = first..<(first + Int64(piece.frameCount))
            if let last = ranges.last, last.upperBound == range.lowerBound {
                ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
            } else {
                ranges.append(range)
            }
        }
        return (ranges, contiguous)
    }
}

/// The first sample index of a stream (sample 0 at `base`, `rate` per second) captured at or after `time`.
func firstSample(atOrAfter time: MediaTime, base: MediaTime, rate: Int32) -> Int64 {
    // Exact even when `time − base` had to be rounded to a nanosecond: the rounding is far below a sample.
    try! (time - base).rescaled(to: rate, rounding: .up).value
}
