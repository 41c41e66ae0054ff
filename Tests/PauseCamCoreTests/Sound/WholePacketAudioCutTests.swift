import XCTest
@testable import PauseCamCore

/// `WholePacketAudioCut` on seeded random retakes: 1024-tick packets (AAC at 48 kHz) against spans on a 30 fps
/// frame grid (1600 ticks). The kept packets stay contiguous once shifted, and beside a kept packet from outside
/// every span the audio removed so far differs from the video removed so far by at most half a packet.
final class WholePacketAudioCutTests: XCTestCase {
    func testKeptPacketsStayContiguousAndWithinHalfAPacketOfTheVideo() {
        var generator = SeededGenerator(seed: 24)
        for _ in 0..<200 {
            var spans: [Range<Int64>] = []
            var time: Int64 = 1600 * Int64.random(in: 0...40, using: &generator)
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let length = 1600 * Int64.random(in: 0...50, using: &generator)
                spans.append(time..<(time + length))
                time += length + 1600 * Int64.random(in: 0...40, using: &generator)
            }
            var cut = WholePacketAudioCut(spans: spans, packetTicks: 1024)
            var previous: Int64?
            for packet in stride(from: Int64(-1024), to: time + 20_000, by: 1024) {
                guard let shift = cut.shift(forPacketAt: packet) else { continue }
                let moved = packet - shift
                if let previous { XCTAssertEqual(moved - previous, 1024, "\(spans) at \(packet)") }
                previous = moved
                // Sound kept from outside every span sits within half a packet of the picture kept beside it (a
                // packet straddling a span's end is the seam itself: its neighbours are held to this).
                guard !spans.contains(where: { $0.overlaps(packet..<(packet + 1024)) }) else { continue }
                let videoShift = spans.filter { $0.upperBound <= packet }.reduce(0) { $0 + $1.count }
                XCTAssertLessThanOrEqual(abs(shift - Int64(videoShift)), 512, "\(spans) at \(packet)")
            }
            let removed = spans.reduce(0) { $0 + $1.count }
            XCTAssertEqual(cut.droppedPackets, (Int64(removed) + 512) / 1024, "\(spans)")
        }
    }
}
