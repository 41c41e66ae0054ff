import XCTest
@testable import PauseCamCore

/// `audio:` as a list of voices and `follow:`, decoded from trees laid out exactly as their YAML text is written
/// (`FlowLine`), so each row reads as the rig file it stands for and every message is pinned to its line and column.
final class RigDecoderVoicesTests: XCTestCase {
    typealias T = RigDecoderTests

    /// The rig the rows complete, one YAML line each (line 1 first):
    ///
    ///     name: T
    ///     lenses:
    ///       wide: {zoom: 0.5, virtual: {color: "#d03030"}}
    ///       main: {zoom: 1, virtual: {color: "#20c040"}}
    ///       tele: {zoom: 3, virtual: {color: "#3050e0"}}
    ///     audio: AUDIO            ← `audio` (flow), or `audio:` alone with the voices below it
    ///       - VOICE               ← lines 7…, one voice each, `{` at column 5
    ///     follow:                 ← when `follow` is given
    ///       KEY: VALUE            ← one a line, the key at column 3
    static func rig(voices: [String] = [], audio: String? = nil, follow: [String]? = nil) -> YAMLNode {
        var top: [(YAMLNode, YAMLNode)] = [(T.s("name", 1, 1), T.s("T", 1, 7))]
        let lenses = ["wide: {zoom: 0.5, virtual: {color: \"#d03030\"}}", "main: {zoom: 1, virtual: {color: \"#20c040\"}}",
                      "tele: {zoom: 3, virtual: {color: \"#3050e0\"}}"]
        top.append((T.s("lenses", 2, 1), YAMLNode(.mapping(lenses.enumerated().map {
            FlowLine.pair($0.element, line: 3 + $0.offset, column: 3)
        }), at: T.at(3, 3))))
        var line = 7
        if let audio {
            top.append((T.s("audio", 6, 1), FlowLine.value(audio, line: 6, column: 8)))
        } else if !voices.isEmpty {
            let items = voices.enumerated().map { FlowLine.value($0.element, line: 7 + $0.offset, column: 5) }
            top.append((T.s("audio", 6, 1), T.q(7, 3, items)))
            line += voices.count
        }
        if let follow {
            let pairs = follow.enumerated().map { FlowLine.pair($0.element, line: line + 1 + $0.offset, column: 3) }
            top.append((T.s("follow", line, 1), YAMLNode(.mapping(pairs), at: T.at(line + 1, 3))))
        }
        return T.m(1, 1, top)
    }

    static let interviewUSB = ["{name: host, match: {usb: \"1234:5678\"}, channel: 1}",
                               "{name: guest, match: {usb: \"1234:5678\"}, channel: 2, gain: +3dB, pan: 0.5, mute: true}"]
    static let twoVirtual = ["{name: host, device: virtual}", "{name: guest, device: virtual}"]

    // MARK: Good rigs

