import Foundation
import PauseCamCore
import PauseCamSystem

/// The cost of an inactive hot YUYV camera (a YUYV lens keeps its newest buffer without conversion):
/// `V4L2Camera`'s own capture path — dequeue, copy out of the mmap buffer, queue again, hand the frame on — run on
/// a `PacedYUYVDevice` at 1920x1080 and 30 fps on the real clock, with a consumer that keeps only the newest frame
/// (what the lens bank does for a lens that is not active) on another thread. Prints CPU seconds (user + system,
/// `getrusage`) per second of stream, and that as a share of an active lens's cost when one is given.
enum YUYVStandbyBench {
    /// Streams for `seconds` and prints the figure; `activeCost` is an active lens's CPU seconds per recorded second
    /// (from `StandbyBench`), to print the share.
    @discardableResult
    static func run(seconds: Int, activeCost: Double? = nil) throws -> Double {
        let cost = try measure(seconds: seconds, copyOnly: false, activeCost: activeCost)
        try measure(seconds: seconds, copyOnly: true, activeCost: activeCost)
        return cost
    }

    /// One measurement: the camera's whole path, or (`copyOnly`) only the memcpy of each buffer into one reused
    /// buffer, no frame made or handed on — the floor any cut of the copy path could reach.
    @discardableResult
    static func measure(seconds: Int, copyOnly: Bool, activeCost: Double?) throws -> Double {
        let device = PacedYUYVDevice(width: 1920, height: 1080, rate: FrameRate(30), copyOnly: copyOnly)
        let lens = Rig.Lens(name: "standby", source: .camera(.device(device.path)), format: .yuyv, width: 1920,
                            height: 1080, rate: FrameRate(30))
        let camera = try V4L2Camera(device: device, lens: lens, warn: { print("standby-yuyv: \($0)") })
        let newest = NewestFrame()
        let faultsBefore = minorPageFaults()
        let before = ProcessCPUTime.seconds()
        let start = DispatchTime.now().uptimeNanoseconds
        try camera.start(deliver: { newest.keep($0) }, onEnd: { print("standby-yuyv: the stream ended: \($0)") })
        Thread.sleep(forTimeInterval: Double(seconds))
        camera.stop()
        newest.drain()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let spent = ProcessCPUTime.seconds() - before
        let faults = minorPageFaults() - faultsBefore
        let statistics = camera.statistics
        let frames = copyOnly ? statistics.corrupt : statistics.delivered
        let perSecond = spent / wall
        let what = copyOnly ? "floor, only a memcpy of each buffer into one reused buffer"
            : "an inactive hot lens, V4L2Camera's capture path"
        var line = String(format: "standby-yuyv: 1920x1080 YUYV at 30 fps on a paced in-memory device, %@ "
                          + "(%d frames in %.1f s): %.4f CPU s per recorded s, %.3f ms and %d minor page faults per "
                          + "frame", what, frames, wall, perSecond, spent / Double(max(frames, 1)) * 1000,
                          faults / max(frames, 1))
        if let activeCost {
            line += String(format: " = %.1f %% of the active lens's %.3f", perSecond / activeCost * 100, activeCost)
        }
        print(line)
        return perSecond
    }

    /// Minor page faults of this process so far: a fresh 4 MB allocation per frame shows as ~1000 of them. The
    /// corresponding C function is `getrusage`.
    static func minorPageFaults() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_minflt
    }

    /// Keeps the newest frame on a serial queue, dropping the one before (freed there, as in the controller).
    final class NewestFrame: Sendable {
        private let queue = DispatchQueue(label: "pausecam.bench.newest")
        /// Replaced on `queue` only (the lock is never contended), so the frame before is freed there.
        private let frame = Guarded<VideoFrame?>(nil)

        func keep(_ next: VideoFrame) { queue.async { self.frame.withLock { $0 = next } } }
        func drain() { queue.sync { frame.withLock { $0 = nil } } }
    }
}
