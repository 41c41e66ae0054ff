import XCTest
import PauseCamCore
@testable import PauseCamShell

/// Tab completion: command words first, then each command's own names (lenses, presets, scripts).
final class ShellCompleterTests: XCTestCase {
    let completer = ShellCompleter(lenses: ["wide", "main", "tele"], zoomPresets: ["0.5x", "1x", "2x", "3x"],
                                   exposurePresets: ["bright", "night"], scripts: ["demo", "interview", "pauses"])

    func testCompletesCommandWordsThenTheirArguments() {
        XCTAssertEqual(completer.complete(""), Command.words)
        XCTAssertEqual(completer.complete("re"), ["record", "resume", "retake"])
        XCTAssertEqual(completer.complete("l"), ["lens", "live", "last"])
        XCTAssertEqual(completer.complete("lens t"), ["tele"])
        XCTAssertEqual(completer.complete("lens "), ["wide", "main", "tele", "next"])
        XCTAssertEqual(completer.complete("zoom 2"), ["2x"])
        XCTAssertEqual(completer.complete("exposure "), ["bright", "night", "auto"])
        XCTAssertEqual(completer.complete("run p"), ["pauses"])
        XCTAssertEqual(completer.complete("last p"), ["play"])
        XCTAssertEqual(completer.complete("help zo"), ["zoom"])
        XCTAssertEqual(completer.complete("LENS m"), ["main"], "command words are case-insensitive")
    }

    func testOffersNothingWhereNothingFits() {
        XCTAssertEqual(completer.complete("lens x"), [])
        XCTAssertEqual(completer.complete("record "), [], "scene names are free text")
        XCTAssertEqual(completer.complete("lens tele extra"), [])
        XCTAssertEqual(completer.complete("qq"), [])
    }

    func testCompletesFollowAndVoiceNamesThenWhatToChange() {
        let voices = ShellCompleter(lenses: ["wide", "host", "guest"], zoomPresets: [], exposurePresets: [],
                                    scripts: [], voices: ["host", "guest", "room"])
        XCTAssertEqual(voices.complete("fo"), ["focus", "follow"])
        XCTAssertEqual(voices.complete("follow "), ["on", "off"])
        XCTAssertEqual(voices.complete("follow o"), ["on", "off"])
        XCTAssertEqual(voices.complete("follow of"), ["off"])
        XCTAssertEqual(voices.complete("vo"), ["voice"])
        XCTAssertEqual(voices.complete("voice "), ["host", "guest", "room"])
        XCTAssertEqual(voices.complete("voice g"), ["guest"])
        XCTAssertEqual(voices.complete("voice guest "), ["mute", "unmute", "gain"])
        XCTAssertEqual(voices.complete("voice guest u"), ["unmute"])
        XCTAssertEqual(voices.complete("VOICE host m"), ["mute"])
        XCTAssertEqual(voices.complete("voice nobody "), [], "no changes offered for a voice the rig lacks")
        XCTAssertEqual(voices.complete("voice host gain "), [], "a gain is a number")
        XCTAssertEqual(voices.complete("lens host extra "), [])
        XCTAssertEqual(voices.complete("follow on "), [])
        XCTAssertEqual(completer.complete("voice "), [], "a rig of one microphone has no voices to offer")
    }
}