    func testGoodVoicesTable() throws {
        let usb = Rig.Voice.Source.matched(.usb("1234:5678"))
        let rows: [(String, YAMLNode, Rig.AudioInput)] = [
            ("two channels of one USB interface", Self.rig(voices: Self.interviewUSB), audio([
                Rig.Voice(name: "host", source: usb, channel: 1, mark: T.at(7, 5)),
                Rig.Voice(name: "guest", source: usb, channel: 2, gainDecibels: 3, pan: 0.5, mute: true, mark: T.at(8, 5)),
            ])),
            ("a lens's microphone and an ALSA name", Self.rig(voices: ["{name: host, lens: tele}",
                                                                      "{name: guest-2, device: \"hw:2,0\", pan: -1}"]), audio([
                Rig.Voice(name: "host", source: .ofLens("tele"), mark: T.at(7, 5)),
                Rig.Voice(name: "guest-2", source: .alsa("hw:2,0"), pan: -1, mark: T.at(8, 5)),
            ])),
            ("every test key of a virtual voice",
             Self.rig(voices: ["{name: host, device: virtual, channel: 1, tone: 440 Hz, drift_ppm: -250, level: 0.5, "
                               + "speech: [\"0s-4s\", \"9s-11.5s\", 11.5s-12s]}"]),
             audio([Rig.Voice(name: "host", source: .virtual, channel: 1,
                              virtual: Rig.VirtualVoice(frequency: 440, driftPPM: -250, level: 0.5, speech: [
                                  MediaTime.zero..<MediaTime.seconds(4),
                                  MediaTime.seconds(9)..<MediaTime.milliseconds(11_500),
                                  MediaTime.milliseconds(11_500)..<MediaTime.seconds(12)]), mark: T.at(7, 5))])),
            ("one voice is still the voices form", Self.rig(voices: ["{name: solo, device: virtual}"]),
             audio([Rig.Voice(name: "solo", source: .virtual, mark: T.at(7, 5))])),
            ("two virtual voices are two cards", Self.rig(voices: Self.twoVirtual), audio([
                Rig.Voice(name: "host", source: .virtual, mark: T.at(7, 5)),
                Rig.Voice(name: "guest", source: .virtual, mark: T.at(8, 5)),
            ])),
            ("the mapping form with declick and required",
             Self.rig(audio: "{voices: [{name: a, device: virtual}], declick: off, required: true}"),
             audio([Rig.Voice(name: "a", source: .virtual, mark: T.at(6, 18))], required: true, declick: false)),
        ]
        for (what, root, expected) in rows {
            XCTAssertEqual(T.messages(of: root), [], what)
            let decoded = try RigDecoder.decode(root)
            XCTAssertEqual(decoded.audio, expected, what)
            XCTAssertEqual(decoded.audio.device, .none, what)
            XCTAssertNil(decoded.follow, what)
        }
    }

    private func audio(_ voices: [Rig.Voice], required: Bool = false, declick: Bool = true) -> Rig.AudioInput {
        var input = Rig.AudioInput(device: .none, required: required)
        input.options.declick = declick
        input.voices = voices
        return input
    }

    func testGoodFollowTable() throws {
        let rows: [(String, [String], Rig.Follow)] = [
            ("defaults", ["host: tele", "guest: main", "both: wide"],
             Rig.Follow(lenses: [("host", "tele"), ("guest", "main")], both: "wide")),
            ("every option, file order kept", ["guest: main", "both: wide", "nobody: main", "host: tele", "min_shot: 3s",
                                               "hold: 0s", "manual_hold: 20s", "threshold: -50", "start: off"],
             Rig.Follow(lenses: [("guest", "main"), ("host", "tele")], both: "wide", nobody: "main",
                        minimumShot: .seconds(3), hold: .zero, manualHold: .seconds(20), thresholdDBFS: -50,
                        startsOn: false)),
            ("one voice followed, a threshold in dB", ["host: tele", "both: wide", "threshold: -35.5dB", "start: on"],
             Rig.Follow(lenses: [("host", "tele")], both: "wide", thresholdDBFS: -35.5)),
        ]
        for (what, follow, expected) in rows {
            let root = Self.rig(voices: Self.twoVirtual, follow: follow)
            XCTAssertEqual(T.messages(of: root), [], what)
            let decoded = try RigDecoder.decode(root).follow
            XCTAssertEqual(decoded, expected, what)
            XCTAssertEqual(decoded?.lenses.map(\.voice), expected.lenses.map(\.voice), what)
        }
        let defaults = try XCTUnwrap(RigDecoder.decode(Self.rig(voices: Self.twoVirtual, follow: rows[0].1)).follow)
        XCTAssertEqual(defaults.nobody, "wide")
        XCTAssertEqual([defaults.minimumShot, defaults.hold, defaults.manualHold], [.seconds(2), .seconds(1), .seconds(10)])
        XCTAssertEqual(defaults.thresholdDBFS, -40)
        XCTAssertTrue(defaults.startsOn)
    }

    // MARK: Bad rigs

