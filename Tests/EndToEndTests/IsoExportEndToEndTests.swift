import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PauseCamCore
import XCTest

/// `pausecam export` on a clip recorded with ISOs (three virtual lenses, one at 60 fps, two pauses, switches inside
/// scenes, across a pause and at a chapter, on the simulated clock): FCPXML is a multicam clip of the ISO movies
/// that Apple's DTD accepts and whose cuts are the sidecar's lens segments frame for frame; EDL is a CMX 3600 cut
/// list whose events switch between one reel per ISO at the same frames; a missing ISO movie is a warning that
/// names it, and the export is still written.
final class IsoExportEndToEndTests: XCTestCase {
    /// The rig's lenses in its order (the angles' order), their ISO sizes and rates.
    static let lenses: [(role: String, width: Int, height: Int, fps: Int)] = [
        ("wide", 320, 180, 30), ("main", 256, 144, 30), ("tele", 192, 108, 60),
    ]
    static let rate = 30

    /// A recorded clip: its folder and sidecar.
    struct Clip {
        var folder: URL
        var sidecarPath: String
        var sidecar: Sidecar
        var stem: String { folder.appendingPathComponent("iso-export").path }
    }

    /// Records the clip once for every test of the class (each test only reads it, or works on its own copy).
    nonisolated(unsafe) static var recorded: Clip?

    static func clip() throws -> Clip {
        if let recorded { return recorded }
        let directory = try ProcessRunner.temporaryDirectory("iso-export")
        let rig = """
        name: Iso export
        output: {name: "{rig}", size: 256x144, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}, iso: true}
        audio: {device: virtual}
        lenses:
          wide: {zoom: 0.5, virtual: {color: "#20c040"}, size: 320x180, fps: 30}
          main: {zoom: 1, virtual: {color: "#c03020"}, size: 256x144, fps: 30}
          tele: {zoom: 3, virtual: {color: "#3050e0"}, size: 192x108, fps: 60}
        default_lens: main
        scripts:
          demo:
            - record: One
            - wait: 1s
            - lens: tele
            - wait: 1s
            - pause
            - wait: 1s
            - lens: wide
            - resume: Two
            - wait: 1s
            - lens: main
            - wait: 0.5s
            - mark: applause
            - wait: 0.5s
            - pause
            - wait: 0.5s
            - resume
            - wait: 0.5s
            - chapter: Three
            - lens: tele
            - wait: 1s
            - stop
        """
        let rigPath = directory.appendingPathComponent("iso-export.yaml")
        try rig.write(to: rigPath, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["run", rigPath.path, "--script", "demo", "--clock", "simulated",
                                            "--output", out.path])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let sidecarPath = out.appendingPathComponent("iso-export.json").path
        let sidecar = try Sidecar.decode(Data(contentsOf: URL(fileURLWithPath: sidecarPath)))
        let clip = Clip(folder: out, sidecarPath: sidecarPath, sidecar: sidecar)
        recorded = clip
        return clip
    }

    private func pausecam(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(BinaryLocator.pausecam.path, arguments)
    }

    /// The program's cut as the sidecar tells it, independently of the exporter: every lens segment of every scene
    /// in frames (times × 30, rounded), segments of one lens that follow each other joined into one cut. Checks on
    /// the way that the segments tile the movie: each starts where the one before it ends.
    static func sidecarCuts(_ sidecar: Sidecar) -> [(lens: String, start: Int64, duration: Int64)] {
        let frames = { (seconds: Double) in Int64((seconds * Double(rate)).rounded()) }
        var cuts: [(lens: String, start: Int64, duration: Int64)] = []
        for segment in sidecar.scenes.flatMap(\.lenses) {
            let start = frames(segment.start), end = frames(segment.start + segment.duration)
            guard end > start else { continue }
            if let last = cuts.last {
                XCTAssertEqual(last.start + last.duration, start, "segment \(segment) starts where the last ended")
                if last.lens == segment.lens {
                    cuts[cuts.count - 1].duration = end - last.start
                    continue
                }
            }
            cuts.append((segment.lens, start, end - start))
        }
        return cuts
    }

