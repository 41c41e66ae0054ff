import Foundation
@testable import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// Each rig section declares its keys once (`RigDecoder.OutputKey` …). These tests hold the enums and the decoder
/// to each other through real YAML: every case of every enum is accepted and actually read (a wrong value under it
/// is reported on its line, never as an unknown key), and a key outside the enum is rejected with the nearest case
/// suggested.
final class RigSectionKeysTests: XCTestCase {
    /// The marker value: wrong for every key (a list holding a list), so a key that is read reports it.
    static let wrong = "[[1]]"

    /// A valid rig with one section's lines replaced. Each parameter is that section's body, already indented.
    static func rig(top: [String: String] = [:], extraTop: String = "",
                    output: String = "  directory: /tmp", audio: String = "  device: none",
                    probe: String = "    zoom: 2\n    match: {serial: P}",
                    zoomPreset: String = "  z:\n    lens: main\n    ramp: 0s",
                    exposurePreset: String = "  e: {bias: 1}",
                    script: String = "  s:\n    steps: [record]") -> String {
        let sections: [(String, String)] = [
            ("name", " T"),
            ("output", "\n" + output),
            ("audio", "\n" + audio),
            ("lenses", "\n  main:\n    zoom: 1\n    virtual: {color: \"#102030\"}\n  probe:\n" + probe),
            ("zoom_presets", "\n" + zoomPreset),
            ("exposure_presets", "\n" + exposurePreset),
            ("scripts", "\n" + script),
        ]
        return sections.map { key, body in "\(key):" + (top[key] ?? body) }.joined(separator: "\n")
            + "\n" + extraTop
    }

    /// Decodes `text` and checks that `[[1]]` was reported on its own line and that no key was unknown.
    func assertReadAndKnown(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let index = lines.firstIndex(where: { $0.contains(Self.wrong) }) else {
            return XCTFail("\(what): no marker in the rig", file: file, line: line)
        }
        let diagnostics: [RigDiagnostic]
        do {
            _ = try RigLoader.load(text: text, file: "keys.yaml")
            return XCTFail("\(what): a wrong value was accepted (the key is never read)\n\(text)",
                           file: file, line: line)
        } catch {
            diagnostics = error.diagnostics
        }
        XCTAssertFalse(diagnostics.contains { $0.message.contains("unknown key") },
                       "\(what): \(diagnostics)", file: file, line: line)
        XCTAssertTrue(diagnostics.contains { $0.mark.line == index + 1 },
                      "\(what): nothing reported on line \(index + 1): \(diagnostics)\n\(text)", file: file, line: line)
    }

    func testTheBaseRigIsValid() throws {
        XCTAssertEqual(try RigLoader.load(text: Self.rig(), file: "keys.yaml").name, "T")
    }

    func testEveryTopKeyIsRead() {
        for key in RigDecoder.TopKey.names {
            let text = ["name", "output", "audio", "lenses", "zoom_presets", "exposure_presets", "scripts"]
                .contains(key) ? Self.rig(top: [key: " " + Self.wrong]) : Self.rig(extraTop: "\(key): \(Self.wrong)")
            assertReadAndKnown(text, "top-level \(key)")
        }
    }

    func testEveryTimecodeKeyIsRead() {
        for key in RigDecoder.TimecodeKey.names {
            assertReadAndKnown(Self.rig(extraTop: "timecode:\n  \(key): \(Self.wrong)"), "timecode.\(key)")
        }
    }

    func testEveryOutputKeyIsRead() {
        for key in RigDecoder.OutputKey.names {
            assertReadAndKnown(Self.rig(output: "  \(key): \(Self.wrong)"), "output.\(key)")
        }
        for key in RigDecoder.VideoKey.names {
            assertReadAndKnown(Self.rig(output: "  video: {\(key): \(Self.wrong)}"), "output.video.\(key)")
        }
        for key in RigDecoder.OutputAudioKey.names {
            assertReadAndKnown(Self.rig(output: "  audio: {\(key): \(Self.wrong)}"), "output.audio.\(key)")
        }
    }

    func testEveryAudioKeyIsRead() {
        for key in RigDecoder.AudioKey.names {
            assertReadAndKnown(Self.rig(audio: "  \(key): \(Self.wrong)"), "audio.\(key)")
        }
    }

    func testEveryVoiceKeyIsRead() {
        for key in RigDecoder.VoiceKey.allCases {
            let body: String
            switch key {
            case .name: body = "  - {name: \(Self.wrong), device: virtual}"
            case .match, .lens, .device: body = "  - {name: v, \(key.rawValue): \(Self.wrong)}"
            default: body = "  - {name: v, device: virtual, \(key.rawValue): \(Self.wrong)}"
            }
            assertReadAndKnown(Self.rig(audio: body), "audio voice \(key.rawValue)")
        }
    }

    func testEveryFollowKeyIsRead() {
        for key in RigDecoder.FollowKey.allCases {
            let lines = ["v: main", "both: main"].filter { !$0.hasPrefix("\(key.rawValue):") }
                + ["\(key.rawValue): \(Self.wrong)"]
            let follow = "follow:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
            assertReadAndKnown(Self.rig(extraTop: follow, audio: "  - {name: v, device: virtual}"), "follow.\(key.rawValue)")
        }
    }