    func testBadVoicesTable() {
        let nine = (1...9).map { "{name: v\($0), device: virtual}" }
        let rows: [(YAMLNode, [String])] = [
            (Self.rig(voices: ["{name: host, device: virtual}", "{name: host, device: virtual}"]),
             ["t.yaml:8:12: audio.host.name: the name \"host\" is taken by the voice at line 7, column 12; give each "
              + "voice its own name"]),
            (Self.rig(voices: ["{name: both, device: virtual}"]),
             ["t.yaml:7:12: audio voice 1.name: \"both\" cannot be a voice name: follow: uses \"both\" and \"nobody\" "
              + "for several voices and none"]),
            (Self.rig(voices: ["{name: \"my host\", device: virtual}"]),
             ["t.yaml:7:12: audio voice 1.name: \"my host\" cannot be a voice name: use letters, digits, - and _ (at "
              + "most 32); it is a word of `voice NAME mute` and the title of its track"]),
            (Self.rig(voices: ["{device: virtual}"]), ["t.yaml:7:5: audio voice 1: missing required key \"name\""]),
            (Self.rig(voices: ["{name: host, match: {usb: \"1234:5678\"}, channel: 2}",
                               "{name: guest, match: {usb: \"1234:5678\"}, channel: 2}"]),
             ["t.yaml:8:55: audio.guest: the same card and channel as voice \"host\" (usb \"1234:5678\", channel 2); "
              + "give each voice its own channel:"]),
            (Self.rig(voices: ["{name: a, device: \"hw:1,0\"}", "{name: b, device: \"hw:1,0\"}"]),
             ["t.yaml:8:23: audio.b: the same card and channel as voice \"a\" (device \"hw:1,0\", channel 1); give each "
              + "voice its own channel:"]),
            (Self.rig(voices: ["{name: host, device: virtual, channel: 2}"]),
             ["t.yaml:7:44: audio.host.channel: a virtual microphone has one channel; leave channel: out"]),
            (Self.rig(voices: ["{name: host, lens: tele, channel: 33}"]),
             ["t.yaml:7:39: audio.host.channel: expected a channel from 1 to 32, found \"33\""]),
            (Self.rig(voices: ["{name: host, device: virtual, tonne: 440}"]),
             ["t.yaml:7:35: audio.host: unknown key \"tonne\"; did you mean \"tone\"?"]),
            (Self.rig(audio: "[]"),
             ["t.yaml:6:8: audio: the list of voices is empty: give at least one voice (name: and match:, lens: or "
              + "device:), or device: none for video only"]),
            (Self.rig(voices: nine),
             ["t.yaml:15:5: audio: 9 voices, more than 8: each voice is an AAC track of its own, and players and "
              + "editors list every track; mix the others into one voice on a mixer"]),
            (Self.rig(voices: ["{name: host}"]),
             ["t.yaml:7:5: audio.host: needs \"match\" (a sound card udev finds), \"lens\" (the microphone of that "
              + "lens's camera) or \"device\" (an ALSA name, or virtual)"]),
            (Self.rig(voices: ["{name: host, device: virtual, lens: tele}"]),
             ["t.yaml:7:35: audio.host: has both \"device\" and \"lens\"; give one way to find the voice's microphone"]),
            (Self.rig(voices: ["{name: host, lens: tell}"]),
             ["t.yaml:7:24: audio.host.lens: unknown lens \"tell\"; did you mean \"tele\"?"]),
            (Self.rig(voices: ["{name: host, device: none}"]),
             ["t.yaml:7:26: audio.host.device: a voice needs a microphone; leave the voice out instead"]),
            (Self.rig(voices: ["{name: host, lens: tele, tone: 440}"]),
             ["t.yaml:7:30: audio.host: \"tone\" applies to the virtual microphone only (device: virtual)"]),
            (Self.rig(voices: ["{name: host, device: virtual, speech: [\"0s-4s\", \"3s-5s\"]}"]),
             ["t.yaml:7:53: audio.host.speech: the span \"3s-5s\" starts before the one before it ends (4s); write the "
              + "spans in order, apart"]),
            (Self.rig(voices: ["{name: host, device: virtual, speech: [soon, 5s-4s]}"]),
             ["t.yaml:7:44: audio.host.speech: \"soon\" is not a span; write START-END such as \"9s-11.5s\"",
              "t.yaml:7:50: audio.host.speech: the span \"5s-4s\" must end after it starts, and by 86400s"]),
            (Self.rig(voices: ["{name: host, device: virtual, pan: 2}"]),
             ["t.yaml:7:40: audio.host.pan: expected a pan from -1 (left) to 1 (right), 0 the centre, found \"2\""]),
            (Self.rig(voices: ["{name: host, device: virtual, gain: +50dB}"]),
             ["t.yaml:7:41: audio.host.gain: expected a gain from -40dB to +40dB such as +6dB, found \"+50dB\""]),
            (Self.rig(voices: ["{name: host, device: virtual, mute: yes}"]),
             ["t.yaml:7:41: audio.host.mute: expected true or false, found \"yes\""]),
            (Self.rig(audio: "{voices: [{name: a, device: virtual}], device: virtual}"),
             ["t.yaml:6:47: audio: \"device\" does not go beside \"voices\": give each voice its own"]),
            (Self.rig(audio: "[host]"),
             ["t.yaml:6:9: audio voice 1: expected a voice, a mapping (name: match: lens: …), found \"host\""]),
            (Self.rig(audio: "{voices: host}"),
             ["t.yaml:6:17: audio.voices: expected a list of voices ({name: host, match: …}), found \"host\""]),
        ]
        for (root, expected) in rows {
            XCTAssertEqual(T.messages(of: root), expected)
        }
    }