    /// FCPXML rational seconds (`0s`, `7/2s`, `1001/30000s`) as whole frames at `rate`; fails on a time off the grid.
    static func frames(_ time: String?, rate: Int = rate, file: StaticString = #filePath,
                       line: UInt = #line) -> Int64 {
        guard let time, time.hasSuffix("s") else {
            XCTFail("not an FCPXML time: \(time ?? "nil")", file: file, line: line)
            return -1
        }
        let parts = time.dropLast().split(separator: "/").compactMap { Int64($0) }
        let (numerator, denominator) = (parts.first ?? -1, parts.count > 1 ? parts[1] : 1)
        XCTAssertEqual(numerator * Int64(rate) % denominator, 0, "\(time) is on the \(rate) fps grid",
                       file: file, line: line)
        return numerator * Int64(rate) / denominator
    }

    func testAClipWithIsosExportsAMulticamClipCutAsTheProgramWas() throws {
        let clip = try Self.clip()
        XCTAssertEqual(clip.sidecar.iso?.map(\.lens), Self.lenses.map(\.role))
        XCTAssertEqual(clip.sidecar.switches.map(\.lens), ["tele", "wide", "main", "tele"])
        XCTAssertEqual(clip.sidecar.pauses.count, 2)

        let result = try pausecam(["export", clip.sidecarPath, "--format", "fcpxml"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "every ISO is there: no warning")
        let written = clip.stem + ".fcpxml"
        XCTAssertEqual(result.stdoutText, written + "\n")
        try MulticamExportEndToEndTests.assertValidFCPXML(written)
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: written), options: [])
        let nodes = { (path: String) in try document.nodes(forXPath: path).compactMap { $0 as? XMLElement } }
        let attribute = { (element: XMLElement, name: String) in element.attribute(forName: name)?.stringValue }

        // An angle per lens ISO, named after its lens, linking its movie at its size and rate, as long as the clip.
        let formats = Dictionary(uniqueKeysWithValues: try nodes("//resources/format").map {
            (attribute($0, "id") ?? "", $0)
        })
        let assets = Dictionary(uniqueKeysWithValues: try nodes("//resources/asset").map {
            (attribute($0, "id") ?? "", $0)
        })
        let angles = try nodes("//multicam/mc-angle")
        XCTAssertEqual(angles.compactMap { attribute($0, "name") }, Self.lenses.map(\.role))
        let durationFrames = Int64((clip.sidecar.duration * Double(Self.rate)).rounded())
        var angleNames: [String: String] = [:]
        for (angle, lens) in zip(angles, Self.lenses) {
            angleNames[attribute(angle, "angleID") ?? ""] = lens.role
            let clips = angle.elements(forName: "asset-clip")
            XCTAssertEqual(clips.count, 1, lens.role)
            XCTAssertTrue(angle.elements(forName: "gap").isEmpty, "every ISO starts with the program")
            let assetClip = try XCTUnwrap(clips.first)
            XCTAssertEqual(Self.frames(attribute(assetClip, "offset")), 0, lens.role)
            XCTAssertEqual(Self.frames(attribute(assetClip, "duration")), durationFrames, lens.role)
            let asset = try XCTUnwrap(assets[attribute(assetClip, "ref") ?? ""], lens.role)
            let movie = clip.folder.appendingPathComponent("iso-export.iso/\(lens.role).mov")
            XCTAssertEqual(attribute(try XCTUnwrap(asset.elements(forName: "media-rep").first), "src"),
                           movie.absoluteString, lens.role)
            XCTAssertEqual(attribute(asset, "hasAudio"), "1", "\(lens.role) carries the program's sound")
            let format = try XCTUnwrap(formats[attribute(asset, "format") ?? ""], lens.role)
            XCTAssertEqual(attribute(format, "width"), "\(lens.width)", lens.role)
            XCTAssertEqual(attribute(format, "height"), "\(lens.height)", lens.role)
            XCTAssertEqual(attribute(format, "frameDuration"), "1/\(lens.fps)s", lens.role)
            XCTAssertEqual(try MediaProbe(path: movie.path).duration(), clip.sidecar.duration, accuracy: 1.0 / 30,
                           "\(lens.role): the asset is as long as the ISO movie")
        }
        let sequence = try XCTUnwrap(try nodes("//sequence").first)
        XCTAssertEqual(attribute(try XCTUnwrap(formats[attribute(sequence, "format") ?? ""]), "frameDuration"),
                       "1/30s", "the project runs at the program's rate")

