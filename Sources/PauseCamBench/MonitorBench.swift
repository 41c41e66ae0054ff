import Foundation
import Synchronization
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

/// The browser monitor's cost and delay.
///
/// Cost (`monitor_cost_ratio`): CPU seconds per recorded second of a 1080p30 clip from three hot MJPEG `file:`
/// lenses on the simulated clock, with one viewer taking every program picture (at most 15 a second) and the three
/// lens tiles, divided by the same clip with nobody watching. The feed paces itself by capture time, so the
/// simulated clock makes exactly the pictures a real-time viewer would get.
///
/// Delay: on the real clock, from a frame's capture timestamp to its program picture being ready for the web server
/// (the JPEG made; the socket's own send is not in it), median and 95th percentile, with virtual 1080p30 lenses.
enum MonitorBench {
    struct Figures {
        var costRatio: Double
        var delayMedianMilliseconds: Double
        var delayP95Milliseconds: Double
    }

    @discardableResult
    static func run(seconds recordSeconds: Int64) throws -> Figures? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-monitor-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let movie = try StandbyBench.makeMJPEGMovie(in: folder) else {
            print("monitor cost skipped: /usr/bin/ffmpeg not found to make the MJPEG movie")
            return nil
        }
        let unwatched = try StandbyBench.cpuPerRecordedSecond(movie: movie, inactive: 2, seconds: recordSeconds,
                                                              preset: "ultrafast", folder: folder,
                                                              monitor: MonitorFeed(programLens: "a0"))
        let feed = MonitorFeed(programLens: "a0")
        let viewer = Viewer(feed: feed, lenses: ["a0", "a1", "a2"])
        viewer.start()
        let watched = try StandbyBench.cpuPerRecordedSecond(movie: movie, inactive: 2, seconds: recordSeconds,
                                                            preset: "ultrafast", folder: folder, monitor: feed)
        let pictures = viewer.stop()
        feed.close()
        let ratio = watched / unwatched
        print(String(format: "monitor: 3 hot 1080p30 MJPEG file lenses, x264 ultrafast: %.3f CPU s per recorded s "
                     + "unwatched, %.3f with one viewer (%d program pictures, %.1f a recorded second, and the tiles) "
                     + "(monitor_cost_ratio %.3f)", unwatched, watched, pictures,
                     Double(pictures) / Double(recordSeconds), ratio))
        let delays = try realClockDelays(seconds: min(recordSeconds, 10), folder: folder)
        guard !delays.isEmpty else {
            print("monitor delay: no program picture came on the real clock")
            return Figures(costRatio: ratio, delayMedianMilliseconds: .nan, delayP95Milliseconds: .nan)
        }
        let sorted = delays.sorted()
        let median = sorted[sorted.count / 2]
        let p95 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
        print(String(format: "monitor delay, capture to program picture ready (real clock, virtual 1080p30 lenses, "
                     + "%d pictures): median %.1f ms, 95th percentile %.1f ms", sorted.count, median, p95))
        return Figures(costRatio: ratio, delayMedianMilliseconds: median, delayP95Milliseconds: p95)
    }

    /// A viewer on its own thread: every new program picture, and each lens's tile three times a second.
    private final class Viewer: Sendable {
        private let feed: MonitorFeed
        private let lenses: [String]
        private let running = Atomic(true)
        /// Program pictures taken.
        private let count = Atomic(0)
        private let done = DispatchSemaphore(value: 0)

        init(feed: MonitorFeed, lenses: [String]) {
            self.feed = feed
            self.lenses = lenses
        }

        func start() {
            feed.startWatching()
            Thread.detachNewThread { [self] in
                var last: UInt64 = 0
                var tiles = Date()
                while running.load(ordering: .relaxed) {
                    if let picture = feed.programPicture(after: last, timeoutSeconds: 0.2) {
                        last = picture.sequence
                        count.add(1, ordering: .relaxed)
                    }
                    if Date().timeIntervalSince(tiles) > 1.0 / 3 {
                        tiles = Date()
                        for lens in lenses { _ = feed.lensPicture(lens) }
                    }
                }
                done.signal()
            }
        }

        /// Stops the viewer and says how many program pictures it took.
        func stop() -> Int {
            running.store(false, ordering: .relaxed)
            done.wait()
            feed.stopWatching()
            return count.load(ordering: .relaxed)
        }
    }

    /// Capture-to-picture delays in milliseconds on the real clock: a viewer waits for each program picture and
    /// subtracts its frame's capture time from the monotonic clock at once.
    private static func realClockDelays(seconds: Int64, folder: URL) throws -> [Double] {
        let serialContext = RealTimeSerialContext()
        let names = ["a0", "a1", "a2"]
        let rig = Rig(name: "Monitor", output: Rig.OutputSettings(directory: folder.path, width: 1920, height: 1080,
                                                                  rate: FrameRate(30)),
                      audio: Rig.AudioInput(device: .none),
                      lenses: names.map { Rig.Lens(name: $0, source: .virtual(color: RGBColor(hex: "#20c040")!)) },
                      defaultLens: "a0", standby: .hot)
        var cameras: [String: any Camera] = [:]
        for name in names {
            cameras[name] = VirtualLens(lens: name, color: RGBColor(hex: "#20c040")!, width: 1920, height: 1080,
                                        rate: FrameRate(30), serialContext: serialContext)
        }
        let feed = MonitorFeed(programLens: "a0")
        let controller = BenchEngine.controller(rig: rig, cameras: cameras, microphone: nil, sinkFactory: MovieWriterFactory(),
                                       store: AtomicSidecarStore(), serialContext: serialContext,
                                       outputDirectory: folder.path, finishing: InlineWorker(), monitor: feed,
                                       notify: { _ in })
        serialContext.perform { controller.startDevices() }
        feed.startWatching()
        var delays: [Double] = []
        var last: UInt64 = 0
        let end = MonotonicClock.now() + .seconds(seconds)
        while MonotonicClock.now() < end {
            guard let picture = feed.programPicture(after: last, timeoutSeconds: 1) else { continue }
            last = picture.sequence
            let delay = (try? MonotonicClock.now().subtracting(picture.captureTime)) ?? .zero
            delays.append(delay.seconds * 1000)
        }
        feed.stopWatching()
        serialContext.perform { controller.stopDevices() }
        controller.waitForDevices()
        feed.close()
        return delays
    }
}