    func testBadFollowTable() {
        // The voices host and guest stand at lines 7 and 8, `follow:` at line 9, its keys from line 10.
        let rows: [([String], [String])] = [
            (["hots: tele", "both: wide"],
             ["t.yaml:10:3: follow: \"hots\" is neither a voice nor an option of follow; did you mean \"host\"?"]),
            (["host: tele", "both: wide", "treshold: -40"],
             ["t.yaml:12:3: follow: \"treshold\" is neither a voice nor an option of follow; did you mean \"threshold\"?"]),
            (["host: tele", "xyz: main", "both: wide"],
             ["t.yaml:11:3: follow: \"xyz\" is neither a voice nor an option of follow (voices: host, guest; options: "
              + "both, nobody, min_shot, hold, manual_hold, threshold, start)"]),
            (["host: tell", "both: wide"], ["t.yaml:10:9: follow.host: unknown lens \"tell\"; did you mean \"tele\"?"]),
            (["host: tele", "both: wide", "nobody: wid"],
             ["t.yaml:12:11: follow.nobody: unknown lens \"wid\"; did you mean \"wide\"?"]),
            (["both: wide"], ["t.yaml:10:3: follow: maps no voice to a lens; write VOICE: LENS for each voice to follow "
                              + "(host: wide)"]),
            (["host: tele"], ["t.yaml:10:3: follow: missing required key \"both\" (the lens when several voices speak "
                              + "at once)"]),
            (["host: tele", "both: wide", "threshold: -100dB"],
             ["t.yaml:12:14: follow.threshold: expected a level in dBFS from -90dB to 0dB such as -40dB, found \"-100dB\""]),
            (["host: tele", "both: wide", "threshold: loud"],
             ["t.yaml:12:14: follow.threshold: expected a level in dBFS from -90dB to 0dB such as -40dB, found \"loud\""]),
            (["host: tele", "both: wide", "min_shot: 2m"],
             ["t.yaml:12:13: follow.min_shot: duration 2m is out of range (0 or more, at most 60s)"]),
            (["host: tele", "both: wide", "manual_hold: never"],
             ["t.yaml:12:16: follow.manual_hold: \"never\" is not a duration (try 2s, 400ms, 1/30)"]),
            (["host: tele", "both: wide", "start: maybe"], ["t.yaml:12:10: follow.start: expected on or off, found \"maybe\""]),
            (["host: tele", "both: wide", "host: main"],
             ["t.yaml:12:3: follow: duplicate key \"host\" (first at line 10, column 3)"]),
        ]
        for (follow, expected) in rows {
            XCTAssertEqual(T.messages(of: Self.rig(voices: Self.twoVirtual, follow: follow)), expected,
                           follow.joined(separator: "; "))
        }
    }

    func testFollowNeedsAListOfVoices() {
        let expected = ["t.yaml:7:1: follow: follows who speaks, so it needs audio: as a list of voices ({name: host, "
                        + "…}), one track each"]
        XCTAssertEqual(T.messages(of: Self.rig(follow: ["host: tele", "both: wide"])), expected)
        XCTAssertEqual(T.messages(of: Self.rig(audio: "{device: virtual}", follow: ["host: tele", "both: wide"])), expected)
    }

