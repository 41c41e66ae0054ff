import XCTest
@testable import PauseCamCore

/// TSL UMD 5.0 packets byte by byte, as the protocol's layout gives them (16-bit fields little-endian).
final class TSLUMDPacketTests: XCTestCase {
    func testByteLayoutTable() {
        let rows: [(String, TSLUMDPacket, [UInt8])] = [
            ("program: red on all three lamps, full brightness",
             TSLUMDPacket(index: 2, tally: .program, text: "main"),
             [0x0E, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0xD5, 0x00, 0x04, 0x00] + Array("main".utf8)),
            ("preview: green",
             TSLUMDPacket(index: 1, tally: .preview, text: "wide"),
             [0x0E, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0xEA, 0x00, 0x04, 0x00] + Array("wide".utf8)),
            ("off: lamps dark, label lit",
             TSLUMDPacket(screen: 0x0102, index: 0x0304, tally: .off, text: "t"),
             [0x0B, 0x00, 0x00, 0x00, 0x02, 0x01, 0x04, 0x03, 0xC0, 0x00, 0x01, 0x00, 0x74]),
            ("amber at brightness 1, empty text",
             TSLUMDPacket(index: 65534, lamp: .amber, brightness: 1, text: ""),
             [0x0A, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFE, 0xFF, 0x7F, 0x00, 0x00, 0x00]),
            ("text beyond ASCII goes as UTF-16LE with FLAGS bit 0",
             TSLUMDPacket(index: 7, tally: .program, text: "Ké"),
             [0x0E, 0x00, 0x00, 0x01, 0x00, 0x00, 0x07, 0x00, 0xD5, 0x00, 0x04, 0x00, 0x4B, 0x00, 0xE9, 0x00]),
        ]
        for (label, packet, bytes) in rows {
            XCTAssertEqual(packet.bytes, bytes, label)
        }
    }

    func testPBCCountsEveryByteAfterItself() {
        for text in ["", "a", "wide", String(repeating: "x", count: 64)] {
            let bytes = TSLUMDPacket(index: 1, tally: .program, text: text).bytes
            XCTAssertEqual(Int(bytes[0]) | Int(bytes[1]) << 8, bytes.count - 2, text)
            XCTAssertEqual(Int(bytes[10]) | Int(bytes[11]) << 8, bytes.count - 12, text)
        }
    }

    func testLongTextIsCutAtACharacterBoundaryWithinTheLimit() {
        let ascii = TSLUMDPacket(index: 1, tally: .off, text: String(repeating: "a", count: 5000)).bytes
        XCTAssertEqual(ascii.count, TSLUMDPacket.headerBytes + TSLUMDPacket.maximumTextBytes)
        // A character of two UTF-16 units (4 bytes) that would cross the limit is left out whole.
        let wide = TSLUMDPacket(index: 1, tally: .off, text: String(repeating: "é", count: 31) + "😀").bytes
        XCTAssertEqual(wide.count - TSLUMDPacket.headerBytes, 62)
        XCTAssertLessThanOrEqual(wide.count, TSLUMDPacket.maximumBytes)
    }

    func testBrightnessAboveThreeIsHeldToThree() {
        XCTAssertEqual(TSLUMDPacket(index: 1, lamp: .off, brightness: 200, text: "").control, 0xC0)
    }
}
