import Foundation
import PauseCamCore

/// How long `pausecam export --format all` spends on a clip of 10,000 and of 100,000 scenes (read the sidecar's
/// JSON, build the timeline, render every format; the files' writes are left out): export was quadratic in scenes
/// (10,000 took 3.4 s, 40,000 55 s), so the two figures side by side show whether it stays linear. Every scene has
/// the same name (the worst case for unique chapter titles) and one marker.
enum ExportBench {
    /// A sidecar's JSON at 29.97 fps with `scenes` scenes of 2 s, each named "Take" with a marker after 1 s.
    static func sidecarJSON(scenes: Int) -> Data {
        var parts: [String] = []
        parts.reserveCapacity(scenes)
        for index in 0..<scenes {
            let start = Double(index) * 2
            parts.append("{\"index\":\(index + 1),\"title\":\"Take\",\"start\":\(start),\"duration\":2,"
                         + "\"lenses\":[],\"no_signal\":[],\"markers\":[{\"time\":\(start + 1),\"text\":\"mark\"}]}")
        }
        let text = "{\"schema\":1,\"rig\":\"Bench\",\"movie\":\"clip.mov\",\"complete\":true,"
            + "\"started\":\"2026-01-01T00:00:00Z\",\"duration\":\(Double(scenes) * 2),"
            + "\"video\":{\"codec\":\"h264\",\"width\":1920,\"height\":1080,\"fps\":29.97002997002997,"
            + "\"frames_written\":0,\"frames_dropped\":0,\"late_frames_dropped\":0},"
            + "\"scenes\":[" + parts.joined(separator: ",") + "],"
            + "\"pauses\":[],\"switches\":[],\"devices\":[],\"warnings\":[]}"
        return Data(text.utf8)
    }

    /// Prints one line per size and returns the best seconds of each, keyed `"10000"` and `"100000"`.
    static func run() throws -> [String: Double] {
        var results: [String: Double] = [:]
        for scenes in [10_000, 100_000] {
            let json = sidecarJSON(scenes: scenes)
            var bytes = 0
            // Best of three: on a shared machine the slowest runs measure the other processes, not the export.
            var times: [Double] = []
            for _ in 0..<3 {
                times.append(try seconds {
                    let timeline = try ExportTimeline(sidecar: try Sidecar.decode(json))
                    bytes = ExportFormat.allCases.reduce(0) {
                        $0 + $1.render(timeline, mediaURL: "file:///bench/clip.mov").utf8.count
                    }
                })
            }
            times.sort()
            results["\(scenes)"] = times[0]
            print(String(format: "export, all formats, %d scenes (%.1f MB sidecar): %.2f s best of 3 (median %.2f s; "
                         + "%.1f MB written)", scenes, Double(json.count) / 1e6, times[0], times[1], Double(bytes) / 1e6))
        }
        return results
    }
}
