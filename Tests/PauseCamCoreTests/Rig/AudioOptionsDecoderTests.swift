import XCTest
@testable import PauseCamCore

/// The `audio:` section's sound keys: `declick`, and the virtual microphone's `tone`, `drift_ppm`, `level`.
final class AudioOptionsDecoderTests: XCTestCase {
    typealias T = RigDecoderTests

    func audio(_ pairs: [(String, String)]) -> YAMLNode { T.rig(section: "audio", pairs, valueColumn: 20) }

    func messages(_ root: YAMLNode) -> [String] { T.messages(of: root) }

    func testDefaultsAndEveryKey() throws {
        XCTAssertEqual(Rig.AudioInput().options, Rig.AudioOptions(declick: true, toneFrequency: nil, driftPPM: 0, level: 1))
        let rig = try RigDecoder.decode(audio([("device", "virtual"), ("tone", "440"), ("drift_ppm", "-1000"),
                                               ("level", "0"), ("declick", "off")]))
        XCTAssertEqual(rig.audio.device, .virtual)
        XCTAssertEqual(rig.audio.options, Rig.AudioOptions(declick: false, toneFrequency: 440, driftPPM: -1000, level: 0))
        let plus = try RigDecoder.decode(audio([("device", "virtual"), ("tone", "1000 Hz"), ("drift_ppm", "+250")]))
        XCTAssertEqual(plus.audio.options.toneFrequency, 1000)
        XCTAssertEqual(plus.audio.options.driftPPM, 250)
        XCTAssertEqual(try RigDecoder.decode(audio([("declick", "on")])).audio.options.declick, true)
    }

    func testWrongValuesArePositionedErrors() {
        let messages = messages(audio([("device", "virtual"), ("tone", "3"), ("drift_ppm", "fast"),
                                                         ("level", "2"), ("declick", "maybe")]))
        XCTAssertEqual(messages, [
            "t.yaml:11:20: audio.tone: expected a frequency in Hz from 20 to 20000, found \"3\"",
            "t.yaml:12:20: audio.drift_ppm: expected whole parts per million from -20000 to 20000, found \"fast\"",
            "t.yaml:13:20: audio.level: expected a gain from 0 (silent) to 1, found \"2\"",
            "t.yaml:14:20: audio.declick: expected on or off, found \"maybe\"",
        ])
    }

    func testTestSignalKeysNeedTheVirtualMicrophone() {
        let messages = messages(audio([("device", "hw:1,0"), ("tone", "440")]))
        XCTAssertEqual(messages, ["t.yaml:11:3: audio: \"tone\" applies to the virtual microphone only (device: virtual)"])
    }

    func testAMicrophoneByMatchRuleOrByLens() throws {
        let byUSB = try RigDecoder.decode(T.rig(extra: [(T.s("audio", 9, 1), T.m(10, 3, [
            (T.s("match", 10, 3), T.m(10, 10, [(T.s("usb", 10, 11), T.s("046D:085B", 10, 16))])),
        ]))]))
        XCTAssertEqual(byUSB.audio.device, .matched(.usb("046d:085b")))
        XCTAssertEqual(try RigDecoder.decode(audio([("lens", "tele")])).audio.device, .ofLens("tele"))
        XCTAssertEqual(messages(audio([("device", "default"), ("lens", "tele")])),
                       ["t.yaml:11:3: audio: has both \"device\" and \"lens\"; give one way to find the microphone"])
    }
}
