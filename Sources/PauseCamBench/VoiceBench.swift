import Foundation
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

/// `voice_track_cost_ratio`: what recording several voices costs. CPU seconds (user + system of this process,
/// `getrusage`) per recorded second of a 1080p30 clip from one hot MJPEG `file:` lens (the camera-like work of the
/// other CPU figures) with three virtual voices, over the same clip with one voice; goal at most 1.03. Both rigs use
/// the voices form (`audio.voices`), so the only difference is the number of voices: three cards placed on the
/// session clock and mixed by the desk, and four AAC tracks (the stereo mix and one mono track per voice) instead of
/// two. The voices are virtual microphones playing only their sync beeps (each its own pitch), whose second of
/// samples is computed once: their own cost is next to nothing, so the figure is the engine's (with a limit: between
/// beeps the tracks are silent, which AAC encodes cheaply). The two rigs
/// alternate for `rounds` rounds and the figure is the median of the rounds' ratios, as `iso_cpu_ratio`'s is (single
/// clips vary by more than the goal's margin on a loaded machine). The program is x264 at ultrafast, the cheapest,
/// so the ratio is the least flattering; the extra CPU seconds per recorded second are printed as well, which do
/// not depend on the video's cost.
enum VoiceBench {
    struct Figures {
        /// CPU seconds per recorded second with one voice, and with three (medians).
        var oneVoice: Double
        var threeVoices: Double
        /// The median of the rounds' `three / one`.
        var ratio: Double
        /// Every round's ratio, in order.
        var roundRatios: [Double]
    }

    /// The voices' beep pitches, distinct so that each track carries its own voice.
    static let pitches = [700, 1_300, 1_900]

    /// Records the two rigs `rounds` times each, `seconds` of movie a clip; prints every clip and the ratio and
    /// returns the figures; nil when ffmpeg is missing to make the MJPEG movie, or when a movie lacks its tracks.
    @discardableResult
    static func run(seconds recordSeconds: Int64, preset: String = "ultrafast", rounds: Int = 3) throws -> Figures? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-voices-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let movie = try StandbyBench.makeMJPEGMovie(in: folder) else {
            print("voice track cost skipped: /usr/bin/ffmpeg not found to make the MJPEG movie")
            return nil
        }
        var one: [Double] = [], three: [Double] = []
        for round in 0..<max(1, rounds) {
            for voices in [1, 3] {
                guard let cost = try cpuPerRecordedSecond(movie: movie, voices: voices, seconds: recordSeconds,
                                                          preset: preset, folder: folder,
                                                          name: "voices-\(round)-\(voices)")
                else { return nil }
                if voices == 1 { one.append(cost) } else { three.append(cost) }
                print(String(format: "voices: a hot 1080p30 MJPEG file lens, x264 %@, %d virtual voice%@: "
                             + "%.3f CPU s per recorded s", preset, voices, voices == 1 ? "" : "s", cost))
            }
        }
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
                : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        let ratios = zip(three, one).map { $0 / $1 }
        let figures = Figures(oneVoice: median(one), threeVoices: median(three), ratio: median(ratios),
                              roundRatios: ratios)
        print(String(format: "voices: three voices cost %.3f CPU s per recorded s against %.3f with one (medians), "
                     + "%.3f s more; voice_track_cost_ratio %.3f (median of %d rounds: %@; goal <= 1.03)",
                     figures.threeVoices, figures.oneVoice, figures.threeVoices - figures.oneVoice, figures.ratio,
                     ratios.count, ratios.map { String(format: "%.3f", $0) }.joined(separator: ", ")))
        return figures
    }

    /// Records one clip of `seconds` from a hot lens replaying `movie`, with `voices` virtual voices (the first
    /// `voices` of `pitches`), and returns the process's CPU seconds per second of movie (from `record` to the
    /// finished clip); nil, with a message, when the movie does not have the mix and one track per voice.
    static func cpuPerRecordedSecond(movie: String, voices count: Int, seconds recordSeconds: Int64, preset: String,
                                     folder: URL, name: String) throws -> Double? {
        let names = ["host", "guest", "room"]
        var audio = Rig.AudioInput(device: .none)
        audio.voices = (0..<count).map {
            Rig.Voice(name: names[$0], source: .virtual, virtual: Rig.VirtualVoice(frequency: pitches[$0]))
        }
        let rig = Rig(name: "Voices", output: Rig.OutputSettings(directory: folder.path, namePattern: name,
                                                                width: 1920, height: 1080, rate: FrameRate(30),
                                                                preset: preset, crf: 23),
                      audio: audio, lenses: [Rig.Lens(name: "main", source: .file(path: movie, loop: true))],
                      defaultLens: "main", standby: .hot)
        let serialContext = SimulatedSerialContext()
        let camera = try FileLens(path: movie, lens: "main", loop: true, serialContext: serialContext)
        let microphones: [(any Microphone)?] = audio.voices.map {
            VirtualMicrophone(serialContext: serialContext, beepFrequency: $0.virtual.frequency)
        }
        let hub = DeviceHub(rig: rig, cameras: ["main": camera], microphone: nil, serialContext: serialContext,
                            devices: InlineWorker(), voiceMicrophones: microphones, notify: { _ in })
        let clips = ClipController(rig: rig, sinkFactory: MovieWriterFactory(), store: AtomicSidecarStore(),
                                   serialContext: serialContext, wallClock: { Date() }, outputDirectory: folder.path,
                                   finishing: InlineWorker(), notify: { _ in })
        let controller = RigController(rig: rig, devices: hub, clips: clips, serialContext: serialContext,
                                       voiceResamplers: VoiceResamplers(), notify: { _ in })
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        controller.startDevices()
        let before = ProcessCPUTime.seconds()
        _ = runner.perform(.record(name: nil))
        _ = runner.perform(.wait(.seconds(recordSeconds)))
        let clip = runner.finishClip()
        let spent = ProcessCPUTime.seconds() - before
        controller.stopDevices()
        guard let clip else {
            print("voice track cost skipped: the \(count)-voice clip was not saved")
            return nil
        }
        let tracks = audioTrackCount(clip.moviePath)
        guard tracks == count + 1 else {
            print("voice track cost skipped: the \(count)-voice movie has \(tracks) audio tracks, not \(count + 1)")
            return nil
        }
        let recorded = Double(clip.sidecar.video.framesWritten) / 30
        return spent / max(recorded, 1 / 30)
    }

    /// How many audio streams ffprobe lists in `path` (after the CPU was counted: ffprobe is another process).
    private static func audioTrackCount(_ path: String) -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error", "-select_streams", "a", "-show_entries", "stream=index", "-of", "csv=p=0",
                             path]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return -1 }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").count
    }
}
