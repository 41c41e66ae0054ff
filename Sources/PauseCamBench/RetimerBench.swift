import Foundation
import PauseCamCore

/// The retimer's cost per audio sample: `seconds` of 30 fps video and 48 kHz mono audio in 10 ms chunks retimed
/// (video frame, then the chunks up to it, then `takeAudio`), with a pause and resume every 10 s. The figure is
/// the whole loop's time over the audio samples retimed, so it includes the video frames' share.
enum RetimerBench {
    static func nanosecondsPerSample(seconds: Int64 = 600) -> Double {
        let sampleRate: Int32 = 48_000, chunk = 480
        var retimer = Retimer(frameDuration: FrameRate(30).frameDuration)
        retimer.start(at: .zero)
        let samples = [Int16](repeating: 0, count: chunk)
        var nextSample: Int64 = 0
        var released = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for frame in 0..<(seconds * 30) {
            if frame % 300 == 150 { retimer.pause(at: MediaTime(value: frame, timescale: 30)) }
            if frame % 300 == 200 { retimer.resume(at: MediaTime(value: frame, timescale: 30)) }
            _ = retimer.retimeVideo(pts: MediaTime(value: frame, timescale: 30))
            let audioEnd = (frame + 1) * Int64(sampleRate) / 30
            while nextSample + Int64(chunk) <= audioEnd {
                retimer.retimeAudio(AudioChunk(pts: MediaTime(value: nextSample, timescale: sampleRate),
                                               sampleRate: sampleRate, channels: 1, samples: samples))
                nextSample += Int64(chunk)
            }
            released += retimer.takeAudio().count
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
        precondition(released > 0, "the retimer released no audio")
        return elapsed / Double(nextSample)
    }
}
