import Foundation
import PauseCamCore
import PauseCamSystem

/// How long `pausecam check` spends loading a long scene script (read, libyaml, decode, validate), at 20,000 and
/// 200,000 steps: the loader was quadratic (200,000 steps took 445 s), so the two figures side by side show
/// whether it stays linear. The goal is 200,000 steps in under 2 s in a release build.
enum RigLoadingBench {
    /// A rig with one script of `steps` steps: record, then wait/pause/wait/resume cycles, then stop.
    static func rigText(steps: Int) -> String {
        var lines = ["name: Long", "audio: {device: virtual}", "lenses:", "  main:", "    zoom: 1",
                     "    virtual: {color: \"#20c040\"}", "scripts:", "  long:", "    - record: Scene"]
        let cycle = ["    - wait: 10ms", "    - pause", "    - wait: 10ms", "    - resume: Scene"]
        for i in 0..<(steps - 2) { lines.append(cycle[i % 4]) }
        lines.append("    - stop")
        return lines.joined(separator: "\n") + "\n"
    }

    static func run() throws {
        for steps in [20_000, 200_000] {
            let text = rigText(steps: steps)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-rig-\(getpid()).yaml")
            try Data(text.utf8).write(to: path)
            defer { try? FileManager.default.removeItem(at: path) }
            var loaded = 0
            // Best of three: on a shared machine the slowest runs measure the other processes, not the loader.
            var times: [Double] = []
            for _ in 0..<3 {
                times.append(try seconds {
                    loaded = try RigLoader.load(path: path.path).scripts.first?.steps.count ?? 0
                })
            }
            times.sort()
            print(String(format: "rig loading, one script of %d steps (%.1f MB): %.2f s best of 3 (median %.2f s; "
                         + "%d steps loaded)", steps, Double(text.utf8.count) / 1e6, times[0], times[1], loaded))
        }
    }
}
