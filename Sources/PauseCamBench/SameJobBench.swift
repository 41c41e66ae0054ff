import Foundation
import PauseCamCore
@_spi(Bench) import PauseCamSystem

/// PauseCam's movie writer against the ffmpeg command line on the same job, and against libx264 alone (the floor).
///
/// The job, on both sides: the same frames (looped) and the same PCM, x264 at the preset with CRF 23 and a keyframe
/// every 2 s, AAC 128 kb/s mono, into a fragmented `.mov` (`frag_keyframe+empty_moov+default_base_moof`,
/// 500 ms fragments) and then a stream-copy remux to a `+faststart` `.mov` — what `MovieWriter`,
/// `PartialMovieMuxer` and `ChapterRemuxer` do. PauseCam's time runs from the first frame handed to the writer to
/// `finish` returning; the ffmpeg CLI's is both commands' wall time. The floor encodes the same frames with
/// libx264 in this process, nothing else (`EncoderSpeedMeter`). A figure is frames per second of wall time.
enum SameJobBench {
    struct Figures {
        var pauseCamFPS: Double
        /// The ffmpeg command line on the same job: for an HD canvas that includes the BT.709 matrix PauseCam
        /// applies (`colorspace` filter, `fast=1`: the matrix only, as PauseCam does).
        var ffmpegFPS: Double?
        var floorFPS: Double
        /// CPU milliseconds (user + system, every thread) per frame of each side, the lowest of the rounds: unlike
        /// frames per second, hardly moved by what else runs on the machine.
        var pauseCamCPU = Double.infinity, ffmpegCPU: Double?, floorCPU = Double.infinity
        /// The ffmpeg command line without the matrix (its movie keeps BT.601 values): not the same job, shown so
        /// a reader sees what the conversion costs ffmpeg.
        var ffmpegWithoutMatrixFPS: Double?, ffmpegWithoutMatrixCPU: Double?
        /// The pipeline's other stages alone, CPU milliseconds per frame (lowest of the rounds): drawing onto the
        /// canvas (copy and BT.709 matrix), and AAC for one frame's share of the sound.
        var drawingCPU = Double.infinity, audioCPU = Double.infinity
        /// Every round's CPU milliseconds per frame of each side, in the order run: on this shared machine a side's
        /// figure moves by 10 % or more between rounds a minute apart, so a ratio inside that spread is noise.
        var pauseCamRounds: [Double] = [], ffmpegRounds: [Double] = [], floorRounds: [Double] = []
        var ratio: Double? { ffmpegFPS.map { pauseCamFPS / $0 } }
        var floorRatio: Double { pauseCamFPS / floorFPS }
        /// The same ratios in CPU per frame (above 1: PauseCam spends less).
        var cpuRatio: Double? { ffmpegCPU.map { $0 / pauseCamCPU } }
        var floorCPURatio: Double { floorCPU / pauseCamCPU }
        /// The whole job's floor: x264 alone plus the drawing and the AAC it cannot do without, each alone.
        var jobFloorCPU: Double { floorCPU + drawingCPU + audioCPU }
        /// The job's floor over PauseCam's CPU: what is left beyond 1 is the pipeline's own overhead (threads,
        /// queues, muxing, the remux).
        var jobFloorCPURatio: Double { jobFloorCPU / pauseCamCPU }
    }

    /// One side's run: frames per second of wall time and CPU milliseconds per frame.
    struct Run {
        var fps: Double
        var cpuMilliseconds: Double
    }

    static let crf = 23

