import Foundation
import XCTest
import PauseCamCore
@testable import PauseCamSystem

/// Seeded mutations of the example rigs (lines and characters deleted, duplicated, swapped, replaced) must never
/// crash or hang the loader; each either loads or fails with diagnostics that all carry a real position.
final class RigFuzzTests: XCTestCase {

    static let alphabet = Array(":{}[]-#\"' \n\t&*!|>%@`,?0123456789x/.~abcé")

    static func mutate(_ text: String, _ rng: inout SplitMix64) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var chars: [Character] { lines.joined(separator: "\n").map { $0 } }
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let n = lines.count
            switch Int.random(in: 0..<8, using: &rng) {
            case 0 where n > 1: lines.remove(at: Int.random(in: 0..<n, using: &rng))
            case 1: let i = Int.random(in: 0..<n, using: &rng); lines.insert(lines[i], at: i)
            case 2 where n > 1: lines.swapAt(Int.random(in: 0..<n, using: &rng), Int.random(in: 0..<n, using: &rng))
            default:
                var c = chars
                guard !c.isEmpty else { break }
                let i = Int.random(in: 0..<c.count, using: &rng)
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: c.remove(at: i)
                case 1: c.insert(c[i], at: i)
                case 2 where i + 1 < c.count: c.swapAt(i, i + 1)
                case 3: c[i] = alphabet.randomElement(using: &rng)!
                default: c.insert(alphabet.randomElement(using: &rng)!, at: i)
                }
                lines = String(c).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            }
        }
        return lines.joined(separator: "\n")
    }

    func testTenThousandMutationsLoadOrGivePositionedErrors() throws {
        let folder = RigFilesTests.rigsFolder
        let sources = try RigFilesTests.rigPaths().map { (URL(fileURLWithPath: $0).lastPathComponent,
                                                          try String(contentsOfFile: $0, encoding: .utf8)) }
        XCTAssertFalse(sources.isEmpty, "no rigs in \(folder.path)")
        let baseSeed = UInt64(ProcessInfo.processInfo.environment["PAUSECAM_FUZZ_SEED"] ?? "") ?? 20_241_130
        let iterations = 10_000
        var loaded = 0, failed = 0
        for iteration in 0..<iterations {
            let seed = baseSeed &+ UInt64(iteration)
            var rng = SplitMix64(state: seed)
            let (name, original) = sources[Int(seed % UInt64(sources.count))]
            let text = Self.mutate(original, &rng)
            let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
            do {
                _ = try RigLoader.load(text: text, file: name)
                loaded += 1
            } catch {
                failed += 1
                XCTAssertFalse(error.diagnostics.isEmpty, "seed \(seed): an error without diagnostics")
                for d in error.diagnostics {
                    let ok = d.mark.file == name && d.mark.line >= 1 && d.mark.line <= lineCount + 1
                        && d.mark.column >= 1 && !d.message.isEmpty
                    if !ok {
                        XCTFail("seed \(seed) (PAUSECAM_FUZZ_SEED=\(seed)): unpositioned diagnostic \(d)\n---\n\(text)")
                        return
                    }
                }
            }
        }
        XCTAssertEqual(loaded + failed, iterations)
        // Both outcomes must occur, or the mutations are too weak (or too strong) to test anything.
        XCTAssertGreaterThan(loaded, 100)
        XCTAssertGreaterThan(failed, 1000)
    }
}
