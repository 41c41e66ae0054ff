import XCTest
@testable import PauseCamCore

/// The endpoint's policy without a socket: who is read, what is carried out and answered, what is counted, who
/// gets feedback.
final class OSCResponderTests: XCTestCase {
    private final class Lines: Sendable {
        private let lines = Guarded<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    private let client = OSCPeer(host: "127.0.0.1", port: 50000)

    private func responder(_ settings: OSCSettings = OSCSettings(), lines: Lines = Lines()) -> OSCResponder {
        OSCResponder(settings: settings, parser: CommandParser(lenses: ["wide", "main", "tele"])) { line in
            lines.append(line)
            return line == "pause" ? ControlReply(ok: false, message: "not recording") : ControlReply(ok: true, message: "did \(line)")
        }
    }

    func testACommandIsCarriedOutAndAnsweredToItsSender() {
        let lines = Lines()
        let osc = responder(lines: lines)
        let replies = osc.handle(.success(OSCMessage("/pausecam/record", [.string("Intro")])), from: client,
                                 atNanoseconds: 0)
        XCTAssertEqual(lines.all, ["record Intro"])
        XCTAssertEqual(replies, [.init(OSCMessage("/pausecam/reply", [.string("record"), .int32(1), .string("did record Intro")]),
                                       to: client)])
        let declined = osc.handle(.success(OSCMessage("/pausecam/pause")), from: client, atNanoseconds: 1)
        XCTAssertEqual(declined.map(\.message), [OSCMessage("/pausecam/reply", [.string("pause"), .int32(0),
                                                                                .string("not recording")])])
        XCTAssertEqual(osc.counters.snapshot.handled, 2, "a command the engine declines is no junk")
        XCTAssertEqual(osc.counters.snapshot.junkTotal, 0)
    }

    func testJunkChangesNothingAndIsCountedByReason() {
        let lines = Lines()
        let osc = responder(lines: lines)
        let packets: [Result<OSCMessage, OSCRejection>] = [
            .failure(.malformed), .failure(.tooLarge),
            .success(OSCMessage("/pausecam/bogus")),
            .success(OSCMessage("/pausecam/record", [.other("b")])),
            .success(OSCMessage("/pausecam/lens", [.string("mian")])),
            .success(OSCMessage("/pausecam/wait", [.string("5s")])),
            .success(OSCMessage("/pausecam/help")),
        ]
        var answers: [OSCMessage] = []
        for (index, packet) in packets.enumerated() {
            answers += osc.handle(packet, from: client, atNanoseconds: Int64(index)).map(\.message)
        }
        XCTAssertEqual(lines.all, [], "junk never reaches the engine")
        XCTAssertEqual(osc.counters.snapshot.junk, ["malformed": 1, "too_large": 1, "unknown_address": 1,
                                                    "wrong_type": 1, "refused": 3])
        XCTAssertEqual(answers.map(\.address), ["/pausecam/error", "/pausecam/error", "/pausecam/error",
                                                "/pausecam/error", "/pausecam/reply", "/pausecam/reply",
                                                "/pausecam/reply"])
        XCTAssertEqual(answers[4].arguments, [.string("lens"), .int32(0),
                                              .string("unknown lens \"mian\"; did you mean \"main\"?")])
    }