    /// The three figures, each the best of `repeats` rounds taken in turn (PauseCam, ffmpeg, floor, then again),
    /// so a burst of load from elsewhere on the machine hurts no side alone.
    static func run(content: BenchContent, sound: BenchSound, seconds: Int64, preset: String, repeats: Int,
                    folder: URL) throws -> Figures {
        let frameCount = Int(seconds) * 30
        // A PauseCam movie of this height holds BT.709 values, so the ffmpeg command line's same job converts too.
        let convertsMatrix = PipelineStageTiming.convertsToBT709(height: content.height)
        var best = Figures(pauseCamFPS: 0, ffmpegFPS: nil, floorFPS: 0)
        for _ in 0..<max(1, repeats) {
            let pauseCam = try pauseCamRun(content: content, sound: sound, frameCount: frameCount, preset: preset,
                                           folder: folder)
            best.pauseCamFPS = max(best.pauseCamFPS, pauseCam.fps)
            best.pauseCamCPU = min(best.pauseCamCPU, pauseCam.cpuMilliseconds)
            best.pauseCamRounds.append(pauseCam.cpuMilliseconds)
            if let ffmpeg = ffmpegRun(content: content, sound: sound, seconds: seconds, frameCount: frameCount,
                                      preset: preset, matrix: convertsMatrix, folder: folder) {
                best.ffmpegFPS = max(best.ffmpegFPS ?? 0, ffmpeg.fps)
                best.ffmpegCPU = min(best.ffmpegCPU ?? .infinity, ffmpeg.cpuMilliseconds)
                best.ffmpegRounds.append(ffmpeg.cpuMilliseconds)
            }
            if convertsMatrix,
               let plain = ffmpegRun(content: content, sound: sound, seconds: seconds, frameCount: frameCount,
                                     preset: preset, matrix: false, folder: folder) {
                best.ffmpegWithoutMatrixFPS = max(best.ffmpegWithoutMatrixFPS ?? 0, plain.fps)
                best.ffmpegWithoutMatrixCPU = min(best.ffmpegWithoutMatrixCPU ?? .infinity, plain.cpuMilliseconds)
            }
            let floor = try EncoderSpeedMeter.run(
                preset: preset, crf: crf, frames: content.frames, count: frameCount, width: content.width,
                height: content.height, rate: FrameRate(30))
            best.floorFPS = max(best.floorFPS, floor.framesPerSecond)
            best.floorCPU = min(best.floorCPU, floor.cpuMillisecondsPerFrame)
            best.floorRounds.append(floor.cpuMillisecondsPerFrame)
            best.drawingCPU = min(best.drawingCPU, try PipelineStageTiming.drawingMilliseconds(
                frames: content.frames, count: frameCount, width: content.width, height: content.height))
            best.audioCPU = min(best.audioCPU, try PipelineStageTiming.audioMilliseconds(
                chunks: audioChunks(sound, frameCount: frameCount).map(\.chunk),
                settings: settings(content, preset: preset).audio!) / Double(frameCount))
        }
        return best
    }

    /// PauseCam's side alone on `content` ("pattern" or "camera"), printed: what `perf record -g` profiles.
    static func profile(content name: String, preset: String, seconds: Int64) throws {
        try withJob(content: name, seconds: seconds) { content, sound, folder in
            let run = try pauseCamRun(content: content, sound: sound, frameCount: Int(seconds) * 30, preset: preset,
                                      folder: folder)
            print(String(format: "PauseCam same job %@ x264 %@: %.1f fps, %.2f ms CPU per frame", name, preset,
                         run.fps, run.cpuMilliseconds))
        }
    }

    /// libx264 alone on the same job's frames (the floor), printed: `perf record -g` beside `profile`.
    static func profileFloor(content name: String, preset: String, seconds: Int64) throws {
        try withJob(content: name, seconds: seconds) { content, _, _ in
            let floor = try EncoderSpeedMeter.run(
                preset: preset, crf: crf, frames: content.frames, count: Int(seconds) * 30, width: content.width,
                height: content.height, rate: FrameRate(30))
            print(String(format: "x264 alone %@ x264 %@: %.1f fps, %.2f ms CPU per frame", name, preset,
                         floor.framesPerSecond, floor.cpuMillisecondsPerFrame))
        }
    }

    /// The three sides of one same-job figure on `content` ("pattern" or "camera"), one round, printed.
    static func compare(content name: String, preset: String, seconds: Int64) throws {
        try withJob(content: name, seconds: seconds) { content, sound, folder in
            let f = try run(content: content, sound: sound, seconds: seconds, preset: preset, repeats: 1,
                            folder: folder)
            print(String(format: "%@ %@: fps PauseCam %.1f, ffmpeg %.1f (without the matrix %.1f), x264 alone %.1f; "
                         + "CPU ms/frame %.2f, %.2f (%.2f), %.2f; drawing %.2f, AAC %.2f; job floor ratio %.3f",
                         name, preset, f.pauseCamFPS, f.ffmpegFPS ?? 0, f.ffmpegWithoutMatrixFPS ?? 0, f.floorFPS,
                         f.pauseCamCPU, f.ffmpegCPU ?? 0, f.ffmpegWithoutMatrixCPU ?? 0, f.floorCPU, f.drawingCPU,
                         f.audioCPU, f.jobFloorCPURatio))
        }
    }

