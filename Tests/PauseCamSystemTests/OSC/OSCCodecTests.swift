import XCTest
@testable import PauseCamCore
@testable import PauseCamSystem

/// liblo's reading and writing of OSC messages, on hand-made packets: every type PauseCam reads, and the broken
/// packets a stranger can send.
final class OSCCodecTests: XCTestCase {
    /// An OSC string: the bytes, a NUL, padded to four.
    private func padded(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8) + [0]
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }

    private func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }

    func testEveryTypeRoundTripsThroughLiblo() throws {
        let message = OSCMessage("/pausecam/test", [
            .int32(-7), .int64(1 << 40), .float(1.5), .double(-2.25), .string("Intro take"), .symbol("tele"),
            .character(65), .boolean(true), .boolean(false), .string("ünïcode"),
        ])
        let bytes = try OSCCodec.encode(message)
        XCTAssertEqual(bytes.count % 4, 0)
        XCTAssertEqual(Array(bytes.prefix(16)), padded("/pausecam/test"))
        XCTAssertEqual(OSCCodec.decode(bytes), .success(message))
    }

    func testAHandMadePacketIsRead() {
        let bytes = padded("/pausecam/zoom") + padded(",f") + bigEndian(Float(2.0).bitPattern)
        XCTAssertEqual(OSCCodec.decode(bytes), .success(OSCMessage("/pausecam/zoom", [.float(2)])))
        let blob = padded("/pausecam/record") + padded(",b") + bigEndian(UInt32(3)) + [1, 2, 3, 0]
        XCTAssertEqual(OSCCodec.decode(blob), .success(OSCMessage("/pausecam/record", [.other("b")])),
                       "a type PauseCam does not read keeps its tag, so the request refuses it by type")
    }

    func testBrokenPacketsAreErrorsNotCrashes() {
        let rows: [(String, [UInt8])] = [
            ("empty", []),
            ("no address", padded(",i") + bigEndian(Int32(1))),
            ("unterminated address", Array("/pausecam/toggle".utf8)),
            ("bad padding", Array("/pausecam/toggle".utf8) + [0, 1, 1, 1] + padded(",")),
            ("an argument cut short", padded("/pausecam/zoom") + padded(",f") + [0, 0]),
            ("a string cut short", padded("/pausecam/record") + padded(",s") + Array("Intro".utf8)),
            ("a blob longer than the packet", padded("/pausecam/record") + padded(",b") + bigEndian(UInt32(1 << 30))),
            ("a bundle", padded("#bundle") + [UInt8](repeating: 0, count: 8)),
            ("no type tags", padded("/pausecam/toggle") + padded("i")),
        ]
        for (label, bytes) in rows {
            guard case .failure(let error) = OSCCodec.decode(bytes) else {
                XCTFail("\(label): read as a message"); continue
            }
            XCTAssertEqual(error.rejection, .malformed, label)
            XCTAssertTrue(error.description.hasPrefix("lo_"), "\(label): \(error)")
        }
    }

    func testNoTypeTagsAtAllIsAMessageWithoutArguments() {
        XCTAssertEqual(OSCCodec.decode(padded("/pausecam/toggle") + padded(",")),
                       .success(OSCMessage("/pausecam/toggle")))
    }

    func testATypeNobodyCanWriteIsRefused() {
        XCTAssertThrowsError(try OSCCodec.encode(OSCMessage("/x", [.other("m")])))
    }
}
