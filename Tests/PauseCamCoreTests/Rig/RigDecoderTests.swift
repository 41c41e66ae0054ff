import XCTest
@testable import PauseCamCore

/// `RigDecoder` on hand-built node trees: no libyaml involved, so these pin the decoder alone.
final class RigDecoderTests: XCTestCase {
    // A tiny tree builder: every node gets an explicit line and column.
    static func at(_ line: Int, _ column: Int) -> SourceMark { SourceMark(file: "t.yaml", line: line, column: column) }
    static func s(_ text: String, _ line: Int, _ column: Int, _ style: YAMLNode.ScalarStyle = .plain) -> YAMLNode {
        .scalar(text, style: style, at: at(line, column))
    }
    static func m(_ line: Int, _ column: Int, _ pairs: [(YAMLNode, YAMLNode)]) -> YAMLNode {
        YAMLNode(.mapping(pairs.map { YAMLNode.Pair(key: $0.0, value: $0.1) }), at: at(line, column))
    }
    static func q(_ line: Int, _ column: Int, _ items: [YAMLNode]) -> YAMLNode {
        YAMLNode(.sequence(items), at: at(line, column))
    }

    /// name: T / lenses: main: {zoom: 2, virtual: {color: "#102030"}} / plus extra top-level pairs.
    static func rig(extra: [(YAMLNode, YAMLNode)] = [], lensExtra: [(YAMLNode, YAMLNode)] = []) -> YAMLNode {
        m(1, 1, [
            (s("name", 1, 1), s("T", 1, 7)),
            (s("lenses", 2, 1), m(3, 3, [
                (s("main", 3, 3), m(4, 5, [
                    (s("zoom", 4, 5), s("2", 4, 11)),
                    (s("virtual", 5, 5), m(5, 14, [(s("color", 5, 15), s("#102030", 5, 22, .doubleQuoted))])),
                ] + lensExtra)),
            ])),
        ] + extra)
    }

