import Foundation
@testable import PauseCamCore
import XCTest

final class CutListEDLTests: XCTestCase {
    /// Reel names: upper-cased, within 8 characters, unique, never CMX's `BL` (black) or `AX` (auxiliary).
    func testReelNamesAreShortUniqueAndNeverReserved() {
        let table: [(names: [String], reels: [String])] = [
            (["wide", "main", "tele"], ["WIDE", "MAIN", "TELE"]),
            (["close-up left", "close-up right"], ["CLOSE_U1", "CLOSE_U2"]),
            (["cam", "Cam", "cam1"], ["CAM2", "CAM3", "CAM1"]),
            (["bl", "ax", "", "overhead"], ["BL1", "AX1", "REEL1", "OVERHEAD"]),
            (["über", "program 2"], ["_BER", "PROGRAM_"]),
        ]
        for (names, reels) in table {
            let made = CutListEDL.reelNames(names)
            XCTAssertEqual(made, reels, "\(names)")
            XCTAssertEqual(Set(made).count, made.count, "\(names)")
            XCTAssertTrue(made.allSatisfy { $0.count <= 8 }, "\(made)")
        }
    }

    /// An event per cut, at 29.97 in drop-frame timecode, the clip name of each event's movie after it; without
    /// sound the events are picture only.
    func testEventsFollowTheCutsInDropFrameTimecode() throws {
        let angle = { (name: String) in
            MulticamTimeline.Angle(name: name, movie: "clip.iso/\(name).mov", width: 64, height: 36,
                                   durationFrames: 1900, offsetFrames: 0, hasAudio: false)
        }
        let timeline = try MulticamTimeline(name: "clip", rate: FrameRate(30000, 1001),
                                            angles: [angle("wide"), angle("tele")],
                                            cuts: [.init(startFrame: 0, angle: 0), .init(startFrame: 1800, angle: 1)],
                                            chapters: [], markers: [])
        XCTAssertEqual(CutListEDL.render(timeline).components(separatedBy: "\r\n"), [
            "TITLE: clip", "FCM: DROP FRAME", "",
            "001  WIDE     V     C        00:00:00;00 00:01:00;02 00:00:00;00 00:01:00;02",
            "* FROM CLIP NAME: wide.mov", "",
            "002  TELE     V     C        00:01:00;02 00:01:03;12 00:01:00;02 00:01:03;12",
            "* FROM CLIP NAME: tele.mov", "",
        ])
    }
}