        // The project's cuts are the sidecar's lens segments: angle, offset and duration in frames.
        let mcClips = try nodes("//spine/mc-clip")
        let exported = mcClips.map { mcClip in
            let video = mcClip.elements(forName: "mc-source").first {
                ["video", "all"].contains(attribute($0, "srcEnable"))
            }
            return (lens: angleNames[video.flatMap { attribute($0, "angleID") } ?? ""] ?? "?",
                    start: Self.frames(attribute(mcClip, "offset")),
                    duration: Self.frames(attribute(mcClip, "duration")))
        }
        let expected = Self.sidecarCuts(clip.sidecar)
        XCTAssertEqual(expected.map(\.lens), ["main", "tele", "wide", "main", "tele"])
        XCTAssertEqual(exported.map(\.lens), expected.map(\.lens))
        XCTAssertEqual(exported.map(\.start), expected.map(\.start))
        XCTAssertEqual(exported.map(\.duration), expected.map(\.duration))
        XCTAssertEqual(expected.last.map { $0.start + $0.duration }, durationFrames, "the cuts cover the movie")
        for (mcClip, cut) in zip(mcClips, exported) {
            XCTAssertEqual(Self.frames(attribute(mcClip, "start")), cut.start, "the multicam's own time is the clip's")
            let audio = mcClip.elements(forName: "mc-source").filter {
                ["audio", "all"].contains(attribute($0, "srcEnable"))
            }
            XCTAssertEqual(audio.count, 1, "one angle's sound (the program's, in every ISO) in \(cut)")
        }