    /// What decoding `root` reports, one line a diagnostic ("FILE:LINE:COLUMN: …"); none when it decodes.
    static func messages(of root: YAMLNode) -> [String] {
        do {
            _ = try RigDecoder.decode(root)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    func messages(_ root: YAMLNode) -> [String] { Self.messages(of: root) }

    /// The minimal rig with a top-level section `name` at line 9 whose keys stand at column 3 and values at
    /// `valueColumn`, one a line from line 10.
    static func rig(section name: String, _ pairs: [(String, String)], valueColumn: Int) -> YAMLNode {
        rig(extra: [(s(name, 9, 1), m(10, 3, pairs.enumerated().map { index, pair in
            (s(pair.0, 10 + index, 3), s(pair.1, 10 + index, valueColumn))
        }))])
    }

    func testMinimalRigGetsDefaults() throws {
        let rig = try RigDecoder.decode(Self.rig())
        XCTAssertEqual(rig.name, "T")
        XCTAssertEqual(rig.lenses, [Rig.Lens(name: "main", zoom: 2,
                                             source: .virtual(color: RGBColor(red: 0x10, green: 0x20, blue: 0x30)))])
        XCTAssertEqual(rig.defaultLens, "main")
        // No `preset:`: `auto`, so no machine drops frames for a preset it cannot hold.
        XCTAssertEqual(rig.output, Rig.OutputSettings(preset: "auto"))
        XCTAssertEqual(rig.audio, Rig.AudioInput())
        XCTAssertEqual(rig.standby, .hot)
        XCTAssertEqual(rig.onAttach, .switch)
    }

    func testRotateAndMirrorOrientTheLens() throws {
        let rig = try RigDecoder.decode(Self.rig(lensExtra: [(Self.s("rotate", 6, 5), Self.s("270", 6, 13)),
                                                             (Self.s("mirror", 7, 5), Self.s("true", 7, 13))]))
        XCTAssertEqual(rig.lenses[0].orientation, PictureOrientation(rotation: .threeQuarters, mirrored: true))
        XCTAssertEqual(try RigDecoder.decode(Self.rig()).lenses[0].orientation, .upright)
    }

    func testRotationOtherThanQuarterTurnsNamesTheAllowedValues() {
        XCTAssertEqual(messages(Self.rig(lensExtra: [(Self.s("rotate", 6, 5), Self.s("45", 6, 13)),
                                                     (Self.s("mirror", 7, 5), Self.s("yes", 7, 13))])), [
            "t.yaml:6:13: lenses.main.rotate: \"45\" is not a rotation; write one of 0, 90, 180, 270 (degrees clockwise)",
            "t.yaml:7:13: lenses.main.mirror: expected true or false, found \"yes\"",
        ])
    }

    func testDirectoryTextIsKeptUnexpanded() throws {
        let rig = try RigDecoder.decode(Self.rig(extra: [
            (Self.s("output", 6, 1), Self.m(7, 3, [(Self.s("directory", 7, 3), Self.s("$XDG_VIDEOS_DIR/x", 7, 14))])),
        ]))
        XCTAssertEqual(rig.output.directory, "$XDG_VIDEOS_DIR/x")
    }

    func testFrameRatesAreExact() throws {
        for (text, rate) in [("30", FrameRate(30)), ("29.97", FrameRate(30000, 1001)), ("25", FrameRate(25)),
                             ("60", FrameRate(60)), ("30000/1001", FrameRate(30000, 1001)),
                             ("23.976", FrameRate(24000, 1001)), ("59.94", FrameRate(60000, 1001)),
                             ("12.5", FrameRate(25, 2)), ("60/2", FrameRate(30))] {
            let rig = try RigDecoder.decode(Self.rig(lensExtra: [(Self.s("fps", 6, 5), Self.s(text, 6, 10))]))
            XCTAssertEqual(rig.lenses[0].rate, rate, text)
        }
    }

    func testAllErrorsOfAFileAreReportedAtOnceInFileOrder() {
        let root = Self.m(1, 1, [
            (Self.s("name", 1, 1), Self.s("", 1, 6)),
            (Self.s("lenses", 2, 1), Self.m(3, 3, [
                (Self.s("main", 3, 3), Self.m(4, 5, [
                    (Self.s("zoom", 4, 5), Self.s("x", 4, 11)),
                    (Self.s("match", 5, 5), Self.m(5, 12, [(Self.s("usb", 5, 13), Self.s("zz", 5, 18))])),
                ])),
            ])),
            (Self.s("standby", 6, 1), Self.s("warm", 6, 10)),
            (Self.s("scripts", 7, 1), Self.m(8, 3, [
                (Self.s("s", 8, 3), Self.q(9, 5, [Self.s("stop", 9, 7)])),
            ])),
            (Self.s("zoom_preset", 10, 1), Self.m(10, 14, [])),
        ])
        XCTAssertEqual(messages(root), [
            "t.yaml:1:6: name: expected a value, found nothing",
            "t.yaml:4:11: lenses.main.zoom: expected a zoom factor more than 0 and at most 100, found \"x\"",
            "t.yaml:5:18: lenses.main.match.usb: \"zz\" is not a USB id; write VENDOR:PRODUCT in hex, such as \"046d:085b\"",
            "t.yaml:6:10: standby: \"warm\" is not one of hot, cold, auto",
            "t.yaml:9:7: scripts.s step 1: stop before record",
            "t.yaml:10:1: unknown key \"zoom_preset\"; did you mean \"zoom_presets\"?",
        ])
    }

    func testDuplicateKeyPointsAtTheSecondAndNamesTheFirst() {
        let root = Self.rig(lensExtra: [(Self.s("zoom", 6, 5), Self.s("3", 6, 11))])
        XCTAssertEqual(messages(root), ["t.yaml:6:5: lenses.main: duplicate key \"zoom\" (first at line 4, column 5)"])
    }

    func testWrongTypesSayWhatWasFound() {
        let root = Self.rig(extra: [(Self.s("audio", 6, 1), Self.s("x", 6, 8))])
        XCTAssertEqual(messages(root), ["t.yaml:6:8: audio: expected a mapping (device: required: declick: …) or a list "
                                        + "of voices ({name: host, …}), found \"x\""])
        let output = Self.rig(extra: [(Self.s("output", 6, 1), Self.q(6, 9, [Self.s("x", 6, 10)]))])
        XCTAssertEqual(messages(output), ["t.yaml:6:9: output: expected a mapping (directory: name: container: …), found a list"])
    }

    func testScriptStepsBecomeCommandsOfTheShellGrammar() throws {
        let steps = Self.q(7, 5, [
            Self.m(7, 7, [(Self.s("record", 7, 7), Self.s("Intro", 7, 15))]),
            Self.s("wait 1.5s", 8, 7),
            Self.m(9, 7, [(Self.s("lens", 9, 7), Self.s("next", 9, 13))]),
            Self.m(10, 7, [(Self.s("zoom", 10, 7), Self.s("1.5x", 10, 13))]),
            Self.m(11, 7, [(Self.s("exposure", 11, 7), Self.s("-1", 11, 17))]),
            Self.m(12, 7, [(Self.s("focus", 12, 7), Self.s("40", 12, 14))]),
            Self.s("pause", 13, 7),
            Self.m(14, 7, [(Self.s("resume", 14, 7), Self.s("", 14, 14))]),
            Self.m(15, 7, [(Self.s("mark", 15, 7), Self.s("good: take", 15, 13, .doubleQuoted))]),
            Self.s("stop", 16, 7),
        ])
        let rig = try RigDecoder.decode(Self.rig(extra: [(Self.s("scripts", 5, 1), Self.m(6, 3, [(Self.s("a", 6, 3), steps)]))]))
        XCTAssertEqual(rig.scripts, [Rig.Script(name: "a", steps: [
            .record(name: "Intro"), .wait(.milliseconds(1500)), .lens(.next), .zoom(.factor(1.5)),
            .exposure(.bias(-1)), .focus(.manual(40)), .pause, .resume(name: nil), .mark("good: take"), .stop,
        ], stepMarks: (7...16).map { Self.at($0, 7) }, onError: .stop)])
        XCTAssertEqual(rig.scripts[0].scriptedTime, .milliseconds(1500))
    }

    func testExposurePresetSettings() throws {
        let presets = Self.m(7, 3, [
            (Self.s("bright", 7, 3), Self.m(7, 11, [(Self.s("bias", 7, 12), Self.s("+1.0", 7, 18))])),
            (Self.s("night", 8, 3), Self.m(8, 10, [(Self.s("mode", 8, 11), Self.s("manual", 8, 17)),
                                                   (Self.s("time", 8, 25), Self.s("1/30", 8, 31)),
                                                   (Self.s("gain", 8, 37), Self.s("8", 8, 43))])),
            (Self.s("plain", 9, 3), Self.m(9, 10, [(Self.s("mode", 9, 11), Self.s("auto", 9, 17))])),
        ])
        let rig = try RigDecoder.decode(Self.rig(extra: [(Self.s("exposure_presets", 6, 1), presets)]))
        XCTAssertEqual(rig.exposurePresets.map(\.setting), [
            .bias(1), .manual(time: MediaTime(value: 1, timescale: 30), gain: 8), .auto,
        ])
    }

    func testScriptStateRules() {
        var checker = ScriptStateChecker()
        XCTAssertEqual(checker.apply(.resume(name: nil)), "resume before record")
        XCTAssertNil(checker.apply(.lens(.next)))
        XCTAssertNil(checker.apply(.record(name: nil)))
        XCTAssertNil(checker.apply(.pause))
        XCTAssertNil(checker.apply(.mark("in the gap")))
        XCTAssertNil(checker.apply(.resume(name: "B")))
        XCTAssertNil(checker.apply(.stop))
        XCTAssertEqual(checker.apply(.status), "\"status\" after \"stop\"; a script ends at its stop")
        XCTAssertTrue(checker.hasRecorded)
    }

    func testSpellingSuggestions() {
        XCTAssertEqual(SpellingSuggestion.closest(to: "lense", in: RigDecoder.TopKey.names), "lenses")
        XCTAssertEqual(SpellingSuggestion.closest(to: "mian", in: ["wide", "main"]), "main")
        XCTAssertNil(SpellingSuggestion.closest(to: "xyz", in: ["wide", "main"]))
        XCTAssertEqual(SpellingSuggestion.distance(Array("ab"), Array("ba")), 1)
        XCTAssertEqual(SpellingSuggestion.distance(Array(""), Array("abc")), 3)
    }

    func testMaxDigitalZoomDefaultsToFourAndBoundsTheZoomPresets() throws {
        XCTAssertEqual(try RigDecoder.decode(Self.rig()).maxDigitalZoom, 4)
        let presets = Self.m(8, 3, [
            (Self.s("4x", 8, 3), Self.m(8, 9, [(Self.s("lens", 8, 9), Self.s("main", 8, 15)),
                                               (Self.s("digital", 8, 21), Self.s("4", 8, 30))])),
        ])
        XCTAssertEqual(try RigDecoder.decode(Self.rig(extra: [(Self.s("zoom_presets", 7, 1), presets)])).zoomPresets,
                       [Rig.ZoomPreset(name: "4x", lens: "main", digital: 4)])
        let limited = Self.rig(extra: [(Self.s("max_digital_zoom", 6, 1), Self.s("2.5", 6, 19)),
                                       (Self.s("zoom_presets", 7, 1), presets)])
        XCTAssertEqual(messages(limited), ["t.yaml:8:30: zoom_presets.4x.digital: digital zoom 4 is more than the rig's "
                                           + "max_digital_zoom (2.5); lower it, or raise max_digital_zoom (at most 10)"])
        let raised = Self.rig(extra: [(Self.s("max_digital_zoom", 6, 1), Self.s("10", 6, 19)),
                                      (Self.s("zoom_presets", 7, 1), presets)])
        XCTAssertEqual(try RigDecoder.decode(raised).maxDigitalZoom, 10)
        // A bad limit is reported once; the presets are not blamed for it.
        let bad = Self.rig(extra: [(Self.s("max_digital_zoom", 6, 1), Self.s("0.9", 6, 19)),
                                   (Self.s("zoom_presets", 7, 1), presets)])
        XCTAssertEqual(messages(bad), ["t.yaml:6:19: max_digital_zoom: expected a digital zoom limit from 1 to 10, "
                                       + "found \"0.9\""])
    }

    func testScriptAsAMappingHasOnErrorAndStepMarks() throws {
        let steps = Self.q(9, 7, [Self.s("record", 9, 9), Self.s("pause", 10, 9), Self.s("stop", 11, 9)])
        let script = Self.m(8, 5, [(Self.s("on_error", 8, 5), Self.s("continue", 8, 15)), (Self.s("steps", 9, 5), steps)])
        let plain = Self.q(13, 5, [Self.s("record", 13, 7), Self.s("stop", 14, 7)])
        let rig = try RigDecoder.decode(Self.rig(extra: [(Self.s("scripts", 6, 1), Self.m(7, 3, [
            (Self.s("lenient", 7, 3), script), (Self.s("strict", 12, 3), plain),
        ]))]))
        XCTAssertEqual(rig.scripts, [
            Rig.Script(name: "lenient", steps: [.record(name: nil), .pause, .stop],
                       stepMarks: [Self.at(9, 9), Self.at(10, 9), Self.at(11, 9)], onError: .continue),
            Rig.Script(name: "strict", steps: [.record(name: nil), .stop],
                       stepMarks: [Self.at(13, 7), Self.at(14, 7)], onError: .stop),
        ])
        let stop = Self.m(8, 5, [(Self.s("on_error", 8, 5), Self.s("stop", 8, 15)), (Self.s("steps", 9, 5), steps)])
        XCTAssertEqual(try RigDecoder.decode(Self.rig(extra: [(Self.s("scripts", 6, 1), Self.m(7, 3, [
            (Self.s("s", 7, 3), stop),
        ]))])).scripts.first?.onError, .stop)
    }

    func testUnknownDefaultLensListsTheLenses() {
        let root = Self.rig(extra: [(Self.s("default_lens", 6, 1), Self.s("wide", 6, 15))])
        XCTAssertEqual(messages(root), ["t.yaml:6:15: default_lens: unknown lens \"wide\" (expected one of: main)"])
    }

    func testStepLinesLoseTheSameBlanksAsBefore() {
        XCTAssertEqual(RigDecoder.trimmingBlanks("\t wait  2s \u{00A0}"), "wait  2s")
        XCTAssertEqual(RigDecoder.trimmingBlanks(" \t "), "")
        XCTAssertEqual(RigDecoder.trimmingBlanks("mark a\n"), "mark a\n")
        let steps = Self.q(7, 5, [Self.s("  record   Intro ", 7, 7), Self.s("\twait 1s\t", 8, 7), Self.s("stop", 9, 7)])
        let rig = try? RigDecoder.decode(Self.rig(extra: [(Self.s("scripts", 5, 1), Self.m(6, 3, [(Self.s("a", 6, 3), steps)]))]))
        XCTAssertEqual(rig?.scripts.first?.steps, [.record(name: "Intro"), .wait(.seconds(1)), .stop])
    }

    func testHoldLatencyAndExposurePriority() throws {
        let defaults = try RigDecoder.decode(Self.rig())
        XCTAssertEqual(defaults.hold, .seconds(2))
        XCTAssertEqual(defaults.lenses[0].latency, .zero)
        XCTAssertNil(defaults.lenses[0].controls.exposurePriority, "off unless the rig asks")

        let set = try RigDecoder.decode(Self.rig(extra: [(Self.s("hold", 9, 1), Self.s("500ms", 9, 7))],
                                                 lensExtra: [
                                                     (Self.s("latency", 6, 5), Self.s("40ms", 6, 14)),
                                                     (Self.s("controls", 7, 5), Self.m(7, 15, [
                                                         (Self.s("exposure_priority", 7, 16), Self.s("true", 7, 35)),
                                                     ])),
                                                 ]))
        XCTAssertEqual(set.hold, .milliseconds(500))
        XCTAssertEqual(set.lenses[0].latency, .milliseconds(40))
        XCTAssertEqual(set.lenses[0].controls.exposurePriority, true)

        XCTAssertEqual(messages(Self.rig(extra: [(Self.s("hold", 9, 1), Self.s("soon", 9, 7))])),
                       ["t.yaml:9:7: hold: \"soon\" is not a duration (try 2s, 400ms, 1/30)"])
        XCTAssertEqual(messages(Self.rig(lensExtra: [(Self.s("latency", 6, 5), Self.s("3s", 6, 14))])),
                       ["t.yaml:6:14: lenses.main.latency: duration 3s is out of range (0 or more, at most 1s)"])
        XCTAssertEqual(messages(Self.rig(lensExtra: [(Self.s("controls", 7, 5), Self.m(7, 15, [
            (Self.s("exposure_priority", 7, 16), Self.s("sometimes", 7, 35)),
        ]))])).count, 1)
    }

    /// `output: {iso: …}` with the rig's one lens `main`, written at line 8.
    static func isoRig(_ value: YAMLNode) -> YAMLNode {
        rig(extra: [(s("output", 8, 1), m(8, 9, [(s("iso", 8, 10), value)]))])
    }

    func testIsoTrueRecordsEveryLensAndAListTheLensesItNames() throws {
        XCTAssertEqual(try RigDecoder.decode(Self.isoRig(Self.s("true", 8, 15))).output.iso, ["main"])
        XCTAssertEqual(try RigDecoder.decode(Self.isoRig(Self.s("false", 8, 15))).output.iso, [])
        XCTAssertEqual(try RigDecoder.decode(Self.rig()).output.iso, [])
        let list = Self.q(8, 15, [Self.s("main", 8, 16), Self.s("main", 8, 22)])
        XCTAssertEqual(try RigDecoder.decode(Self.isoRig(list)).output.iso, ["main"])
    }

    func testIsoNamingAnUnknownLensIsReportedWhereItIsWritten() {
        let list = Self.q(8, 15, [Self.s("main", 8, 16), Self.s("mian", 8, 22)])
        XCTAssertEqual(messages(Self.isoRig(list)), ["t.yaml:8:22: output.iso: unknown lens \"mian\"; did you mean \"main\"?"])
        XCTAssertEqual(messages(Self.isoRig(Self.s("yes", 8, 15))),
                       ["t.yaml:8:15: output.iso: expected true, false or a list of lenses (main), found \"yes\""])
        XCTAssertEqual(messages(Self.isoRig(Self.m(8, 15, []))),
                       ["t.yaml:8:15: output.iso: expected true, false or a list of lenses (main), found a mapping"])
    }

    func testValueParsers() {
        XCTAssertNotNil(try? RigValueParser.size("1920x1080").get())
        XCTAssertNil(try? RigValueParser.size("1920x").get())
        XCTAssertNil(try? RigValueParser.size("99999999999x2").get())
        XCTAssertEqual(try? RigValueParser.bitrate("128k").get(), 128_000)
        XCTAssertEqual(try? RigValueParser.bitrate("96000").get(), 96_000)
        XCTAssertNil(RigValueParser.number("nan"))
        XCTAssertNil(RigValueParser.number("1e5"))
        XCTAssertEqual(RigValueParser.number("-0.5"), -0.5)
        XCTAssertNil(try? RigValueParser.color("#gg0000").get())
        XCTAssertNil(try? RigValueParser.frameRate("0").get())
        XCTAssertNil(try? RigValueParser.frameRate("-30").get())
    }
}
