import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// The virtual lens's and microphone's documented contract (README, "The virtual lens and microphone"), measured
/// on the samples they produce. The end-to-end tests rely on it to find lenses, zoom and sync in decoded movies.
final class VirtualRigContractTests: XCTestCase {
    let green = RGBColor(hex: "#20c040")!

    func makeLens() -> VirtualLens {
        VirtualLens(lens: "main", color: green, width: 320, height: 180, rate: FrameRate(30),
                    serialContext: SimulatedSerialContext())
    }

    func luma(_ frame: VideoFrame, _ x: Int, _ y: Int) -> UInt8 { frame.planes[0].bytes[y * frame.width + x] }
    func chroma(_ frame: VideoFrame, _ plane: Int, _ x: Int, _ y: Int) -> UInt8 {
        frame.planes[plane].bytes[(y / 2) * (frame.width / 2) + x / 2]
    }

    func testBackgroundSquareOutlineAndFlash() {
        let lens = makeLens()
        let second = MediaTime.seconds(1)
        let frameDuration = MediaTime(value: 1, timescale: 30)
        let flash = lens.render(pts: second, previous: second - frameDuration)
        let after = lens.render(pts: second + frameDuration, previous: second)
        let (y, u, v) = TestPatternPainter.yuv(green)
        // Background in the lens colour, BT.601 limited range.
        let expectedY = 16 + (65.481 * 0x20 + 128.553 * 0xc0 + 24.966 * 0x40) / 255
        XCTAssertEqual(Double(y), expectedY, accuracy: 1)
        XCTAssertEqual([luma(flash, 300, 10), chroma(flash, 1, 300, 10), chroma(flash, 2, 300, 10)], [y, u, v])
        // Flash: the top-left square, side a quarter of the height (45 px), white on the first frame at or after a
        // whole second, black on the next.
        for (x, yy) in [(0, 0), (43, 43), (20, 30)] {
            XCTAssertEqual(luma(flash, x, yy), TestPatternPainter.whiteY)
            XCTAssertEqual(luma(after, x, yy), TestPatternPainter.blackY)
        }
        XCTAssertEqual(luma(flash, 47, 10), y, "the flash square is 45 px, not more")
        // The centred square outline: side half the height (90 px), white, 4 px thick, its corner on even
        // coordinates (4:2:0 chroma): 115 → 114, 45 → 44.
        let left = 114, top = 44
        for offset in 0..<4 {
            XCTAssertEqual(luma(flash, left + offset, 90), TestPatternPainter.whiteY, "left edge, x+\(offset)")
            XCTAssertEqual(luma(flash, left + 89 - offset, 90), TestPatternPainter.whiteY, "right edge")
            XCTAssertEqual(luma(flash, 160, top + offset), TestPatternPainter.whiteY, "top edge")
        }
        XCTAssertEqual(luma(flash, left + 4, 90), y, "the outline is 4 px thick")
        XCTAssertEqual(luma(flash, 160, 90), y, "the square is an outline, not filled")
    }

    func testTheBarIsWhiteInTheBottomEighthAndMoves() {
        let lens = makeLens()
        func barColumns(_ frame: VideoFrame) -> [Int] {
            (0..<320).filter { luma(frame, $0, 175) == TestPatternPainter.whiteY }
        }
        let a = lens.render(pts: .milliseconds(100), previous: nil)
        let b = lens.render(pts: .milliseconds(700), previous: nil)
        XCTAssertEqual(barColumns(a).count, 10, "the bar is width/32 wide")
        XCTAssertNotEqual(barColumns(a), barColumns(b), "the bar moves")
        let column = barColumns(a)[4]
        XCTAssertEqual(chroma(a, 1, column, 175), 128, "white, not tinted")
        XCTAssertEqual(chroma(a, 2, column, 175), 128)
        XCTAssertNotEqual(luma(a, column, 180 - 180 / 8 - 1), TestPatternPainter.whiteY, "only in the bottom eighth")
    }

    func testTheBeepIsOneKilohertzAtMinusSixDBFSForATenthOfASecondAtEachWholeSecond() {
        let microphone = VirtualMicrophone(serialContext: SimulatedSerialContext())
        // One whole second of samples starting at second 7, chunk by chunk.
        var samples: [Int16] = []
        var next: Int64 = 7 * 48_000
        while samples.count < 48_000 {
            samples += microphone.chunk(startingAt: next).samples
            next += microphone.chunkFrames
        }
        let beep = Array(samples[0..<4800])
        let peak = Double(beep.map { abs(Int($0)) }.max() ?? 0)
        XCTAssertEqual(20 * log10(peak / 32768), -6, accuracy: 0.05)
        let crossings = zip(beep, beep.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        XCTAssertEqual(Double(crossings) / 2 / 0.1, 1000, accuracy: 20, "1 kHz")
        XCTAssertTrue(samples[4800..<48_000].allSatisfy { $0 == 0 }, "silence between beeps")
        XCTAssertNotEqual(samples[10], 0)
    }
}