        // A chapter marker per scene, at the scene's first frame; the mark as a marker.
        let chapters = try nodes("//spine/mc-clip/chapter-marker")
        XCTAssertEqual(chapters.compactMap { attribute($0, "value") }, clip.sidecar.scenes.map(\.title))
        XCTAssertEqual(chapters.map { Self.frames(attribute($0, "start")) },
                       clip.sidecar.scenes.map { Int64(($0.start * Double(Self.rate)).rounded()) })
        XCTAssertEqual(try nodes("//spine/mc-clip/marker").compactMap { attribute($0, "value") }, ["applause"])
    }

    /// A user who moved or lost one ISO still gets the export, linking where the movie belongs (an editor relinks
    /// it, as for a missing program movie), with a warning naming the missing movie; status 0.
    func testAMissingIsoMovieIsAWarningNamingItAndTheExportIsWritten() throws {
        let clip = try Self.clip()
        let copy = try ProcessRunner.temporaryDirectory("iso-export-missing")
        for name in ["iso-export.json", "iso-export.mov", "iso-export.iso"] {
            try FileManager.default.copyItem(at: clip.folder.appendingPathComponent(name),
                                             to: copy.appendingPathComponent(name))
        }
        let tele = copy.appendingPathComponent("iso-export.iso/tele.mov")
        try FileManager.default.removeItem(at: tele)
        let sidecar = copy.appendingPathComponent("iso-export.json").path

        let result = try pausecam(["export", sidecar, "--format", "fcpxml"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("warning: 1 ISO movie named in \(sidecar) does not exist: \(tele.path);"),
                      result.stderr)
        XCTAssertFalse(result.stderr.contains("wide.mov"), result.stderr)
        let written = copy.appendingPathComponent("iso-export.fcpxml").path
        XCTAssertEqual(result.stdoutText, written + "\n")
        try MulticamExportEndToEndTests.assertValidFCPXML(written)
        let xml = try String(contentsOfFile: written, encoding: .utf8)
        XCTAssertTrue(xml.contains("src=\"\(tele.absoluteString)\""), "the angle links where the movie belongs")
    }

    /// Timecode `HH:MM:SS:FF` at 30 fps (non-drop) as a frame count.
    static func frames(timecode: String, file: StaticString = #filePath, line: UInt = #line) -> Int64 {
        let fields = timecode.split(separator: ":").compactMap { Int64($0) }
        XCTAssertEqual(fields.count, 4, "\(timecode) is HH:MM:SS:FF", file: file, line: line)
        guard fields.count == 4 else { return -1 }
        return ((fields[0] * 60 + fields[1]) * 60 + fields[2]) * Int64(rate) + fields[3]
    }

    /// One event of a CMX 3600 EDL as the test reads it.
    struct EDLEvent {
        var number: String
        var reel: String
        var channels: String
        var transition: String
        var source: (in: Int64, out: Int64)
        var record: (in: Int64, out: Int64)
        var clipName: String?
    }

    /// The events of an EDL: a line of eight fields (number, reel, channels, transition and four timecodes), and
    /// the `* FROM CLIP NAME:` comment that follows it.
    static func events(_ text: String) -> (title: String?, fcm: String?, events: [EDLEvent]) {
        var title: String?, fcm: String?
        var events: [EDLEvent] = []
        for line in text.components(separatedBy: "\r\n") {
            if line.hasPrefix("TITLE: ") { title = String(line.dropFirst(7)) }
            if line.hasPrefix("FCM: ") { fcm = String(line.dropFirst(5)) }
            if line.hasPrefix("* FROM CLIP NAME: "), !events.isEmpty {
                events[events.count - 1].clipName = String(line.dropFirst(18))
            }
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 8, fields[0].allSatisfy(\.isNumber) else { continue }
            let tc = fields[4...].map { frames(timecode: $0) }
            events.append(EDLEvent(number: fields[0], reel: fields[1], channels: fields[2], transition: fields[3],
                                   source: (tc[0], tc[1]), record: (tc[2], tc[3])))
        }
        return (title, fcm, events)
    }

    func testAClipWithIsosExportsACutListSwitchingBetweenTheirReels() throws {
        let clip = try Self.clip()
        let output = clip.folder.appendingPathComponent("cut.edl").path
        let result = try pausecam(["export", clip.sidecarPath, "--format", "edl", "--output", output])
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        let (title, fcm, events) = Self.events(text)
        XCTAssertEqual(title, "iso-export")
        XCTAssertEqual(fcm, "NON-DROP FRAME")

        // An event per cut, in order, numbered from 001, straight cuts of picture and sound, on the sidecar's frames;
        // the ISOs share the program's timeline and its timecode, so each event's source timecode is the movie's
        // own (its first frame's label, the sidecar's `timecode`) plus its record timecode.
        let expected = Self.sidecarCuts(clip.sidecar)
        let sourceStart = try XCTUnwrap(clip.sidecar.timecode).startFrame
        XCTAssertEqual(events.count, expected.count, text)
        for (index, (event, cut)) in zip(events, expected).enumerated() {
            XCTAssertEqual(event.number, String(format: "%03d", index + 1), text)
            XCTAssertEqual(event.clipName, "\(cut.lens).mov", "event \(event.number)")
            XCTAssertEqual(event.channels, "AA/V", "event \(event.number)")
            XCTAssertEqual(event.transition, "C", "event \(event.number)")
            XCTAssertEqual(event.record.in, cut.start, "event \(event.number)")
            XCTAssertEqual(event.record.out, cut.start + cut.duration, "event \(event.number)")
            XCTAssertEqual(event.source.in, sourceStart + event.record.in, "event \(event.number)")
            XCTAssertEqual(event.source.out, sourceStart + event.record.out, "event \(event.number)")
        }
        // One reel per lens ISO, named from the lens within CMX's 8 characters, each always with its own movie.
        var reels: [String: String] = [:]
        for event in events {
            XCTAssertLessThanOrEqual(event.reel.count, 8, event.reel)
            XCTAssertEqual(reels.updateValue(event.clipName ?? "", forKey: event.reel) ?? event.clipName,
                           event.clipName, "reel \(event.reel) is one movie")
        }
        XCTAssertEqual(reels, ["MAIN": "main.mov", "TELE": "tele.mov", "WIDE": "wide.mov"])

        // A timeline that starts at 1 h moves the record side only: the source is still the movie's own timecode.
        let later = try pausecam(["export", clip.sidecarPath, "--format", "edl", "--start-timecode", "01:00:00:00",
                                  "--output", "-"])
        XCTAssertEqual(later.status, 0, later.stderr)
        let shifted = Self.events(later.stdoutText).events
        XCTAssertEqual(shifted.map(\.record.in), events.map { $0.record.in + 3600 * Int64(Self.rate) })
        XCTAssertEqual(shifted.map(\.source.in), events.map(\.source.in))
    }
}
