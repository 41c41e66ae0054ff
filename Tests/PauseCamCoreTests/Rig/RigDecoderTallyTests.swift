import XCTest
@testable import PauseCamCore

/// `tally:` decoded from trees laid out as their YAML text is written (`FlowLine`), each message pinned to its line
/// and column.
final class RigDecoderTallyTests: XCTestCase {
    typealias T = RigDecoderTests

    /// The rig of `RigDecoderVoicesTests.rig` (lenses wide, main, tele on lines 3 to 5) with `tally: TALLY` written
    /// on line 6, the value at column 8.
    static func rig(tally: String) -> YAMLNode {
        var root = RigDecoderVoicesTests.rig()
        guard case .mapping(var pairs) = root.content else { preconditionFailure("the rig is a mapping") }
        pairs.append(YAMLNode.Pair(key: T.s("tally", 6, 1), value: FlowLine.value(tally, line: 6, column: 8)))
        root = YAMLNode(.mapping(pairs), at: root.mark)
        return root
    }

    func testGoodTallyTable() throws {
        let rows: [(String, String, TallySettings)] = [
            ("TSL to the default loopback port", "{tsl: {indices: {wide: 1, main: 2}}}",
             TallySettings(tsl: .init(indices: [.init(lens: "wide", index: 1), .init(lens: "main", index: 2)]))),
            ("TSL elsewhere, a screen", "{tsl: {send: \"10.0.0.9:40001\", screen: 3, indices: {tele: 65534}}}",
             TallySettings(tsl: .init(destination: MonitorListenAddress(host: "10.0.0.9", port: 40001), screen: 3,
                                      indices: [.init(lens: "tele", index: 65534)]))),
            ("GPIO", "{gpio: {chip: gpiochip0, lines: {main: 17, wide: 0}}}",
             TallySettings(gpio: .init(chip: "gpiochip0", lines: [.init(lens: "main", offset: 17),
                                                                    .init(lens: "wide", offset: 0)]))),
            ("both, a chip by path", "{tsl: {indices: {main: 0}}, gpio: {chip: /dev/gpiochip1, lines: {main: 4}}}",
             TallySettings(tsl: .init(indices: [.init(lens: "main", index: 0)]),
                           gpio: .init(chip: "/dev/gpiochip1", lines: [.init(lens: "main", offset: 4)]))),
        ]
        for (label, text, expected) in rows {
            XCTAssertEqual(try RigDecoder.decode(Self.rig(tally: text)).tally, expected, label)
        }
        XCTAssertEqual(TallySettings.TSL.defaultDestination.description, "127.0.0.1:8900")
        XCTAssertNil(try RigDecoder.decode(RigDecoderVoicesTests.rig()).tally)
    }

    func testBadTallyTable() {
        let rows: [(String, [String])] = [
            ("{}", ["t.yaml:6:8: tally: expected tsl: or gpio: (or both)"]),
            ("{tsl: {indices: {side: 1}}}",
             ["t.yaml:6:25: tally.tsl.indices: unknown lens \"side\"; did you mean \"wide\"?"]),
            ("{tsl: {indices: {main: 65535}}}",
             ["t.yaml:6:31: tally.tsl.indices.main: expected a TSL display index from 0 to 65534, found \"65535\""]),
            ("{tsl: {indices: {main: -1}}}",
             ["t.yaml:6:31: tally.tsl.indices.main: expected a TSL display index from 0 to 65534, found \"-1\""]),
            ("{tsl: {send: \"example.com:8900\", indices: {main: 1}}}",
             ["t.yaml:6:21: tally.tsl.send: \"example.com:8900\" is not an IPv4 address and a port from 1 to 65535, "
              + "such as 127.0.0.1:8900"]),
            ("{tsl: {send: \"127.0.0.1:0\", indices: {main: 1}}}",
             ["t.yaml:6:21: tally.tsl.send: \"127.0.0.1:0\" is not an IPv4 address and a port from 1 to 65535, "
              + "such as 127.0.0.1:8900"]),
            ("{tsl: {indices: {}}}", ["t.yaml:6:24: tally.tsl.indices: expected at least one lens"]),
            ("{tsl: {send: \"127.0.0.1:9\"}}", ["t.yaml:6:14: tally.tsl: missing required key \"indices\""]),
            ("{gpio: {chip: gpiochip0, lines: {main: 17, wide: 17}}}",
             ["t.yaml:6:51: tally.gpio.lines.wide: line 17 is already main's; each lens needs a line of its own"]),
            ("{gpio: {chip: gpiochip0, lines: {main: 5000}}}",
             ["t.yaml:6:47: tally.gpio.lines.main: expected a line offset from 0 to 1023, found \"5000\""]),
            ("{gpio: {chip: ../../etc/x, lines: {main: 1}}}",
             ["t.yaml:6:22: tally.gpio.chip: \"../../etc/x\" is not a GPIO chip's name (gpiochip0) or device "
              + "(/dev/gpiochip0)"]),
            ("{gpio: {lines: {main: 1}}}", ["t.yaml:6:15: tally.gpio: missing required key \"chip\""]),
            ("{lamp: {}}", ["t.yaml:6:8: tally: expected tsl: or gpio: (or both)",
                            "t.yaml:6:9: tally: unknown key \"lamp\" (expected one of: tsl, gpio)"]),
        ]
        for (text, expected) in rows {
            XCTAssertEqual(T.messages(of: Self.rig(tally: text)), expected, text)
        }
    }
}
