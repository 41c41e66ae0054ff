import Foundation
import PauseCamCore
import XCTest

/// A small virtual rig written for one sound test (one lens at 160×90, so long simulated runs stay quick), run with
/// `pausecam run --clock simulated`, and what it left: the movie, its sidecar, and the decoded audio.
struct SoundRig {
    /// The `audio:` section's extra lines, e.g. `["tone: 440", "declick: off"]`.
    var audio: [String]
    /// The script's steps, one YAML line each without the dash (`"record: One"`, `"wait: 0.41s"`).
    var steps: [String]

    /// The rig file's text.
    var yaml: String {
        """
        name: Sound rig
        output:
          name: "{rig}"
          container: mov
          size: 160x90
          fps: 30
          video: {codec: h264, preset: ultrafast, crf: 30, keyframe_interval: 2s}
        audio:
          device: virtual
        \(audio.map { "  " + $0 }.joined(separator: "\n"))
        lenses:
          main:
            zoom: 1
            virtual: {color: "#20c040"}
        scripts:
          take:
        \(steps.map { "    - " + $0 }.joined(separator: "\n"))

        """
    }

    struct Take {
        var movie: String
        var sidecar: Sidecar
        var stdout: String
        var stderr: String
        var probe: MediaProbe { MediaProbe(path: movie) }
    }

    /// Records the script on the simulated clock and returns the one movie and sidecar it left.
    func record(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> Take {
        let directory = try ProcessRunner.temporaryDirectory(name)
        let rigPath = directory.appendingPathComponent("sound.yaml")
        try yaml.write(to: rigPath, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["run", rigPath.path, "--script", "take",
                                                                          "--clock", "simulated", "--output", output.path])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        let movie = try XCTUnwrap(names.first { $0.hasSuffix(".mov") }, "no movie in \(names)", file: file, line: line)
        let sidecar = try Sidecar.decode(Data(contentsOf: output.appendingPathComponent(String(movie.dropLast(4)) + ".json")))
        return Take(movie: output.appendingPathComponent(movie).path, sidecar: sidecar, stdout: result.stdoutText,
                    stderr: result.stderr)
    }

    /// Presentation times (s) of the frames whose top-left flash square is white (the flash is 22 px at 90 high).
    static func flashes(_ probe: MediaProbe) throws -> [Double] {
        let times = try probe.videoFrames().map(\.time)
        return try probe.regionColors(x: 2, y: 2, width: 16, height: 16).enumerated()
            .filter { $0.element.0 > 180 && $0.element.1 > 180 && $0.element.2 > 180 && $0.offset < times.count }
            .map { times[$0.offset] }
    }

    /// The largest sample-to-sample step near any of `seams` (within `radius` samples) and elsewhere.
    static func steps(_ samples: [Int16], seams: [Int], radius: Int) -> (near: Int, elsewhere: Int) {
        var nearSeam = [Bool](repeating: false, count: samples.count)
        for seam in seams {
            for index in max(0, seam - radius)..<min(samples.count, seam + radius + 1) { nearSeam[index] = true }
        }
        var near = 0, elsewhere = 0
        for index in 1..<samples.count {
            let step = abs(Int(samples[index]) - Int(samples[index - 1]))
            if nearSeam[index] || nearSeam[index - 1] { near = max(near, step) } else { elsewhere = max(elsewhere, step) }
        }
        return (near, elsewhere)
    }
}
