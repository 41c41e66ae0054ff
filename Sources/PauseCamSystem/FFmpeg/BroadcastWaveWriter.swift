import CFFmpeg
import Foundation
import PauseCamCore

/// A voice's Broadcast WAV (`NAME.iso/VOICE.wav`), the `VoiceWaveSink` the program's recorder feeds.
///
/// Threads: `append` (the serial context) only sends the samples into a `BoundedChannel` (ten seconds of them;
/// `.block` on the simulated clock, `.refuse` on the real one: a refused chunk becomes silence, since the file
/// places every chunk at its file time); the writer's own thread, `PauseCam wave VOICE`, takes them, places them
/// (`VoiceWaveLayout`: silence fills a gap), converts them to 24 bits and hands them to the muxer, making its sizes
/// true every half second of sound (`BroadcastWaveMuxer.syncSizes`). `finish`, `abort` and `discard` (the
/// finisher's worker, or the context) close the channel and wait for that thread; from then on the muxer is theirs.
/// The muxer lives in a `Guarded`, so every call on it is serialised; the first failure in another, so `append`
/// never waits for a write in progress.
final class BroadcastWaveWriter: VoiceWaveSink {
    let voice: String
    let path: String
    private let sampleRate: Int32
    private let description: BroadcastWaveMuxer.Description
    private let jobs: BoundedChannel<Job>
    private let writing: Guarded<Writing>
    private let failure = Guarded<FFmpegError?>(nil)
    private let threadEnded = DispatchGroup()

    private struct Job: Sendable {
        var samples: [Int16]
        var fileTime: MediaTime
    }

    /// Unchecked Sendable: under lock. The muxer is made by `init` and reached only inside `writing`.
    private struct Writing: @unchecked Sendable {
        var muxer: BroadcastWaveMuxer?
        var layout: VoiceWaveLayout
        /// The samples written at the last size sync.
        var syncedAt: Int64 = 0
    }

    /// Opens `path` (creating nothing else) and starts the writer's thread.
    init(voice: String, path: String, sampleRate: Int32, description: BroadcastWaveMuxer.Description,
         blockWhenBehind: Bool) throws {
        self.voice = voice
        self.path = path
        self.sampleRate = sampleRate
        self.description = description
        let muxer = try BroadcastWaveMuxer(path: path, sampleRate: sampleRate, description: description)
        writing = Guarded(Writing(muxer: muxer, layout: VoiceWaveLayout(sampleRate: sampleRate)))
        jobs = BoundedChannel(capacity: Int(sampleRate) * 10, policy: blockWhenBehind ? .block : .refuse,
                              weight: { $0.samples.count })
        threadEnded.enter()
        let name = "PauseCam wave \(voice)"
        let thread = Thread { [self] in
            KernelThreadName.set(name)
            while let job = jobs.receive() { write(job) }
            threadEnded.leave()
        }
        thread.name = name
        thread.start()
    }

    func append(_ samples: [Int16], at fileTime: MediaTime) throws {
        if let failure = failure.withLock({ $0 }) { throw failure }
        _ = jobs.send(Job(samples: samples, fileTime: fileTime))
    }

    /// On the writer's thread: one chunk into the file at its file time.
    private func write(_ job: Job) {
        guard failure.withLock({ $0 }) == nil else { return }
        let error: FFmpegError? = writing.withLock { state in
            guard let muxer = state.muxer else { return nil }
            let placement = state.layout.place(count: job.samples.count, at: job.fileTime)
            do {
                var silence = placement.silence
                while silence > 0 {
                    let count = min(silence, Int(sampleRate))
                    try muxer.write([UInt8](repeating: 0, count: count * 3), count: count)
                    silence -= count
                }
                let kept = job.samples[placement.skip...]
                try muxer.write(BroadcastWaveMuxer.pcm24(kept), count: kept.count)
                if muxer.samples - state.syncedAt >= Int64(sampleRate / 2) {
                    try muxer.syncSizes()
                    state.syncedAt = muxer.samples
                }
            } catch let error as FFmpegError {
                return error
            } catch {
                return FFmpegError("writing \(path): \(error)", code: pausecam_averror(EIO))
            }
            return nil
        }
        if let error { failure.withLock { $0 = error } }
    }

    /// Ends the writer's thread once it has written everything sent, and takes the muxer.
    private func stopThread() -> BroadcastWaveMuxer? {
        jobs.close()
        threadEnded.wait()
        return writing.withLock { state in
            let muxer = state.muxer
            state.muxer = nil
            return muxer
        }
    }

    func finish(discarding spans: [Range<MediaTime>]) throws -> VoiceWaveSummary {
        guard let muxer = stopThread() else { throw FFmpegError("\(path) is closed", code: pausecam_averror(EINVAL)) }
        if let failure = failure.withLock({ $0 }) {
            muxer.abandon()
            throw failure
        }
        try muxer.finish()
        let cuts = VoiceWaveLayout.discardedSamples(spans, sampleRate: sampleRate)
        let kept = cuts.isEmpty ? muxer.samples
            : try BroadcastWaveCutter.cut(path, leavingOut: cuts, sampleRate: sampleRate, description: description)
        return VoiceWaveSummary(path: path, samples: Int(kept), samplesDropped: jobs.droppedTotal)
    }

    func abort() {
        stopThread()?.abandon()
    }

    func discard() {
        stopThread()?.abandon()
        FileSystemCalls.remove(path)
    }
}
