import XCTest
@testable import PauseCamCore

/// `keys:`: each key a command line of the shell's grammar that acts at once. The keys mode reads no key while a
/// command runs, so a command that lets time pass would leave it deaf to `q` until it ended.
final class HotkeysDecoderTests: XCTestCase {
    typealias T = RigDecoderTests

    func keys(_ pairs: [(String, String)]) -> YAMLNode { T.rig(section: "keys", pairs, valueColumn: 6) }

    func messages(_ root: YAMLNode) -> [String] { T.messages(of: root) }

    func testCommandsThatActAtOnceAreKeys() throws {
        let rig = try RigDecoder.decode(keys([("x", "mark good take"), ("space", "toggle"), ("s", "status"),
                                              ("d", "devices"), ("h", "help"), ("k", "stop")]))
        XCTAssertEqual(rig.keys.map(\.line), ["mark good take", "toggle", "status", "devices", "help", "stop"])
    }

    func testCommandsThatLetTimePassAreRefusedWithTheirPosition() {
        XCTAssertEqual(messages(keys([("w", "wait 1h"), ("l", "run long"), ("p", "last play"), ("x", "mark ok")])), [
            "t.yaml:10:6: keys.w: \"wait 1h\" cannot be a hotkey: a key acts at once, and `wait` lets time pass, so "
                + "the keys mode would not hear q until it ended",
            "t.yaml:11:6: keys.l: \"run long\" cannot be a hotkey: a key acts at once, and `run` goes on until its "
                + "script ends, so the keys mode would not hear q until it ended",
            "t.yaml:12:6: keys.p: \"last play\" cannot be a hotkey: a key acts at once, and `last` waits for the clips "
                + "being saved, so the keys mode would not hear q until it ended",
        ])
    }
}
