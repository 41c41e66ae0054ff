import Foundation
import XCTest
import PauseCamCore
@testable import PauseCamSystem

/// The broken-rig corpus: every `BrokenRigs/NAME.yaml` must fail with exactly the diagnostics written by hand in
/// `NAME.expected` (one `FILE:LINE:COLUMN: message` per line, in file order).
final class RigBrokenCorpusTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("BrokenRigs")

    func testEveryBrokenRigGivesItsExpectedErrors() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { $0.hasSuffix(".yaml") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 40, "the corpus must hold at least 40 broken rigs")
        for file in files {
            let url = Self.folder.appendingPathComponent(file)
            let expectedURL = url.deletingPathExtension().appendingPathExtension("expected")
            let expected = try String(contentsOf: expectedURL, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            XCTAssertFalse(expected.isEmpty, "\(file): empty .expected")
            let bytes = try [UInt8](Data(contentsOf: url))
            do {
                let rig = try RigLoader.load(bytes: bytes, file: file)
                XCTFail("\(file) loaded as rig \"\(rig.name)\" but should fail with:\n\(expected.joined(separator: "\n"))")
            } catch {
                XCTAssertEqual(error.diagnostics.map(\.description), expected, file)
            }
        }
    }

    func testEveryBrokenRigHasAnExpectationAndViceVersa() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
        let rigs = Set(names.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) })
        let expectations = Set(names.filter { $0.hasSuffix(".expected") }.map { String($0.dropLast(9)) })
        XCTAssertEqual(rigs, expectations)
    }
}
