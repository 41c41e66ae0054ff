import XCTest
@testable import PauseCamCore

/// Which plugged-in card is the rig's microphone, as a table.
final class MicrophoneCardRuleTests: XCTestCase {
    func testPCMNamesThatNameACard() {
        let table: [(String, MicrophoneCardRule.CardReference?)] = [
            ("hw:1", .number(1)), ("hw:1,0", .number(1)), ("plughw:2,0", .number(2)),
            ("hw:CARD=C920,DEV=0", .id("C920")), ("plughw:CARD=\"Yeti\"", .id("Yeti")), ("sysdefault:CARD=1", .number(1)),
            ("default", nil), ("null", nil), ("dsnoop:DEV=0", nil), ("hw:", nil),
        ]
        for (pcm, expected) in table {
            XCTAssertEqual(MicrophoneCardRule.cardReference(inPCM: pcm), expected, pcm)
        }
    }

    func testEachKindOfAudioDevicePicksItsCard() {
        let c920 = MicrophoneIdentity(card: 1, name: "C920", serial: "AAAA1111", usb: "046d:082d")
        let yeti = MicrophoneIdentity(card: 2, name: "Yeti", usb: "b58e:9e84")
        typealias Row = (Rig.AudioInput.Device, MicrophoneIdentity?, [Bool])
        let table: [Row] = [
            (.matched(.usb("046D:082D")), nil, [true, false]),
            (.matched(.serial("AAAA1111")), nil, [true, false]),
            (.ofLens("tele"), c920, [true, false]),
            (.ofLens("tele"), nil, [false, false]),
            (.alsa("plughw:2,0"), nil, [false, true]),
            (.alsa("hw:CARD=c920"), nil, [true, false]),
            (.alsa("default"), nil, [false, false]),
            (.virtual, nil, [false, false]),
        ]
        for (device, lensCard, expected) in table {
            XCTAssertEqual([c920, yeti].map { MicrophoneCardRule.picks($0, for: device, lensCard: lensCard) }, expected,
                           "\(device)")
        }
    }
}