    /// A voice with an error still counts as declared: `follow:` does not repeat its error as "not a voice".
    func testAVoiceInErrorIsStillAVoiceOfFollow() {
        XCTAssertEqual(T.messages(of: Self.rig(voices: ["{name: host, device: virtual, pan: 9}", "{name: guest, lens: tele}"],
                                               follow: ["host: tele", "both: wide"])),
                       ["t.yaml:7:40: audio.host.pan: expected a pan from -1 (left) to 1 (right), 0 the centre, found \"9\""])
    }

    func testTheSummaryListsTheVoicesAndFollow() throws {
        let rig = try RigDecoder.decode(Self.rig(voices: Self.interviewUSB + ["{name: room, device: virtual, tone: 880, "
                                                                              + "speech: [0s-4s, 9s-11.5s]}"],
                                                 follow: ["host: tele", "guest: main", "both: wide", "start: off"]))
        let summary = RigSummary.text(of: rig, file: "t.yaml")
        XCTAssertTrue(summary.contains("""
              audio: 3 voices, each on its own track beside the stereo mix (optional)
                host   usb "1234:5678", channel 1
                guest  usb "1234:5678", channel 2, gain +3dB, pan +0.5, muted
                room   virtual, tone 880 Hz, speech 0s-4s 9s-11.5s
              follow (off at start): host → tele, guest → main, both → wide, nobody → wide
                      min shot 2s, hold 1s, manual hold 10s, threshold -40 dBFS

            """), summary)
        XCTAssertFalse(summary.contains("audio: none"), summary)
    }
}

/// A rig line in YAML's flow style (`{name: host, speech: ["0s-4s"]}`, `wide: {zoom: 1}`) read into nodes marked
/// where libyaml marks them: a mapping or a list at its bracket, a scalar at its first character (a quoted one at
/// its quote). Plain scalars end at `,`, `]`, `}` or `: `; double-quoted ones have no escapes.
enum FlowLine {
    /// The value written at `line`, starting at `column`.
    static func value(_ text: String, line: Int, column: Int) -> YAMLNode {
        var reader = Reader(characters: Array(text), index: 0, line: line, column: column)
        return reader.value()
    }

    /// `key: value` written at `line`, the key at `column`.
    static func pair(_ text: String, line: Int, column: Int) -> YAMLNode.Pair {
        var reader = Reader(characters: Array(text), index: 0, line: line, column: column)
        let key = reader.scalar()
        reader.expect(":")
        return YAMLNode.Pair(key: key, value: reader.value())
    }

    private struct Reader {
        var characters: [Character]
        var index: Int
        let line: Int
        let column: Int

        var mark: SourceMark { SourceMark(file: "t.yaml", line: line, column: column + index) }
        var current: Character? { index < characters.count ? characters[index] : nil }

        mutating func skipSpaces() { while current == " " { index += 1 } }

        mutating func expect(_ c: Character) {
            skipSpaces()
            precondition(current == c, "expected \(c) at \(index) of \(String(characters))")
            index += 1
        }

        mutating func value() -> YAMLNode {
            skipSpaces()
            let start = mark
            switch current {
            case "{":
                index += 1
                var pairs: [YAMLNode.Pair] = []
                skipSpaces()
                while current != "}" {
                    let key = scalar()
                    expect(":")
                    pairs.append(YAMLNode.Pair(key: key, value: value()))
                    skipSpaces()
                    if current == "," { index += 1 }
                    skipSpaces()
                }
                index += 1
                return YAMLNode(.mapping(pairs), at: start)
            case "[":
                index += 1
                var items: [YAMLNode] = []
                skipSpaces()
                while current != "]" {
                    items.append(value())
                    skipSpaces()
                    if current == "," { index += 1 }
                    skipSpaces()
                }
                index += 1
                return YAMLNode(.sequence(items), at: start)
            default:
                return scalar()
            }
        }

        mutating func scalar() -> YAMLNode {
            skipSpaces()
            let start = mark
            if current == "\"" {
                index += 1
                let begin = index
                while current != "\"" { index += 1 }
                let text = String(characters[begin..<index])
                index += 1
                return .scalar(text, style: .doubleQuoted, at: start)
            }
            let begin = index
            while let c = current, !",]}".contains(c),
                  !(c == ":" && (index + 1 == characters.count || characters[index + 1] == " ")) {
                index += 1
            }
            var text = String(characters[begin..<index])
            while text.hasSuffix(" ") { text.removeLast() }
            return .scalar(text, style: .plain, at: start)
        }
    }
}