    func testEveryLensKeyIsRead() {
        for key in RigDecoder.LensKey.allCases {
            let body: String
            switch key {
            case .zoom: body = "    match: {serial: P}\n    zoom: \(Self.wrong)"
            case .match, .virtual, .file: body = "    zoom: 1\n    \(key.rawValue): \(Self.wrong)"
            case .loop: body = "    zoom: 1\n    file: a.mov\n    loop: \(Self.wrong)"
            default: body = "    zoom: 1\n    match: {serial: P}\n    \(key.rawValue): \(Self.wrong)"
            }
            assertReadAndKnown(Self.rig(probe: body), "lenses.probe.\(key.rawValue)")
        }
        for key in RigDecoder.MatchKey.names {
            assertReadAndKnown(Self.rig(probe: "    zoom: 1\n    match: {\(key): \(Self.wrong)}"), "match.\(key)")
        }
        for key in RigDecoder.ControlKey.names {
            let body = "    zoom: 1\n    match: {serial: P}\n    controls: {\(key): \(Self.wrong)}"
            assertReadAndKnown(Self.rig(probe: body), "controls.\(key)")
        }
        for key in RigDecoder.VirtualKey.names {
            assertReadAndKnown(Self.rig(probe: "    zoom: 1\n    virtual: {\(key): \(Self.wrong)}"), "virtual.\(key)")
        }
    }

    func testEveryPresetKeyIsRead() {
        for key in RigDecoder.ZoomPresetKey.allCases {
            let body = key == .lens ? "  z:\n    lens: \(Self.wrong)"
                                    : "  z:\n    lens: main\n    \(key.rawValue): \(Self.wrong)"
            assertReadAndKnown(Self.rig(zoomPreset: body), "zoom_presets.z.\(key.rawValue)")
        }
        for key in RigDecoder.ExposurePresetKey.names {
            assertReadAndKnown(Self.rig(exposurePreset: "  e: {\(key): \(Self.wrong)}"), "exposure_presets.e.\(key)")
        }
    }

    func testEveryScriptKeyIsRead() {
        for key in RigDecoder.ScriptKey.allCases {
            let body = key == .steps ? "  s:\n    steps: \(Self.wrong)"
                                     : "  s:\n    steps: [record]\n    \(key.rawValue): \(Self.wrong)"
            assertReadAndKnown(Self.rig(script: body), "scripts.s.\(key.rawValue)")
        }
    }

    /// A key outside a section's enum is an unknown key, on its line, with the nearest case suggested.
    func testAMisspeltKeyOfEverySectionIsRejectedWithASuggestion() {
        let cases: [(String, String, String)] = [
            (Self.rig(extraTop: "lense: 1"), "lense", "lenses"),
            (Self.rig(output: "  directroy: /tmp"), "directroy", "directory"),
            (Self.rig(output: "  video: {presett: fast}"), "presett", "preset"),
            (Self.rig(output: "  audio: {bitrat: 128k}"), "bitrat", "bitrate"),
            (Self.rig(audio: "  requird: true"), "requird", "required"),
            (Self.rig(audio: "  - {name: v, device: virtual, tnoe: 440}"), "tnoe", "tone"),
            (Self.rig(probe: "    zoom: 1\n    match: {serial: P}\n    latncy: 0s"), "latncy", "latency"),
            (Self.rig(probe: "    zoom: 1\n    match: {serail: P}"), "serail", "serial"),
            (Self.rig(probe: "    zoom: 1\n    match: {serial: P}\n    controls: {focuss: auto}"), "focuss", "focus"),
            (Self.rig(probe: "    zoom: 1\n    virtual: {colour: \"#000000\"}"), "colour", "color"),
            (Self.rig(zoomPreset: "  z:\n    lens: main\n    digtal: 2"), "digtal", "digital"),
            (Self.rig(exposurePreset: "  e: {mode: manual, time: 1/30, gian: 2}"), "gian", "gain"),
            (Self.rig(script: "  s:\n    steps: [record]\n    on_eror: stop"), "on_eror", "on_error"),
        ]
        for (text, key, suggested) in cases {
            do {
                _ = try RigLoader.load(text: text, file: "keys.yaml")
                XCTFail("\(key) was accepted")
            } catch {
                let line = text.split(separator: "\n", omittingEmptySubsequences: false)
                    .firstIndex { $0.contains("\(key):") }.map { $0 + 1 }
                let expected = "unknown key \"\(key)\"; did you mean \"\(suggested)\"?"
                XCTAssertTrue(error.diagnostics.contains { $0.message.hasSuffix(expected) && $0.mark.line == line },
                              "\(key): \(error.diagnostics)")
            }
        }
    }
}

/// An exposure preset with only `gain` is a manual setting missing its time, not automatic exposure with the gain
/// dropped (the key-coverage test above found the gain silently ignored).
final class RigExposureGainTests: XCTestCase {
    func testALoneGainNeedsATime() {
        let text = RigSectionKeysTests.rig(exposurePreset: "  e: {gain: 8}")
        XCTAssertThrowsError(try RigLoader.load(text: text, file: "keys.yaml")) { error in
            XCTAssertEqual((error as? RigError)?.diagnostics.map(\.message),
                           ["exposure_presets.e: manual exposure needs \"time\" (such as 1/30)"])
        }
    }
}
