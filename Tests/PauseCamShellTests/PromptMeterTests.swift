import PauseCamCore
import PauseCamShell
import XCTest

/// The level meter in the recording prompt: four cells of 15 dB from −60 dBFS, blocks on a terminal, `#`/`-` in
/// plain text, absent without a microphone and when not recording.
final class PromptMeterTests: XCTestCase {
    func testMeterCellsTable() {
        let terminal = PromptFormatter(color: true), plain = PromptFormatter(color: false)
        let table: [(Double, String, String)] = [
            (-120, "    ", "[    ]"), (-60, "    ", "[    ]"), (-52.5, "▄   ", "[#   ]"), (-45, "█   ", "[#   ]"),
            (-30, "██  ", "[##  ]"), (-12, "███▂", "[###-]"), (0, "████", "[####]"), (-58, "▁   ", "[-   ]"),
        ]
        for (level, blocks, text) in table {
            XCTAssertEqual(terminal.meter(level), blocks, "\(level) dBFS")
            XCTAssertEqual(plain.meter(level), text, "\(level) dBFS")
        }
    }

    func testThePromptShowsTheMeterOnlyWhileRecording() {
        let plain = PromptFormatter(color: false)
        XCTAssertEqual(plain.prompt(state: .recording, scene: 2, timer: .seconds(3), lens: "main", digitalZoom: 1,
                                    level: -30),
                       "● REC scene 2 00:00:03.0 [##  ] main > ")
        XCTAssertEqual(plain.prompt(state: .recording, scene: 2, timer: .seconds(3), lens: "main", digitalZoom: 1),
                       "● REC scene 2 00:00:03.0 main > ")
        XCTAssertEqual(plain.prompt(state: .paused, scene: 2, timer: .seconds(3), lens: "main", digitalZoom: 1,
                                    level: -30),
                       "‖ PAUSED scene 2 00:00:03.0 main > ")
    }
}
