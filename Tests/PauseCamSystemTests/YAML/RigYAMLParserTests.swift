import XCTest
import PauseCamCore
@testable import PauseCamSystem

/// libyaml events → `YAMLNode`: positions are 1-based, duplicates survive, and libyaml's own errors keep their
/// problem text and position.
final class RigYAMLParserTests: XCTestCase {
    func testNodesCarryOneBasedLineAndColumn() throws {
        let root = try YAMLParser.parse("name: Desk\nlenses:\n  main:\n    zoom: 1\n", file: "r.yaml")
        let pairs = try XCTUnwrap(root.pairs)
        XCTAssertEqual(root.mark, SourceMark(file: "r.yaml", line: 1, column: 1))
        XCTAssertEqual(pairs[0].key.text, "name")
        XCTAssertEqual(pairs[0].value.mark, SourceMark(file: "r.yaml", line: 1, column: 7))
        let lens = try XCTUnwrap(pairs[1].value.pairs?.first)
        XCTAssertEqual(lens.key.mark, SourceMark(file: "r.yaml", line: 3, column: 3))
        let zoom = try XCTUnwrap(lens.value.pairs?.first)
        XCTAssertEqual(zoom.value, .scalar("1", at: SourceMark(file: "r.yaml", line: 4, column: 11)))
    }

    func testDuplicateKeysAreKeptInOrderForTheDecoder() throws {
        let root = try YAMLParser.parse("a: 1\nb: 2\na: 3\n", file: "d.yaml")
        XCTAssertEqual(root.pairs?.map { $0.key.text }, ["a", "b", "a"])
        XCTAssertEqual(root.pairs?.map { $0.value.text }, ["1", "2", "3"])
    }

    func testDuplicateKeysBecomeAPositionedError() {
        let text = "name: A\nlenses:\n  main: {zoom: 1, zoom: 2, virtual: {color: \"#000000\"}}\n"
        XCTAssertThrowsError(try RigLoader.load(text: text, file: "d.yaml")) { error in
            XCTAssertEqual((error as! RigError).description,
                           "d.yaml:3:19: lenses.main: duplicate key \"zoom\" (first at line 3, column 10)")
        }
    }

    func testScalarStylesAndNulls() throws {
        let root = try YAMLParser.parse("a: 'x'\nb: \"y\"\nc:\nd: ~\ne: |\n  z\nf: plain\n", file: "s.yaml")
        let values = try XCTUnwrap(root.pairs).map(\.value)
        XCTAssertEqual(values[0].content, .scalar("x", .singleQuoted))
        XCTAssertEqual(values[1].content, .scalar("y", .doubleQuoted))
        XCTAssertTrue(values[2].isNull)
        XCTAssertTrue(values[3].isNull)
        XCTAssertEqual(values[4].content, .scalar("z\n", .literal))
        XCTAssertEqual(values[5].content, .scalar("plain", .plain))
        XCTAssertFalse(YAMLNode.scalar("~", style: .doubleQuoted, at: values[0].mark).isNull)
    }

    func testSyntaxErrorCarriesLibyamlProblemAndPosition() {
        XCTAssertThrowsError(try YAMLParser.parse("name: a\nlenses: [wide, main\n", file: "x.yaml")) { error in
            let diagnostics = (error as! RigError).diagnostics
            XCTAssertEqual(diagnostics.count, 1)
            XCTAssertEqual(diagnostics[0].mark, SourceMark(file: "x.yaml", line: 3, column: 1))
            XCTAssertEqual(diagnostics[0].message, "YAML syntax error: did not find expected ',' or ']' "
                           + "(while parsing a flow sequence at line 2, column 9)")
        }
        XCTAssertThrowsError(try YAMLParser.parse("a: b\nc d: [\n", file: "t.yaml")) { error in
            let d = (error as! RigError).diagnostics[0]
            XCTAssertTrue(d.message.hasPrefix("YAML syntax error: "), d.message)
        }
    }

    func testEmptyInputIsANullRoot() throws {
        XCTAssertTrue(try YAMLParser.parse("", file: "e.yaml").isNull)
        XCTAssertTrue(try YAMLParser.parse("# only a comment\n", file: "e.yaml").isNull)
    }

    func testSecondDocumentAndAliasesAreRefused() {
        XCTAssertThrowsError(try YAMLParser.parse("a: 1\n---\nb: 2\n", file: "m.yaml")) { error in
            XCTAssertEqual((error as! RigError).description,
                           "m.yaml:2:1: a rig file holds one YAML document; a second one starts here")
        }
        XCTAssertThrowsError(try YAMLParser.parse("a: &x 1\nb: *x\n", file: "m.yaml")) { error in
            XCTAssertEqual((error as! RigError).diagnostics.first?.mark.line, 2)
        }
    }

    func testDeepNestingIsRefusedNotRecursedInto() {
        let text = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        XCTAssertThrowsError(try YAMLParser.parse(text, file: "n.yaml")) { error in
            XCTAssertEqual((error as! RigError).description, "n.yaml:1:65: nested more than 64 levels deep")
        }
    }

    func testInvalidUTF8IsPositioned() {
        XCTAssertThrowsError(try YAMLParser.parse(bytes: Array("name: ok\nx: ".utf8) + [0xC3, 0x28], file: "u.yaml")) {
            let d = ($0 as! RigError).diagnostics[0]
            XCTAssertEqual(d.mark.line, 2)
            XCTAssertTrue(d.message.contains("UTF-8"), d.message)
        }
    }
}
