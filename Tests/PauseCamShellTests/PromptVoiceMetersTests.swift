import PauseCamCore
import PauseCamShell
import XCTest

/// The prompt of a rig of voices: a compact meter per voice instead of the one microphone meter, its marks for a
/// muted, gone or clipping voice, and names cut short enough that four voices leave room to type.
final class PromptVoiceMetersTests: XCTestCase {
    let terminal = PromptFormatter(color: true), plain = PromptFormatter(color: false)

    func testEachVoiceHasItsMeterInPlaceOfTheMicrophones() {
        let voices = [VoiceStatus(name: "host", peakDBFS: -12), VoiceStatus(name: "guest", peakDBFS: -52.5)]
        XCTAssertEqual(plain.prompt(state: .recording, scene: 1, timer: .seconds(12), lens: "main", digitalZoom: 1,
                                    level: -30, voices: voices),
                       "● REC scene 1 00:00:12.0 host[###.] guest[#...] main > ", "the voices, not the mix's meter")
        XCTAssertEqual(terminal.voiceMeters(voices), "host▮▮▮▯ guest▮▯▯▯")
        XCTAssertEqual(plain.prompt(state: .paused, scene: 1, timer: .seconds(12), lens: "main", digitalZoom: 1,
                                    voices: voices),
                       "‖ PAUSED scene 1 00:00:12.0 main > ", "meters only while recording, as the one meter")
        XCTAssertEqual(plain.prompt(state: .recording, scene: 1, timer: .seconds(12), lens: "main", digitalZoom: 1,
                                    level: -30, voices: []),
                       "● REC scene 1 00:00:12.0 [##  ] main > ", "a rig of one microphone keeps its meter")
    }

    func testCellsLightFromTheSilenceFloorToFullScale() {
        let table: [(Double?, String)] = [
            (nil, "v▯▯▯▯"), (-.infinity, "v▯▯▯▯"), (-120, "v▯▯▯▯"), (-53, "v▯▯▯▯"), (-52.5, "v▮▯▯▯"),
            (-30, "v▮▮▯▯"), (-12, "v▮▮▮▯"), (-7.5, "v▮▮▮▮"), (0, "v▮▮▮▮"), (6, "v▮▮▮▮"), (.nan, "v▯▯▯▯"),
        ]
        for (level, expected) in table {
            XCTAssertEqual(terminal.voiceMeters([VoiceStatus(name: "v", peakDBFS: level)]), expected, "\(String(describing: level))")
        }
    }

    func testMutedGoneAndClippingVoicesAreMarked() {
        let voices = [VoiceStatus(name: "host", peakDBFS: -3, clipping: true),
                      VoiceStatus(name: "guest", peakDBFS: -20, muted: true),
                      VoiceStatus(name: "room", peakDBFS: -20, clipping: true, muted: true, gone: true)]
        XCTAssertEqual(plain.voiceMeters(voices), "host[####]! guest× room–")
        let coloured = terminal.voiceMeters(voices)
        XCTAssertEqual(coloured.replacingOccurrences(of: #"\x{1B}\[[0-9;]*m"#, with: "", options: .regularExpression),
                       "host▮▮▮▮! guest× room–")
        XCTAssertTrue(coloured.contains("\u{1B}[1;31m!"), "clipping is red on a terminal: \(coloured)")
        XCTAssertEqual(plain.voiceMeters([VoiceStatus(name: "host", clipping: true, muted: true)]), "host×!",
                       "a muted voice still records its own track, so its clipping still shows")
    }

    func testFourVoicesAreCutShortButStayApart() {
        let four = ["host", "guest", "caller", "room"].map { VoiceStatus(name: $0, peakDBFS: -30) }
        let meters = terminal.voiceMeters(four)
        XCTAssertEqual(meters, "hos▮▮▯▯ gue▮▮▯▯ cal▮▮▯▯ roo▮▮▯▯")
        XCTAssertLessThanOrEqual(meters.count, PromptFormatter.voiceMetersWidth)
        let plainMeters = plain.voiceMeters(four)
        XCTAssertEqual(plainMeters, "hos[##..] gue[##..] cal[##..] roo[##..]",
                       "never under three letters, even past the width")
        // Names sharing their first letters are cut no shorter than what tells them apart.
        let alike = ["speaker1", "speaker2", "speaker3", "host"].map { VoiceStatus(name: $0, peakDBFS: -30) }
        XCTAssertEqual(terminal.voiceMeters(alike), "speaker1▮▮▯▯ speaker2▮▮▯▯ speaker3▮▮▯▯ host▮▮▯▯")
        let two = ["interviewer", "guest"].map { VoiceStatus(name: $0, peakDBFS: -30) }
        XCTAssertEqual(terminal.voiceMeters(two), "interviewer▮▮▯▯ guest▮▮▯▯", "two voices fit whole")
        let prompt = terminal.prompt(state: .recording, scene: 12, timer: .seconds(3_599), lens: "wide",
                                     digitalZoom: 1, voices: four)
        let visible = prompt.replacingOccurrences(of: #"\x{1B}\[[0-9;]*m"#, with: "", options: .regularExpression)
        XCTAssertTrue(visible.hasPrefix("● REC scene 12 00:59:59.0 hos▮▮▯▯ "), visible)
        XCTAssertLessThanOrEqual(visible.count, 70, "four voices leave room to type on 80 columns: \(visible)")
    }
}
