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

    /// Seeded mutations of real packets (bytes changed, cut short, grown): liblo either reads a message or says
    /// why not, and what it reads has an address; nothing traps. A failure names the seed.
    func testMutatedPacketsNeverCrash() throws {
        let seeds: [OSCMessage] = [
            OSCMessage("/pausecam/record", [.string("Intro take")]),
            OSCMessage("/pausecam/zoom", [.float(2), .double(1.5), .int64(7)]),
            OSCMessage("/pausecam/subscribe", [.int32(9001), .boolean(true), .symbol("x"), .character(65)]),
        ]
        let packets = try seeds.map { try OSCCodec.encode($0) }
        var state: UInt64 = 0x05C0_FFEE
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        for round in 0..<5000 {
            var bytes = packets[Int(next() % UInt64(packets.count))]
            switch next() % 4 {
            case 0: for _ in 0..<(1 + next() % 4) { bytes[Int(next() % UInt64(bytes.count))] = UInt8(next() & 0xFF) }
            case 1: bytes = Array(bytes.prefix(Int(next() % UInt64(bytes.count))))
            case 2: bytes += (0..<(next() % 12)).map { _ in UInt8(next() & 0xFF) }
            default: bytes[Int(next() % UInt64(bytes.count))] = [0, 0x2C, 0x73, 0x62, 0xFF][Int(next() % 5)]
            }
            if case .success(let message) = OSCCodec.decode(bytes) {
                XCTAssertFalse(message.address.isEmpty, "round \(round)")
            }
        }
    }
}
