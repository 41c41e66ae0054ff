import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PauseCamCore
import XCTest

/// The exports of a rig of voices, checked with xmllint against Apple's FCPXML 1.9 DTD: `pausecam export` of a clip
/// whose lens followed who spoke makes a multicam clip whose edits are follow's automatic cuts (and the manual
/// ones); a movie of voices (the stereo mix, then a mono track per voice) gets a `dialogue.NAME` role per voice in
/// both the clip and the multicam document.
final class VoicesExportEndToEndTests: XCTestCase {
    /// The program of the clip: follow cut to tele at 5 s, to wide at 10 s, to main at 12.3 s; a person chose tele
    /// at 16 s; 18 s at 30 fps.
    static let program: [(lens: String, start: Double, end: Double, auto: Bool)] = [
        ("main", 0, 5, false), ("tele", 5, 10, true), ("wide", 10, 12.3, true), ("main", 12.3, 16, true),
        ("tele", 16, 18, false),
    ]
    static let lenses = ["wide", "main", "tele"]

    /// A sidecar of that clip with ISOs of the three lenses, its movies (empty files) beside it; returns its path.
    static func writeClip(in folder: URL) throws -> String {
        var json = ExportSidecarEndToEndTests.sidecar(duration: 18, scenes: [("Talk", 0, 18, [])])
        var scene = try XCTUnwrap((json["scenes"] as? [[String: Any]])?.first)
        scene["lenses"] = program.map {
            ["lens": $0.lens, "start": $0.start, "duration": $0.end - $0.start, "repeated_frames": 0,
             "skipped_frames": 0] as [String: Any]
        }
        json["scenes"] = [scene]
        json["switches"] = program.dropFirst().map {
            ["lens": $0.lens, "requested": $0.start, "effective": $0.start, "auto": $0.auto] as [String: Any]
        }
        json["audio"] = ["codec": "aac", "sample_rate": 48_000, "channels": 2, "samples_written": 864_000, "samples_dropped": 0,
                         "late_samples_dropped": 0] as [String: Any]
        json["iso"] = lenses.map {
            ["lens": $0, "file": "clip.iso/\($0).mov", "width": 320, "height": 180, "fps": 30, "frames": 540]
                as [String: Any]
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("clip.iso"),
                                                withIntermediateDirectories: true)
        for lens in lenses { try Data().write(to: folder.appendingPathComponent("clip.iso/\(lens).mov")) }
        return try ExportSidecarEndToEndTests.write(json, to: folder)
    }

    private func elements(_ path: String, in file: String) throws -> [XMLElement] {
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: file), options: [])
        return try document.nodes(forXPath: path).compactMap { $0 as? XMLElement }
    }

    private func attribute(_ element: XMLElement, _ name: String) -> String {
        element.attribute(forName: name)?.stringValue ?? ""
    }

    func testTheMulticamOfAFollowedClipIsCutAtFollowsAutomaticCuts() throws {
        let folder = try ProcessRunner.temporaryDirectory("voices-export-follow")
        let sidecar = try Self.writeClip(in: folder)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["export", sidecar, "--format", "fcpxml"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "every movie is there: no warning")
        let written = folder.appendingPathComponent("clip.fcpxml").path
        XCTAssertEqual(result.stdoutText, written + "\n")
        try MulticamExportEndToEndTests.assertValidFCPXML(written)

        var angleNames: [String: String] = [:]
        for angle in try elements("//multicam/mc-angle", in: written) {
            angleNames[attribute(angle, "angleID")] = attribute(angle, "name")
        }
        XCTAssertEqual(Set(angleNames.values), Set(Self.lenses))
        let edits = try elements("//spine/mc-clip", in: written).map { clip in
            let video = clip.elements(forName: "mc-source").first { ["video", "all"].contains(attribute($0, "srcEnable")) }
            return (offset: IsoExportEndToEndTests.frames(attribute(clip, "offset")),
                    duration: IsoExportEndToEndTests.frames(attribute(clip, "duration")),
                    lens: angleNames[video.map { attribute($0, "angleID") } ?? ""] ?? "?")
        }
        // An edit at every switch of the program, follow's and the person's alike, each at its frame.
        XCTAssertEqual(edits.map(\.lens), Self.program.map(\.lens))
        XCTAssertEqual(edits.map(\.offset), Self.program.map { Int64(($0.start * 30).rounded()) })
        XCTAssertEqual(edits.map(\.duration), Self.program.map { Int64((($0.end - $0.start) * 30).rounded()) })
    }

    func testAMovieOfVoicesHasARolePerVoiceThatTheDTDAccepts() throws {
        let folder = try ProcessRunner.temporaryDirectory("voices-export-roles")
        let sidecarPath = try Self.writeClip(in: folder)
        let sidecar = try Sidecar.decode(Data(contentsOf: URL(fileURLWithPath: sidecarPath)))
        var clip = try ExportTimeline(sidecar: sidecar)
        clip.audioTracks = ExportTimeline.voiceTracks(["mix", "host", "guest"])
        let isos = try XCTUnwrap(try MulticamTimeline.iso(of: sidecar, clip: clip))
        var plain = clip
        plain.movie = "plain.mov"

        for (name, text, clips) in [
            ("clip.fcpxml", FCPXMLDocument.render(clip, mediaURL: folder.appendingPathComponent("clip.mov")
                .absoluteString), 1),
            ("multicam.fcpxml", FCPXMLMulticamDocument.render(isos), Self.lenses.count),
        ] {
            let file = folder.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            try MulticamExportEndToEndTests.assertValidFCPXML(file)
            for asset in try elements("//resources/asset", in: file) {
                XCTAssertEqual(attribute(asset, "audioSources"), "3", name)
                XCTAssertEqual(attribute(asset, "audioChannels"), "4", name)
            }
            let sources = try elements("//asset-clip/audio-channel-source", in: file)
            XCTAssertEqual(sources.count, 3 * clips, name)
            for start in stride(from: 0, to: sources.count, by: 3) {
                let three = Array(sources[start..<(start + 3)])
                XCTAssertEqual(three.map { attribute($0, "role") }, ["dialogue.mix", "dialogue.host", "dialogue.guest"],
                               name)
                XCTAssertEqual(three.map { attribute($0, "srcCh") }, ["1, 2", "3", "4"], name)
                XCTAssertEqual(three.map { attribute($0, "active") }, ["0", "", ""], "\(name): the mix is inactive")
            }
        }
    }
}
