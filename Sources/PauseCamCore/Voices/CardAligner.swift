/// One sound card's audio placed on the session clock's sample grid, at the movie's rate: grid frame `n` is the
/// sound captured at `n / outputRate` seconds of the session clock. Every card has its own crystal, so each has its
/// own `AudioDriftCorrector`: where a chunk's capture time says it belongs against where the card's output has got
/// to becomes a gentle resampling ratio (a few ppm, inaudible), and only a real stall (a card that stopped, a
/// burst after one) becomes silence or a cut. Used on the serial context.
struct CardAligner {
    let outputRate: Int32
    /// The card's channels (interleaved in `buffer`); set by its first chunk.
    private(set) var channels = 0
    private var inputRate: Int32 = 0
    private var resampler: (any SoundResampler)?
    private var corrector: AudioDriftCorrector
    /// The grid frame the resampler's next output frame goes to; `nil` before the first chunk (or after a reset).
    private var position: Int64?
    /// Output frames still to drop from the head of what the resampler gives (a stall correction).
    private var pendingDrop = 0
    /// Placed frames not yet taken, interleaved, the first at grid frame `bufferStart`.
    private var buffer: [Int16] = []
    private(set) var bufferStart: Int64 = 0

    init(outputRate: Int32) {
        self.outputRate = outputRate
        corrector = AudioDriftCorrector(sampleRate: outputRate)
    }

    /// The grid frame just after the last one placed; `nil` before any sound.
    var end: Int64? { channels == 0 && buffer.isEmpty && position == nil ? nil : bufferStart + Int64(frameCount) }
    private var frameCount: Int { channels == 0 ? 0 : buffer.count / channels }

    /// Stall corrections so far (for the sidecar and tests).
    var stalls: Int { corrector.stalls }

    /// Places `chunk` (capture time `pts` on the session clock) through the resampler.
    mutating func add(_ chunk: AudioChunk, resamplers: any SoundResamplerMaking) throws {
        if resampler == nil || chunk.sampleRate != inputRate || chunk.channels != channels {
            if chunk.channels != channels { buffer.removeAll() }
            resampler = try resamplers.makeResampler(inputRate: chunk.sampleRate, channels: chunk.channels,
                                                     outputRate: outputRate)
            inputRate = chunk.sampleRate
            channels = chunk.channels
            corrector = AudioDriftCorrector(sampleRate: outputRate)
            position = nil
            pendingDrop = 0
        }
        guard let resampler else { return }
        let expected = Self.gridFrame(of: chunk.pts, rate: outputRate)
        let placed = position.map { $0 + resampler.delay } ?? expected
        switch corrector.correction(expected: expected, position: placed) {
        case .placeFirst:
            position = expected
            if buffer.isEmpty || expected < bufferStart + Int64(frameCount) {
                // The first sound of the card, or its first after it came back earlier than what waits (a clock
                // stepped back): what waits is given up rather than placed twice.
                buffer.removeAll()
                bufferStart = expected
            } else {
                appendSilence(Int(expected - (bufferStart + Int64(frameCount))))
            }
        case .compensate(let delta, let distance):
            try resampler.setCompensation(delta: delta, distance: distance)
        case .insertSilence(let count):
            let resumed = (position ?? expected) + Int64(count)
            if buffer.isEmpty || count > Int(outputRate) {
                // Nothing waits, or what waits is from long ago (sound was not taken meanwhile): the card starts
                // again where its sound now belongs, and the desk hears silence in between.
                buffer.removeAll()
                bufferStart = resumed
            } else {
                appendSilence(count)
            }
            position = resumed
        case .drop(let count):
            pendingDrop += count
        }
        var output = try resampler.convert(chunk.samples)
        if pendingDrop > 0 {
            let dropped = min(pendingDrop, output.count / channels)
            output.removeFirst(dropped * channels)
            pendingDrop -= dropped
        }
        if buffer.isEmpty, let position { bufferStart = position }
        buffer.append(contentsOf: output)
        position = (position ?? expected) + Int64(output.count / channels)
    }

    private mutating func appendSilence(_ frames: Int) {
        guard frames > 0 else { return }
        buffer.append(contentsOf: repeatElement(0, count: frames * channels))
    }

    /// The card went away: what is placed stays to be taken; its next sound starts afresh (a new resampler, a new
    /// drift estimate: a card plugged back in is a new crystal state).
    mutating func reset() {
        resampler = nil
        position = nil
        pendingDrop = 0
    }

    /// Calls `body` with the placed frames among grid frames `from..<to`: the interleaved buffer, the index in it of
    /// the first such frame's first sample, where that frame lands (frames after `from`) and how many there are.
    /// `nil` when none is placed there.
    func withPlaced<Result>(from: Int64, to: Int64,
                            _ body: (UnsafeBufferPointer<Int16>, _ first: Int, _ offset: Int, _ count: Int) -> Result)
        -> Result? {
        guard channels > 0 else { return nil }
        let first = max(from, bufferStart)
        let last = min(to, bufferStart + Int64(frameCount))
        guard first < last else { return nil }
        return buffer.withUnsafeBufferPointer { pointer in
            body(pointer, Int(first - bufferStart) * channels, Int(first - from), Int(last - first))
        }
    }

    /// Forgets placed frames before grid frame `frame`.
    mutating func discard(before frame: Int64) {
        guard channels > 0, frame > bufferStart else { return }
        let count = min(Int(frame - bufferStart), frameCount)
        buffer.removeFirst(count * channels)
        bufferStart += Int64(count)
        if buffer.isEmpty { bufferStart = max(bufferStart, frame) }
    }

    /// The grid frame of session time `time` (to the nearest).
    static func gridFrame(of time: MediaTime, rate: Int32) -> Int64 {
        (try? time.rescaled(to: rate, rounding: .nearest).value) ?? 0
    }
}