    func testSendersTable() {
        let rows: [(OSCSettings, String, Bool)] = [
            (OSCSettings(), "127.0.0.1", true),
            (OSCSettings(), "127.0.0.2", true),
            (OSCSettings(), "::1", true),
            (OSCSettings(), "::ffff:127.0.0.1", true),
            (OSCSettings(), "192.168.1.20", false),
            (OSCSettings(), "::ffff:192.168.1.20", false),
            (OSCSettings(allow: ["192.168.1.20"]), "192.168.1.20", true),
            (OSCSettings(allow: ["192.168.1.20"]), "::ffff:192.168.1.20", true),
            (OSCSettings(allow: ["192.168.1.20"]), "192.168.1.21", false),
            (OSCSettings(allow: ["127.0.0.1"]), "127.0.0.1", true),
            (OSCSettings(allow: ["127.0.0.1"]), "127.0.0.2", false),
            (OSCSettings(allow: []), "127.0.0.1", false),
        ]
        for (settings, host, answered) in rows {
            let lines = Lines()
            let osc = responder(settings, lines: lines)
            let replies = osc.handle(.success(OSCMessage("/pausecam/toggle")), from: OSCPeer(host: host, port: 4000),
                                     atNanoseconds: 0)
            XCTAssertEqual(!replies.isEmpty, answered, "\(host) with allow \(settings.allow ?? [])")
            XCTAssertEqual(lines.all, answered ? ["toggle"] : [], host)
            XCTAssertEqual(osc.counters.snapshot.junk, answered ? [:] : ["not_allowed": 1], host)
        }
    }

    func testAFloodBeyondTheBudgetIsDroppedUnansweredAndCounted() {
        let lines = Lines()
        let osc = responder(lines: lines)
        var answered = 0
        for _ in 0..<1000 {
            answered += osc.handle(.success(OSCMessage("/pausecam/mark", [.string("x")])), from: client,
                                   atNanoseconds: 7).count
        }
        XCTAssertEqual(answered, OSCMessageBudget.burst)
        XCTAssertEqual(lines.all.count, OSCMessageBudget.burst)
        XCTAssertEqual(osc.counters.snapshot.junk, ["over_rate": 1000 - OSCMessageBudget.burst])
    }

    func testSubscribersGetTheStateThenItsChanges() {
        let feedback = OSCPeer(host: "127.0.0.1", port: 9001)
        let osc = responder(OSCSettings(feedback: [feedback]))
        let idle = OSCFeedbackTests.idle
        XCTAssertEqual(osc.feedback(idle, everything: false).count, OSCFeedback.all(idle).count,
                       "the first state goes out whole")
        XCTAssertEqual(osc.feedback(idle, everything: false), [], "no change, nothing sent")

        let subscribe = osc.handle(.success(OSCMessage("/pausecam/subscribe", [.int32(9002)])), from: client,
                                   atNanoseconds: 0)
        let subscriber = OSCPeer(host: "127.0.0.1", port: 9002)
        XCTAssertEqual(subscribe.first, .init(OSCFeedback.reply(word: "subscribe", ok: true,
                                                                message: "feedback to 127.0.0.1:9002"), to: client))
        XCTAssertEqual(subscribe.dropFirst().map(\.destination), Array(repeating: subscriber, count: OSCFeedback.all(idle).count),
                       "a new subscriber gets the whole state at once")
        XCTAssertEqual(osc.subscribers, [feedback, subscriber])
        XCTAssertEqual(osc.counters.snapshot.subscribers, 2)

        var recording = idle
        recording.lens = "wide"
        let changes = osc.feedback(recording, everything: false)
        XCTAssertEqual(changes, [.init(OSCMessage("/pausecam/lens", [.string("wide")]), to: feedback),
                                 .init(OSCMessage("/pausecam/lens", [.string("wide")]), to: subscriber)])
        XCTAssertEqual(osc.feedback(recording, everything: true).count, 2 * OSCFeedback.all(recording).count)

        _ = osc.handle(.success(OSCMessage("/pausecam/unsubscribe", [.int32(9002)])), from: client, atNanoseconds: 1)
        XCTAssertEqual(osc.subscribers, [feedback])
    }

    func testSubscribersAreBounded() {
        let osc = responder()
        for port in 1...(OSCResponder.maximumSubscribers + 5) {
            _ = osc.handle(.success(OSCMessage("/pausecam/subscribe", [.int32(Int32(port))])), from: client,
                           atNanoseconds: Int64(port))
        }
        XCTAssertEqual(osc.subscribers.count, OSCResponder.maximumSubscribers)
        XCTAssertEqual(osc.subscribers.first?.port, 6, "the oldest make room")
    }
}
