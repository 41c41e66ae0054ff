import Foundation
import PauseCamCore
import XCTest

/// ISO recordings (`output.iso`) through the built binary: three virtual lenses of three sizes, a clip with lens
/// switches, a pause, a chapter and a retake. The program and the three ISO movies must share one timeline: the
/// same frame count, duration, chapters and audio, each constant-rate at 30 fps and at its lens's own size; and
/// wherever the program shows a lens, that lens's ISO shows the same picture at the same time. The virtual lens's
/// moving bar tells which capture instant a picture is (it sweeps the width every 2 s), its background which lens.
final class IsoEndToEndTests: XCTestCase {
    static let lenses: [(role: String, width: Int, height: Int, color: (Int, Int, Int))] = [
        ("wide", 480, 270, (0x20, 0xc0, 0x40)),
        ("main", 320, 180, (0xc0, 0x30, 0x20)),
        ("tele", 256, 144, (0x30, 0x50, 0xe0)),
    ]

    func testEveryLensIsoSharesTheProgramsTimelineAndShowsItsPictureAtEverySwitch() throws {
        let directory = try ProcessRunner.temporaryDirectory("iso")
        let rig = """
        name: Iso rig
        output: {name: "{rig}", size: 320x180, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}, iso: true}
        audio: {device: virtual}
        lenses:
          wide: {zoom: 0.5, virtual: {color: "#20c040"}, size: 480x270, fps: 30}
          main: {zoom: 1, virtual: {color: "#c03020"}, size: 320x180, fps: 30}
          tele: {zoom: 3, virtual: {color: "#3050e0"}, size: 256x144, fps: 30}
        default_lens: main
        scripts:
          demo:
            - record: One
            - wait: 1s
            - lens: tele
            - wait: 1s
            - pause
            - wait: 1s
            - resume: Two
            - wait: 0.5s
            - lens: wide
            - wait: 1s
            - chapter: Three
            - wait: 0.5s
            - retake
            - wait: 1s
            - lens: main
            - wait: 1s
            - stop
        """
        let rigPath = directory.appendingPathComponent("iso.yaml")
        try rig.write(to: rigPath, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["run", rigPath.path, "--script", "demo", "--clock", "simulated",
                                            "--output", out.path])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)

