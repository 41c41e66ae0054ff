import Foundation
import XCTest
import PauseCamCore
@testable import PauseCamSystem

/// Rig input is bounded: long but real scripts load whole, while input over the byte or node limit fails at once
/// with one error that names the file, the size and the limit. (How fast loading is, is a `PauseCamBench` figure.)
final class RigInputCapsTests: XCTestCase {
    /// A rig whose one script has `count` steps (record, then wait/pause/wait/resume cycles, then stop), one a line.
    static func longScript(steps count: Int) -> (text: String, firstStepLine: Int) {
        var lines = ["name: Long", "audio: {device: virtual}", "lenses:", "  main:", "    zoom: 1",
                     "    virtual: {color: \"#20c040\"}", "scripts:", "  long:", "    - record: Scene"]
        let firstStepLine = lines.count
        let cycle = ["    - wait: 10ms", "    - pause", "    - wait: 10ms", "    - resume: Scene"]
        for i in 0..<(count - 2) { lines.append(cycle[i % 4]) }
        lines.append("    - stop")
        return (lines.joined(separator: "\n") + "\n", firstStepLine)
    }

    func testTwentyThousandStepScriptLoadsWithEveryStepAndWhereItIsWritten() throws {
        let (text, firstLine) = Self.longScript(steps: 20_000)
        let rig = try RigLoader.load(text: text, file: "long.yaml")
        let script = try XCTUnwrap(rig.script(named: "long"))
        XCTAssertEqual(script.steps.count, 20_000)
        XCTAssertEqual(script.steps.first, .record(name: "Scene"))
        XCTAssertEqual(script.steps.last, .stop)
        XCTAssertEqual(script.stepMarks.count, 20_000)
        XCTAssertEqual(script.stepMarks.first, SourceMark(file: "long.yaml", line: firstLine, column: 7))
        XCTAssertEqual(script.stepMarks.last, SourceMark(file: "long.yaml", line: firstLine + 19_999, column: 7))
        XCTAssertTrue(script.stepMarks.enumerated().allSatisfy { $1.line == firstLine + $0 })
    }

    func testBytesOverTheLimitAreOneErrorForTheWholeFile() {
        let line = Array("# a comment line that makes the file large, but is still valid YAML\n".utf8)
        var bytes: [UInt8] = []
        while bytes.count <= YAMLParser.maximumBytes { bytes += line }
        XCTAssertThrowsError(try RigLoader.load(bytes: bytes, file: "big.yaml")) { error in
            let diagnostics = (error as! RigError).diagnostics
            XCTAssertEqual(diagnostics.count, 1)
            XCTAssertEqual(diagnostics.first?.description,
                           "big.yaml: the rig file is \(bytes.count) bytes, more than the limit of 4194304 bytes "
                           + "(4 MiB) for a rig file; check that this is the rig you meant, or split its scripts "
                           + "over several rig files")
        }
    }

    func testFileOverTheLimitIsRefusedBeforeItIsRead() throws {
        // A sparse 64 MiB file: reading it whole would be the bug; stat says its size first.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-big-\(getpid()).yaml").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("name: x\n".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 64 * 1024 * 1024)
        try handle.close()
        XCTAssertThrowsError(try RigLoader.load(path: path)) { error in
            XCTAssertEqual((error as! RigError).description,
                           "\(path): the rig file is 67108864 bytes, more than the limit of 4194304 bytes (4 MiB) for "
                           + "a rig file; check that this is the rig you meant, or split its scripts over several "
                           + "rig files")
        }
    }

    func testMoreNodesThanTheLimitIsOneErrorAtTheNodeThatGoesOver() {
        // `[a,a,…]` costs two bytes a node: a million nodes fit well under the byte limit.
        let count = YAMLParser.maximumNodes
        let text = "[" + String(repeating: "a,", count: count) + "a]\n"
        XCTAssertLessThan(text.utf8.count, YAMLParser.maximumBytes)
        XCTAssertThrowsError(try RigLoader.load(text: text, file: "flow.yaml")) { error in
            let diagnostics = (error as! RigError).diagnostics
            XCTAssertEqual(diagnostics.count, 1)
            // Node 1 is the list at column 1; scalar n is at column 2n; node 1,000,001 is scalar 1,000,000.
            XCTAssertEqual(diagnostics.first?.description,
                           "flow.yaml:1:\(2 * count): more than 1000000 YAML nodes (values, keys, lists); no rig "
                           + "needs that many: check that this is the rig you meant, or split its scripts over "
                           + "several rig files")
        }
    }

    func testExactlyTheNodeLimitIsStillParsed() throws {
        // One list plus 999,999 scalars: the limit itself is allowed (the decoder then says what is wrong).
        let text = "[" + String(repeating: "a,", count: YAMLParser.maximumNodes - 2) + "a]\n"
        let root = try YAMLParser.parse(text, file: "flow.yaml")
        XCTAssertEqual(root.items?.count, YAMLParser.maximumNodes - 1)
    }
}
