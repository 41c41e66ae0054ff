import Foundation
@testable import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// `preroll:`'s mapping form held to its key enum through real YAML, as every other section is.
extension RigSectionKeysTests {
    func testEveryPrerollKeyIsRead() {
        for key in RigDecoder.PrerollKey.names {
            let others = RigDecoder.PrerollKey.names.filter { $0 != key }.map { k in k == "length" ? "  length: 3s" : "" }
            let preroll = (["preroll:", "  \(key): \(Self.wrong)"] + others.filter { !$0.isEmpty }).joined(separator: "\n")
            assertReadAndKnown(Self.rig(extraTop: preroll), "preroll.\(key)")
        }
    }

    func testAPrerollWithAGroupIsRefusedOnItsLine() throws {
        let text = Self.rig(extraTop: "group: {name: studio, broker: \"mqtt://127.0.0.1:1883\"}\npreroll: 3s")
        XCTAssertThrowsError(try RigLoader.load(text: text, file: "keys.yaml")) { error in
            let line = text.split(separator: "\n", omittingEmptySubsequences: false).count
            let diagnostics = (error as? RigError)?.diagnostics ?? []
            XCTAssertTrue(diagnostics.contains { $0.mark.line == line && $0.message.contains("cannot have preroll:") },
                          "\(diagnostics)")
        }
    }
}