    /// Makes a 1080p job's frames (`name`: "pattern" or "camera") and `seconds` of sound in a scratch folder, runs
    /// `body` on them, and removes the folder.
    static func withJob(content name: String, seconds: Int64,
                        _ body: (BenchContent, BenchSound, URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-samejob-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sound = try BenchSound(seconds: seconds + 1, folder: folder)
        guard let content = name == "pattern"
                ? try BenchContent.pattern(width: 1920, height: 1080, count: 60, folder: folder)
                : try BenchContent.camera(width: 1920, height: 1080, count: 60, folder: folder) else {
            print("no \(name) content (is /usr/bin/ffmpeg there?)")
            return
        }
        try body(content, sound, folder)
    }

    static func settings(_ content: BenchContent, preset: String) -> MovieSettings {
        MovieSettings(width: content.width, height: content.height, rate: FrameRate(30), container: .mov,
                      preset: preset, crf: crf, keyframeInterval: .seconds(2),
                      audio: .init(sampleRate: BenchSound.sampleRate, channels: 1, bitrate: 128_000),
                      blockWhenBehind: true)
    }

    /// Frames and 10 ms audio chunks handed to a `MovieWriter` in time order, as the recorder does.
    static func pauseCamRun(content: BenchContent, sound: BenchSound, frameCount: Int, preset: String,
                            folder: URL) throws -> Run {
        let cpuBefore = ProcessCPUTime.seconds()
        let sink = try MovieWriterFactory().makeSink(directory: folder.path, baseName: "pausecam-\(content.name)-\(preset)",
                                                     settings: settings(content, preset: preset))
        let chunks = audioChunks(sound, frameCount: frameCount)
        var audioNext = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<frameCount {
            let time = MediaTime(value: Int64(index), timescale: 30)
            var frame = content.frames[index % content.frames.count]
            frame.pts = time
            try sink.appendVideo(frame, at: time, keyframe: index == 0)
            let audioEnd = (index + 1) * Int(BenchSound.sampleRate) / 30
            while audioNext < chunks.count, chunks[audioNext].endSample <= audioEnd {
                try sink.appendAudio(chunks[audioNext].chunk)
                audioNext += 1
            }
        }
        let summary = try sink.finish(chapters: [])
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpu = ProcessCPUTime.seconds() - cpuBefore
        try? FileManager.default.removeItem(atPath: summary.path)
        return Run(fps: Double(summary.videoFramesWritten) / elapsed,
                   cpuMilliseconds: cpu * 1000 / Double(summary.videoFramesWritten))
    }

    /// The sound of `frameCount` frames as the recorder hands it over: 10 ms chunks in time order, each with the
    /// sample it ends at.
    static func audioChunks(_ sound: BenchSound, frameCount: Int) -> [(chunk: AudioChunk, endSample: Int)] {
        let size = Int(BenchSound.sampleRate) / 100
        let end = min(sound.samples.count, frameCount * Int(BenchSound.sampleRate) / 30)
        return stride(from: 0, to: end - size + 1, by: size).map { first in
            (AudioChunk(pts: MediaTime(value: Int64(first), timescale: BenchSound.sampleRate),
                        sampleRate: BenchSound.sampleRate, channels: 1,
                        samples: Array(sound.samples[first..<(first + size)])), first + size)
        }
    }

    /// The same job with two ffmpeg commands: encode into a fragmented `.mov`, then remux with `+faststart`. With
    /// `matrix`, the encode also re-expresses the BT.601 frames in BT.709 and tags them so, as PauseCam does for an
    /// HD canvas: the `colorspace` filter with `fast=1` changes the matrix only (no primaries or transfer
    /// conversion), which is what `YUVMatrixConverter` does.
    static func ffmpegRun(content: BenchContent, sound: BenchSound, seconds: Int64, frameCount: Int, preset: String,
                          matrix: Bool, folder: URL) -> Run? {
        let partial = folder.appendingPathComponent("ffmpeg-\(content.name)-\(preset).partial.mov").path
        let final = folder.appendingPathComponent("ffmpeg-\(content.name)-\(preset).mov").path
        defer {
            try? FileManager.default.removeItem(atPath: partial)
            try? FileManager.default.removeItem(atPath: final)
        }
        let encode = ["-v", "error", "-y",
                      "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(content.width)x\(content.height)",
                      "-framerate", "30", "-stream_loop", "-1", "-i", content.rawPath,
                      "-f", "s16le", "-ar", String(BenchSound.sampleRate), "-ac", "1", "-i", sound.rawPath,
                      "-map", "0:v", "-map", "1:a", "-frames:v", String(frameCount)]
            + (matrix ? ["-vf", "colorspace=all=bt709:iall=smpte170m:irange=tv:range=tv:fast=1",
                         "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"] : [])
            + ["-c:v", "libx264", "-preset", preset, "-crf", String(crf), "-g", "60", "-forced-idr", "1",
                      "-color_range", "tv",
                      "-c:a", "aac", "-b:a", "128k",
                      "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-frag_duration", "500000",
                      "-f", "mov", partial]
        let remux = ["-v", "error", "-y", "-i", partial, "-map", "0:v", "-map", "0:a", "-c", "copy",
                     "-movflags", "+faststart", final]
        let cpuBefore = ProcessCPUTime.seconds(children: true)
        guard let first = BenchProcess.run(encode), let second = BenchProcess.run(remux) else { return nil }
        return Run(fps: Double(frameCount) / (first + second),
                   cpuMilliseconds: (ProcessCPUTime.seconds(children: true) - cpuBefore) * 1000 / Double(frameCount))
    }
}
