import Foundation
import XCTest
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

/// The hold and the slate in a real movie: the engine on the simulated clock with a virtual lens that is unplugged
/// mid-clip, written by the real FFmpeg writer and read back with ffprobe and ffmpeg. (The binary has no way to
/// unplug a virtual lens, so this end-to-end test wires the same parts the composition root wires.)
final class NoSignalMovieTests: XCTestCase {
    static let green = (0x20, 0xc0, 0x40)

    func testAnUnpluggedLensIsHeldThenSlatedAtTheSidecarsTimesWithNoGapAndTheAudioEndsWithTheVideo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-nosignal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rig = Rig(name: "No signal", output: Rig.OutputSettings(directory: directory.path, namePattern: "nosignal",
                                                                   width: 320, height: 180, rate: FrameRate(30),
                                                                   preset: "ultrafast", crf: 23),
                      audio: Rig.AudioInput(device: .virtual),
                      lenses: [Rig.Lens(name: "main", source: .virtual(color: RGBColor(hex: "#20c040")!),
                                        width: 320, height: 180, rate: FrameRate(30))])
        let serialContext = SimulatedSerialContext()
        let camera = VirtualLens(lens: "main", color: RGBColor(hex: "#20c040")!, width: 320, height: 180,
                                 rate: FrameRate(30), serialContext: serialContext)
        let hub = DeviceHub(rig: rig, cameras: ["main": camera], microphone: VirtualMicrophone(serialContext: serialContext),
                            serialContext: serialContext, devices: InlineWorker(), notify: { _ in })
        let clips = ClipController(rig: rig, sinkFactory: MovieWriterFactory(), store: AtomicSidecarStore(),
                                   serialContext: serialContext, wallClock: { Date(timeIntervalSince1970: 1_800_000_000) },
                                   outputDirectory: directory.path, finishing: InlineWorker(), notify: { _ in })
        let controller = RigController(rig: rig, devices: hub, clips: clips, serialContext: serialContext, notify: { _ in })
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        serialContext.perform { controller.startDevices() }
        XCTAssertTrue(runner.perform(.record(name: nil)).ok)
        XCTAssertTrue(runner.perform(.wait(.seconds(1))).ok)
        serialContext.perform { camera.unplug() }
        XCTAssertTrue(runner.perform(.wait(.milliseconds(3500))).ok)
        let clip = try XCTUnwrap(runner.finishClip())
        serialContext.perform { controller.stopDevices() }
        let movie = clip.moviePath

        // Constant rate, no timestamp gap: every packet one frame (512 ticks of 1/15360 s) after the one before.
        let (packetText, _) = try MovieWriterFixture.run("ffprobe", ["-v", "error", "-select_streams", "v:0",
                                                                  "-show_entries", "packet=pts", "-of", "csv=p=0", movie])
        let pts = String(decoding: packetText, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }.sorted()
        XCTAssertEqual(pts.count, 135, "4.5 s at 30 fps")
        let steps = Set(zip(pts, pts.dropFirst()).map { $1 - $0 })
        XCTAssertEqual(steps.count, 1, "frame steps \(steps)")
        let (streamText, _) = try MovieWriterFixture.run("ffprobe", ["-v", "error", "-show_entries",
                                                                  "stream=codec_type,duration", "-of", "csv=p=0", movie])
        var durations: [String: Double] = [:]
        for line in String(decoding: streamText, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: ",")
            if fields.count == 2, let value = Double(fields[1]) { durations[String(fields[0])] = value }
        }
        XCTAssertEqual(durations["video"] ?? 0, 4.5, accuracy: 1e-3)
        XCTAssertEqual(durations["audio"] ?? 0, durations["video"] ?? -1, accuracy: 1024.0 / 48_000)

        // The sidecar's spans: main's last frame (29/30 s) held for 2 s, then the slate to the stop.
        let spans = clip.sidecar.scenes[0].noSignal
        XCTAssertEqual(spans.map(\.kind), ["hold", "slate"])
        let slateStart = try XCTUnwrap(spans.last?.start)
        XCTAssertEqual(spans[0].start, 1, accuracy: 1e-9)
        XCTAssertEqual(slateStart, 89.0 / 30, accuracy: 1e-9)

        // Decoded: a patch clear of the pattern's square, bar and flash (and of the slate's text) shows the lens
        // colour up to the slate and the slate's near-black after it; the bar stops moving while the picture is held.
        let (patchData, patchError) = try MovieWriterFixture.run("ffmpeg", [
            "-v", "error", "-i", movie, "-map", "0:v:0", "-vf", "crop=30:20:280:10,scale=1:1:flags=area",
            "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let patch = [UInt8](patchData)
        XCTAssertEqual(patch.count, 135 * 3, patchError)
        let (stripData, _) = try MovieWriterFixture.run("ffmpeg", [
            "-v", "error", "-i", movie, "-map", "0:v:0", "-vf", "crop=320:8:0:166,scale=320:1:flags=area",
            "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        let strip = [UInt8](stripData)
        XCTAssertEqual(strip.count, 135 * 320)
        func barPosition(_ frame: Int) -> Int {
            let row = strip[(frame * 320)..<((frame + 1) * 320)]
            return (row.indices.max { row[$0] < row[$1] } ?? 0) - frame * 320
        }
        let frameSeconds = 1.0 / 30
        for frame in 0..<min(135, patch.count / 3) {
            let t = Double(frame) * frameSeconds
            let color = (Int(patch[frame * 3]), Int(patch[frame * 3 + 1]), Int(patch[frame * 3 + 2]))
            if t < slateStart - frameSeconds * 1.01 {
                XCTAssertTrue(abs(color.0 - Self.green.0) <= 40 && abs(color.1 - Self.green.1) <= 40
                              && abs(color.2 - Self.green.2) <= 40, "frame \(frame) at \(t): \(color), want the lens colour")
            } else if t > slateStart + frameSeconds * 1.01 {
                XCTAssertTrue(color.0 < 45 && color.1 < 45 && color.2 < 45, "frame \(frame) at \(t): \(color), want the slate")
            }
        }
        let lastLive = 29
        XCTAssertNotEqual(barPosition(lastLive - 1), barPosition(lastLive), "the bar moves while the lens is live")
        for frame in (lastLive + 1)..<88 {
            XCTAssertEqual(barPosition(frame), barPosition(lastLive), accuracy: 1, "frame \(frame): the held picture")
        }
    }
}
