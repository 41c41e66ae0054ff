import Foundation
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

/// What a scene change costs as a clip's scenes pile up: a clip of `toggles` pause/resume toggles (40 ms of
/// simulated time apart, so every scene gets a frame) recorded on the simulated clock at 320x180, ultrafast, with the
/// real movie writer and sidecar store. The sidecar is rewritten at every scene change; it used to be encoded whole
/// each time, so 4000 toggles took minutes where 1000 took seconds. The two runs side by side show whether the cost
/// per toggle stays flat.
enum SceneToggleBench {
    /// Runs 1000 and 4000 toggles; prints each and returns the seconds by toggle count.
    static func run() throws -> [String: Double] {
        var figures: [String: Double] = [:]
        for toggles in [1000, 4000] {
            let (elapsed, scenes) = try record(toggles: toggles)
            figures[String(toggles)] = elapsed
            print(String(format: "scene changes: %d pause/resume toggles (%d scenes) on the simulated clock: %.2f s, "
                         + "%.2f ms per toggle", toggles, scenes, elapsed, elapsed * 1000 / Double(toggles)))
            fflush(nil)
        }
        return figures
    }

    /// Records one clip of `toggles` toggles; returns the wall seconds from `record` until it is saved, and the
    /// sidecar's scene count.
    static func record(toggles: Int) throws -> (seconds: Double, scenes: Int) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-scenes-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lens = Rig.Lens(name: "main", zoom: 1, source: .virtual(color: RGBColor(hex: "#20c040")!), width: 320,
                            height: 180, rate: FrameRate(30))
        let rig = Rig(name: "Scenes", output: Rig.OutputSettings(directory: directory.path, namePattern: "scenes",
                                                                 width: 320, height: 180, rate: FrameRate(30),
                                                                 preset: "ultrafast", crf: 28),
                      audio: Rig.AudioInput(device: .virtual), lenses: [lens], defaultLens: "main")
        let serialContext = SimulatedSerialContext()
        let camera = VirtualLens(lens: "main", color: RGBColor(hex: "#20c040")!, width: 320, height: 180,
                                 rate: FrameRate(30), serialContext: serialContext)
        let controller = BenchEngine.controller(rig: rig, cameras: ["main": camera],
                                       microphone: VirtualMicrophone(serialContext: serialContext),
                                       sinkFactory: MovieWriterFactory(), store: AtomicSidecarStore(),
                                       serialContext: serialContext, outputDirectory: directory.path,
                                       finishing: SerialQueueWorker(label: "pausecam.bench.finish"),
                                       savedEvents: .after(.seconds(1)), notify: { _ in })
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        controller.startDevices()
        defer { controller.stopDevices() }
        var clip: Recorder.Clip?
        let elapsed = seconds {
            _ = runner.perform(.record(name: nil))
            _ = runner.perform(.wait(.milliseconds(100)))
            for _ in 0..<toggles {
                _ = runner.perform(.toggle)
                _ = runner.perform(.wait(.milliseconds(40)))
            }
            _ = runner.perform(.stop)
            clip = runner.finishClip()
        }
        guard let clip else { throw Failure(description: "the clip of \(toggles) toggles was not saved") }
        return (elapsed, clip.sidecar.scenes.count)
    }

    /// The clip was not saved: there is nothing to measure.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
