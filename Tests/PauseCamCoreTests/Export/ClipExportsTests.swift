import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// `output.exports` in the rig: decoded, and written beside the movie after every clip through the store.
final class ClipExportsTests: XCTestCase {
    /// A store that keeps sidecars and new files in memory, applying the add-only naming.
    /// Unchecked Sendable: a fake driven by one thread at a time (the test's, or the worker it hands the clip to).
    final class NewFileMemoryStore: SidecarStore, @unchecked Sendable {
        var files: [String: Data] = [:]
        var newFiles: [String] = []
        func write(_ data: Data, to path: String) throws { files[path] = data }
        func writeNew(_ data: Data, stem: String, suffix: String) throws -> String {
            var attempt = 1
            while files[AddOnlyName.candidate(stem: stem, suffix: suffix, attempt: attempt)] != nil { attempt += 1 }
            let path = AddOnlyName.candidate(stem: stem, suffix: suffix, attempt: attempt)
            files[path] = data
            newFiles.append(path)
            return path
        }
    }

    func testExportsAreDecodedFromTheOutputSection() throws {
        typealias T = RigDecoderTests
        let rig = try RigDecoder.decode(T.rig(extra: [
            (T.s("output", 7, 1), T.m(8, 3, [(T.s("exports", 8, 3), T.q(8, 12, [
                T.s("edl", 8, 13), T.s("fcpxml", 8, 18), T.s("edl", 8, 26),
            ]))])),
        ]))
        XCTAssertEqual(rig.output.exports, [.edl, .fcpxml])
        XCTAssertEqual(try RigDecoder.decode(T.rig()).output.exports, [])
        let single = try RigDecoder.decode(T.rig(extra: [
            (T.s("output", 7, 1), T.m(8, 3, [(T.s("exports", 8, 3), T.s("youtube", 8, 12))])),
        ]))
        XCTAssertEqual(single.output.exports, [.youtube])
    }

    func testAnUnknownExportIsReportedWhereItIsWritten() {
        typealias T = RigDecoderTests
        let messages = Self.messages(T.rig(extra: [
            (T.s("output", 7, 1), T.m(8, 3, [(T.s("exports", 8, 3), T.q(8, 12, [
                T.s("edl", 8, 13), T.s("fcpxm", 8, 18),
            ]))])),
        ]))
        XCTAssertEqual(messages.count, 1, "\(messages)")
        XCTAssertTrue(messages.first?.hasPrefix("t.yaml:8:18:") ?? false, "\(messages)")
        XCTAssertTrue(messages.first?.contains("did you mean \"fcpxml\"") ?? false, "\(messages)")
    }

    static func messages(_ root: YAMLNode) -> [String] { RigDecoderTests.messages(of: root) }

    func testEveryClipGetsItsExportsBesideTheMovieWithoutOverwriting() throws {
        var rig = EngineFixture.makeRig()
        rig.output.exports = [.edl, .youtube]
        let serialContext = SimulatedSerialContext()
        var cameras: [String: any Camera] = [:]
        for lens in rig.lenses {
            guard case .virtual(let color) = lens.source else { continue }
            cameras[lens.name] = VirtualLens(lens: lens.name, color: color, width: lens.width!, height: lens.height!,
                                             rate: lens.rate!, serialContext: serialContext)
        }
        let store = NewFileMemoryStore()
        // A file already sits where the first clip's EDL would go: it must be left alone.
        store.files["/videos/test-rig-2027-01-15-080000-1.edl"] = Data("mine".utf8)
        let controller = EngineFixture.makeController(
            rig: rig, cameras: cameras, microphone: VirtualMicrophone(serialContext: serialContext),
            sinkFactory: RecordingSinkFactory(), store: store, serialContext: serialContext,
            wallClock: { Date(timeIntervalSince1970: 1_800_000_000) }, outputDirectory: "/videos", finishing: InlineWorker(), devices: InlineWorker(), notify: { _ in })
        controller.startDevices()
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)
        // Three scenes of 10 s: a list YouTube shows.
        for step: Command in [.record(name: "Take"), .wait(.seconds(5)), .mark("here"), .wait(.seconds(5)), .pause,
                              .wait(.seconds(1)),
                              .resume(name: "Take"), .wait(.seconds(10)), .pause, .resume(name: "Take"),
                              .wait(.seconds(10)), .stop] {
            XCTAssertTrue(runner.perform(step).ok, "\(step)")
        }
        let clip = try XCTUnwrap(runner.finishClip())
        XCTAssertEqual(clip.sidecar.warnings, [])
        XCTAssertEqual(store.newFiles, ["/videos/test-rig-2027-01-15-080000-1-2.edl",
                                        "/videos/test-rig-2027-01-15-080000-1.youtube.txt"])
        XCTAssertEqual(store.files["/videos/test-rig-2027-01-15-080000-1.edl"], Data("mine".utf8))
        let stem = "/videos/test-rig-2027-01-15-080000-1"
        let youtube = String(decoding: try XCTUnwrap(store.files[stem + ".youtube.txt"]), as: UTF8.self)
        XCTAssertEqual(youtube, "0:00 Take\n0:10 Take 2\n0:20 Take 3\n")
        let edl = String(decoding: try XCTUnwrap(store.files[stem + "-2.edl"]), as: UTF8.self)
        XCTAssertTrue(edl.contains(" |C:ResolveColorBlue |M:here |D:1"), edl)
    }

    func testAYouTubeListYouTubeWouldIgnoreIsSkippedWithAWarning() throws {
        var sidecar = ExportSample.sidecar()
        sidecar.scenes.removeLast()
        let store = NewFileMemoryStore()
        let warnings = ClipExports.write(sidecar: sidecar, movieURL: URL(fileURLWithPath: "/v/clip.mov"),
                                         formats: [.youtube, .csv], store: store)
        XCTAssertEqual(store.newFiles, ["/v/clip.csv"])
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].hasPrefix("the youtube export was not written: the clip has 2 chapters"),
                      warnings[0])
    }

    func testAStoreThatCannotWriteExportsLeavesAWarningNotAFailure() throws {
        let warnings = ClipExports.write(sidecar: ExportSample.sidecar(), movieURL: URL(fileURLWithPath: "/v/clip.mov"),
                                         formats: [.csv], store: MemorySidecarStore())
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("the csv export was not written"), warnings[0])
        XCTAssertTrue(warnings[0].contains("pausecam export '/v/clip.json' --format csv"), warnings[0])
    }
}