        let isoFolder = out.appendingPathComponent("iso-rig.iso")
        // The run's summary names the ISO folder and its movies, beside the movie and the sidecar.
        XCTAssertTrue(result.stdoutText.contains("isos:    \(isoFolder.path) (wide.mov, main.mov, tele.mov)\n"),
                      result.stdoutText)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: isoFolder.path).sorted(),
                       ["main.mov", "tele.mov", "wide.mov"], "the ISOs are finished and their .partial removed")
        let sidecar = try Sidecar.decode(Data(contentsOf: out.appendingPathComponent("iso-rig.json")))
        let program = MediaProbe(path: out.appendingPathComponent("iso-rig.mov").path)
        let programFrames = try program.videoFrames()
        XCTAssertEqual(Double(programFrames.count) / 30, 5.5, accuracy: 1.5 / 30)
        XCTAssertEqual(sidecar.switches.map(\.lens), ["tele", "wide", "main"])
        XCTAssertEqual(sidecar.retakes?.count, 1)

        // The sidecar lists each ISO with what it holds.
        XCTAssertEqual(sidecar.iso, Self.lenses.map {
            var entry = Sidecar.IsoMovie(lens: $0.role, file: "iso-rig.iso/\($0.role).mov", width: $0.width,
                                         height: $0.height, fps: 30, frames: programFrames.count)
            // At the program's rate, an ISO's timecode is the program's: they start at the same instant.
            entry.timecode = sidecar.timecode
            return entry
        })

        // One timeline: frames, duration, chapters and audio equal to the program's; constant rate; own size.
        let programChapters = try program.chapters()
        let programSound = try Self.audioPackets(program.path)
        XCTAssertGreaterThan(programSound.count, 200, "5.5 s of AAC: 47 packets a second")
        XCTAssertEqual(programChapters.map(\.title), ["One", "Two", "Three"])
        var isoBars: [String: [Double]] = [:]
        for lens in Self.lenses {
            let iso = MediaProbe(path: isoFolder.appendingPathComponent("\(lens.role).mov").path)
            let video = try XCTUnwrap(try iso.streams().first { $0.codecType == "video" })
            XCTAssertEqual(video.width, lens.width, lens.role)
            XCTAssertEqual(video.height, lens.height, lens.role)
            try iso.assertConstantRate(30, 1)
            let frames = try iso.videoFrames()
            XCTAssertEqual(frames.count, programFrames.count, lens.role)
            XCTAssertEqual(frames.map(\.time), programFrames.map(\.time), lens.role)
            XCTAssertEqual(try iso.duration(), try program.duration(), accuracy: 1e-3, lens.role)
            XCTAssertEqual(try iso.audioDuration(), try program.audioDuration(), accuracy: 1e-3, lens.role)
            // The program's AAC packets themselves, in the same places: the sound is encoded once.
            XCTAssertEqual(try Self.audioPackets(iso.path), programSound, lens.role)
            let chapters = try iso.chapters()
            XCTAssertEqual(chapters.map(\.title), programChapters.map(\.title), lens.role)
            XCTAssertEqual(chapters.map(\.startTime), programChapters.map(\.startTime), lens.role)
            XCTAssertEqual(chapters.map(\.endTime), programChapters.map(\.endTime), lens.role)
            XCTAssertEqual(try iso.decodeErrors(), "", lens.role)
            isoBars[lens.role] = try iso.barPositions(width: lens.width, height: lens.height)
            XCTAssertEqual(isoBars[lens.role]?.count, programFrames.count, lens.role)
        }

        // Every program frame is its lens's ISO frame at the same time: same lens, same capture instant. At each
        // switch, the frame before shows the old lens and the switch's frame the new one, each matched in its ISO.
        let programBars = try program.barPositions(width: 320, height: 180)
        let programColors = try program.regionColors(x: 240, y: 18, width: 16, height: 16)
        XCTAssertEqual(programBars.count, programFrames.count)
        XCTAssertEqual(programColors.count, programFrames.count)
        let shown = programColors.map(Self.lens(showing:))
        // One frame of the bar's travel is 31/32 of the width over 60 frames: a quarter of that tells frames apart.
        let tolerance = 31.0 / 32 / 60 / 4
        for index in programFrames.indices where index < programBars.count && index < shown.count {
            let bar = isoBars[shown[index]]?[index] ?? -1
            XCTAssertEqual(bar, programBars[index], accuracy: tolerance,
                           "frame \(index) at \(programFrames[index].time) shows \(shown[index])")
        }
        var previous = "main"
        for change in sidecar.switches {
            let index = try XCTUnwrap(programFrames.firstIndex { abs($0.time - change.effective) < 0.5 / 30 },
                                      "a frame at the switch to \(change.lens) (\(change.effective) s)")
            XCTAssertEqual(shown[index], change.lens, "the switch's frame")
            XCTAssertEqual(shown[index - 1], previous, "the frame before the switch to \(change.lens)")
            for frame in [index - 1, index] {
                XCTAssertEqual(isoBars[shown[frame]]?[frame] ?? -1, programBars[frame], accuracy: tolerance,
                               "frame \(frame) at the switch to \(change.lens)")
            }
            previous = change.lens
        }
    }

    /// The clip's sound is encoded once however many ISOs it has: while three ISOs record (each `.partial` already
    /// holds sound), the process has one AAC encoder thread (the program's, `PauseCam audio encoder`, whose kernel
    /// name is its first 15 bytes) and each ISO a thread that only muxes the program's packets.
    func testThreeIsosRecordWithOneAACEncoder() throws {
        let directory = try ProcessRunner.temporaryDirectory("iso-aac")
        let rigPath = directory.appendingPathComponent("iso.yaml")
        try """
        name: Iso rig
        output: {name: "{rig}", size: 320x180, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}, iso: true}
        audio: {device: virtual}
        lenses:
          wide: {zoom: 0.5, virtual: {color: "#20c040"}, size: 480x270, fps: 30}
          main: {zoom: 1, virtual: {color: "#c03020"}, size: 320x180, fps: 30}
          tele: {zoom: 3, virtual: {color: "#3050e0"}, size: 256x144, fps: 30}
        default_lens: main
        scripts:
          take:
            - record: One
            - wait: 6s
            - stop
        """.write(to: rigPath, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out")
        let run = try RunningCommand(["run", rigPath.path, "--script", "take", "--output", out.path])
        let partials = Self.lenses.map { out.appendingPathComponent("iso-rig.iso/\($0.role).mov.partial").path }
        // Every ISO's audio thread has run once its `.partial` holds an audio packet: wait for that.
        var holdSound = false
        while run.process.isRunning, !holdSound, Date().timeIntervalSince(run.started) < 60 {
            holdSound = try partials.allSatisfy { try Self.audioPacketCount(inPartial: $0) > 0 }
            if !holdSound { Thread.sleep(forTimeInterval: 0.1) }
        }
        let threads = Self.threadNames(of: run.process.processIdentifier)
        XCTAssertEqual(run.waitForExit(), 0, run.stdout + run.stderr)
        XCTAssertTrue(holdSound, "the three ISOs' .partial files held sound while the clip recorded")
        XCTAssertEqual(threads.filter { $0.hasPrefix("PauseCam audio") }.count, 1,
                       "one AAC encoder for the program and its three ISOs: \(threads.sorted())")
        XCTAssertEqual(threads.filter { $0.hasPrefix("PauseCam ISO so") }.count, 3, "\(threads.sorted())")
        for lens in Self.lenses {
            let iso = out.appendingPathComponent("iso-rig.iso/\(lens.role).mov").path
            XCTAssertEqual(try Self.audioPackets(iso), try Self.audioPackets(out.appendingPathComponent("iso-rig.mov").path),
                           lens.role)
        }
    }

    /// Audio packets in a `.partial` being written (0 while it has none, or is not there yet).
    static func audioPacketCount(inPartial path: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        let result = try ProcessRunner.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "a", "-count_packets",
                                                                 "-show_entries", "stream=nb_read_packets",
                                                                 "-of", "csv=p=0", path])
        return Int(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// The kernel's names of the threads of process `pid` (`/proc/PID/task/*/comm`).
    static func threadNames(of pid: Int32) -> [String] {
        let tasks = "/proc/\(pid)/task"
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        return ids.compactMap { id in
            (try? String(contentsOfFile: "\(tasks)/\(id)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines)
        }
    }

    /// Every audio packet of `path` as stored (`-c copy -f framemd5`): its times, size and MD5, one line each.
    static func audioPackets(_ path: String) throws -> [String] {
        let result = try ProcessRunner.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-c", "copy",
                                                                "-f", "framemd5", "-"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    }

    func testAnIsoNamingAnUnknownLensIsARigErrorWithItsPlace() throws {
        let directory = try ProcessRunner.temporaryDirectory("iso-check")
        let rigPath = directory.appendingPathComponent("bad.yaml")
        try """
        name: Bad
        output: {iso: [wide, tel]}
        lenses:
          wide: {virtual: {color: "#20c040"}}
          tele: {virtual: {color: "#3050e0"}}
        """.write(to: rigPath, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", rigPath.path])
        XCTAssertEqual(result.status, 2, result.stdoutText + result.stderr)
        XCTAssertTrue((result.stdoutText + result.stderr).contains("bad.yaml:2:22: output.iso: unknown lens \"tel\""),
                      result.stdoutText + result.stderr)
    }

    /// The lens whose background colour is nearest `color`.
    static func lens(showing color: (Int, Int, Int)) -> String {
        lenses.min { a, b in distance(a.color, color) < distance(b.color, color) }?.role ?? "?"
    }

    static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        abs(a.0 - b.0) + abs(a.1 - b.1) + abs(a.2 - b.2)
    }
}

extension MediaProbe {
    /// Where the virtual lens's moving bar is in every decoded frame, as the bar's centre over the picture's width
    /// (0…1): the bottom eighth of a `width`×`height` picture, averaged down to one row of 512 columns, weighted by
    /// how much brighter than the row's darkest each column is.
    func barPositions(width: Int, height: Int) throws -> [Double] {
        let band = height / 8 - 4
        let columns = 512
        let result = try ProcessRunner.run("/usr/bin/ffmpeg", [
            "-v", "error", "-i", path, "-map", "0:v:0",
            "-vf", "crop=\(width):\(band):0:\(height - height / 8 + 2),scale=\(columns):1:flags=area",
            "-f", "rawvideo", "-pix_fmt", "gray", "-",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let bytes = [UInt8](result.stdout)
        return stride(from: 0, to: bytes.count - columns + 1, by: columns).map { start in
            let row = bytes[start..<(start + columns)].map(Double.init)
            let floor = row.min() ?? 0
            let threshold = floor + ((row.max() ?? 0) - floor) / 2
            var weight = 0.0, sum = 0.0
            for (column, value) in row.enumerated() where value > threshold {
                weight += value - floor
                sum += (value - floor) * (Double(column) + 0.5)
            }
            return weight > 0 ? sum / weight / Double(columns) : -1
        }
    }
}
