import XCTest
@testable import PauseCamCore

/// OSC messages to lines of the shell's grammar, and junk with its reason.
final class OSCRequestTests: XCTestCase {
    func testMessagesToRequestsTable() {
        let rows: [(OSCMessage, OSCRequest)] = [
            (OSCMessage("/pausecam/record", [.string("Intro")]), .command(word: "record", line: "record Intro")),
            (OSCMessage("/pausecam/record", [.string("Intro take")]), .command(word: "record", line: "record Intro take")),
            (OSCMessage("/pausecam/record"), .command(word: "record", line: "record")),
            (OSCMessage("/pausecam/lens", [.string("tele")]), .command(word: "lens", line: "lens tele")),
            (OSCMessage("/pausecam/lens/tele"), .command(word: "lens", line: "lens tele")),
            (OSCMessage("/pausecam/zoom", [.float(2.0)]), .command(word: "zoom", line: "zoom 2")),
            (OSCMessage("/pausecam/zoom", [.float(1.5)]), .command(word: "zoom", line: "zoom 1.5")),
            (OSCMessage("/pausecam/zoom", [.double(2.25)]), .command(word: "zoom", line: "zoom 2.25")),
            (OSCMessage("/pausecam/zoom", [.int32(3)]), .command(word: "zoom", line: "zoom 3")),
            (OSCMessage("/pausecam/exposure", [.int64(-1)]), .command(word: "exposure", line: "exposure -1")),
            (OSCMessage("/pausecam/follow", [.boolean(true)]), .command(word: "follow", line: "follow on")),
            (OSCMessage("/pausecam/live", [.boolean(false)]), .command(word: "live", line: "live off")),
            (OSCMessage("/pausecam/mark", [.symbol("good"), .string("take")]),
             .command(word: "mark", line: "mark good take")),
            (OSCMessage("/pausecam/toggle"), .command(word: "toggle", line: "toggle")),
            (OSCMessage("/pausecam/q"), .command(word: "q", line: "q")),
            (OSCMessage("/pausecam/button/toggle", [.float(1)]), .command(word: "toggle", line: "toggle")),
            (OSCMessage("/pausecam/button/lens/wide", [.int32(1)]), .command(word: "lens", line: "lens wide")),
            (OSCMessage("/pausecam/button/lens/wide", [.boolean(true)]), .command(word: "lens", line: "lens wide")),
            (OSCMessage("/pausecam/button/lens/wide"), .command(word: "lens", line: "lens wide")),
            (OSCMessage("/pausecam/button/toggle", [.float(0)]), .release),
            (OSCMessage("/pausecam/button/toggle", [.boolean(false)]), .release),
            (OSCMessage("/pausecam/subscribe"), .subscribe(port: nil)),
            (OSCMessage("/pausecam/subscribe", [.int32(9001)]), .subscribe(port: 9001)),
            (OSCMessage("/pausecam/subscribe", [.float(9001)]), .subscribe(port: 9001)),
            (OSCMessage("/pausecam/unsubscribe", [.int32(9001)]), .unsubscribe(port: 9001)),
            (OSCMessage("/pausecam/unsubscribe"), .unsubscribe(port: nil)),
        ]
        for (message, expected) in rows {
            XCTAssertEqual(OSCRequest.parse(message), .success(expected), "\(message)")
        }
    }

    func testJunkTable() {
        let long = String(repeating: "x", count: OSCRequest.maximumLineLength)
        let rows: [(OSCMessage, OSCRejection)] = [
            (OSCMessage("/other/record"), .unknownAddress),
            (OSCMessage("/pausecam"), .unknownAddress),
            (OSCMessage("/pausecam/"), .unknownAddress),
            (OSCMessage("/pausecam/bogus", [.int32(3)]), .unknownAddress),
            (OSCMessage("/pausecam/Record"), .unknownAddress),
            (OSCMessage("/pausecam/watch"), .unknownAddress),
            (OSCMessage("/pausecam/lens//tele"), .unknownAddress),
            (OSCMessage("/pausecam/button"), .unknownAddress),
            (OSCMessage("/pausecam/subscribe/now"), .unknownAddress),
            (OSCMessage("/pausecam/a/b/c/d/e/f/g/h/i"), .unknownAddress),
            (OSCMessage("/pausecam/record", [.other("b")]), .wrongType),
            (OSCMessage("/pausecam/record", [.other("N")]), .wrongType),
            (OSCMessage("/pausecam/subscribe", [.string("9001")]), .wrongType),
            (OSCMessage("/pausecam/subscribe", [.float(9001.5)]), .wrongType),
            (OSCMessage("/pausecam/subscribe", [.int32(1), .int32(2)]), .wrongType),
            (OSCMessage("/pausecam/button/toggle", [.string("on")]), .wrongType),
            (OSCMessage("/pausecam/button/toggle", [.float(.nan)]), .wrongType),
            (OSCMessage("/pausecam/button/toggle", [.int32(1), .int32(1)]), .wrongType),
            (OSCMessage("/pausecam/subscribe", [.int32(0)]), .badArgument),
            (OSCMessage("/pausecam/subscribe", [.int32(70000)]), .badArgument),
            (OSCMessage("/pausecam/record", [.string("two\nlines")]), .badArgument),
            (OSCMessage("/pausecam/record", [.string("")]), .badArgument),
            (OSCMessage("/pausecam/zoom", [.float(.infinity)]), .badArgument),
            (OSCMessage("/pausecam/zoom", [.double(.nan)]), .badArgument),
            (OSCMessage("/pausecam/mark", [.character(7)]), .badArgument),
            (OSCMessage("/pausecam/mark", [.string(long)]), .badArgument),
            (OSCMessage("/pausecam/mark", Array(repeating: .int32(1), count: 9)), .unknownAddress),
        ]
        for (message, expected) in rows {
            XCTAssertEqual(OSCRequest.parse(message), .failure(expected), "\(message)")
        }
    }
}
