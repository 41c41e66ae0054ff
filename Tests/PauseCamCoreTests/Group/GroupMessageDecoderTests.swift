import XCTest
@testable import PauseCamCore

/// What a member accepts from the broker: the group's recording commands in the shell grammar and well-formed
/// statuses; everything else dropped with its reason.
final class GroupMessageDecoderTests: XCTestCase {
    private let decoder = GroupMessageDecoder(topics: GroupTopics(group: "studio"))
    private let commandTopic = "pausecam/studio/command"

    private func command(_ line: String, group: String = "studio", from: String = "cam-a") -> [UInt8] {
        GroupCommandMessage(group: group, from: from, seq: 7, command: line, atNanoseconds: 1_000, sentNanoseconds: 900,
                            fps: FrameRate(30)).payload()
    }

    private func json(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testTheMessageFormatIsTheDocumentedJSON() throws {
        let payload = String(decoding: command("chapter Interview"), as: UTF8.self)
        XCTAssertEqual(payload, #"{"at_ns":1000,"command":"chapter Interview","fps":"30/1","from":"cam-a","group":"studio","#
                       + #""sent_ns":900,"seq":7,"v":1}"#)
        XCTAssertEqual(GroupCommandMessage.text(of: FrameRate(60, 2)), "30/1")
        XCTAssertEqual(GroupCommandMessage.text(of: FrameRate(30000, 1001)), "30000/1001")
    }

    func testAcceptedCommandsTable() {
        let rows: [(String, Command)] = [
            ("record", .record(name: nil)), ("record Interview", .record(name: "Interview")), ("pause", .pause),
            ("resume", .resume(name: nil)), ("toggle", .toggle), ("chapter Interview", .chapter(name: "Interview")),
            ("mark good take", .mark("good take")), ("stop", .stop), ("  STOP  ", .stop),
        ]
        for (line, expected) in rows {
            guard case .command(let message, let command) = decoder.decode(GroupBusMessage(topic: commandTopic,
                                                                                          payload: self.command(line)))
            else { XCTFail(line); continue }
            XCTAssertEqual(command, expected, line)
            XCTAssertEqual(message.command, line)
        }
    }

    func testDroppedMessagesTable() {
        let good = command("pause")
        let rows: [(String, GroupBusMessage, GroupDropReason)] = [
            ("oversized", GroupBusMessage(topic: commandTopic, payload: good + Array(repeating: 32, count: 4097 - good.count)),
             .oversized),
            ("not JSON", GroupBusMessage(topic: commandTopic, payload: json("pause")), .wrongSchema),
            ("schema 2", GroupBusMessage(topic: commandTopic, payload: json(#"{"v":2,"group":"studio"}"#)), .wrongSchema),
            ("no version", GroupBusMessage(topic: commandTopic, payload: json(#"{"group":"studio","command":"stop"}"#)),
             .wrongSchema),
            ("missing at_ns", GroupBusMessage(topic: commandTopic, payload: json(
                #"{"v":1,"group":"studio","from":"x","seq":1,"command":"stop","sent_ns":1,"fps":"30/1"}"#)), .wrongSchema),
            ("bad sender name", GroupBusMessage(topic: commandTopic, payload: command("stop", from: "a/b")), .wrongSchema),
            ("other group in payload", GroupBusMessage(topic: commandTopic, payload: command("stop", group: "lab")),
             .otherGroup),
            ("other group's topic", GroupBusMessage(topic: "pausecam/lab/command", payload: command("stop", group: "lab")),
             .otherGroup),
            ("lens stays local", GroupBusMessage(topic: commandTopic, payload: command("lens wide")), .notGroupCommand),
            ("zoom stays local", GroupBusMessage(topic: commandTopic, payload: command("zoom 2")), .notGroupCommand),
            ("quit is no group command", GroupBusMessage(topic: commandTopic, payload: command("quit")), .notGroupCommand),
            ("shell injection", GroupBusMessage(topic: commandTopic, payload: command("rm -rf /")), .notGroupCommand),
            ("bad argument", GroupBusMessage(topic: commandTopic, payload: command("pause now")), .notGroupCommand),
            ("retained command", GroupBusMessage(topic: commandTopic, payload: good, retained: true), .retainedCommand),
            ("status for another host", GroupBusMessage(topic: "pausecam/studio/status/cam-b", payload:
                GroupStatusMessage.offline(host: "cam-a", seenNanoseconds: 1, fps: "30/1").payload()), .wrongSchema),
        ]
        for (name, message, reason) in rows {
            XCTAssertEqual(decoder.decode(message), .dropped(reason), name)
        }
        XCTAssertEqual(decoder.decode(GroupBusMessage(topic: commandTopic,
                                                      payload: good + Array(repeating: 32, count: 4096 - good.count))),
                       .command(try! JSONDecoder().decode(GroupCommandMessage.self, from: Data(good)), .pause),
                       "4 KiB exactly is still read")
    }

    func testAStatusIsReadFromItsOwnTopic() {
        let status = GroupStatusMessage(host: "cam-b", state: "recording", scene: 2, timer: 83.5, dropped: 1,
                                        diskLeftBytes: 5_000_000_000, seenNanoseconds: 42, clockErrorNanoseconds: 12_000,
                                        online: true, fps: "30/1")
        XCTAssertEqual(decoder.decode(GroupBusMessage(topic: "pausecam/studio/status/cam-b", payload: status.payload(),
                                                      retained: true)), .status(status))
        // A dashboard that writes only the documented fields (no fps, no disk) is read too.
        let minimal = json(#"{"v":1,"host":"cam-b","state":"idle","scene":0,"timer":0,"dropped":0,"seen_ns":1,"online":true}"#)
        guard case .status(let read) = decoder.decode(GroupBusMessage(topic: "pausecam/studio/status/cam-b", payload: minimal))
        else { return XCTFail("minimal status dropped") }
        XCTAssertNil(read.fps)
        XCTAssertNil(read.diskLeftBytes)
    }

    /// A command JSON with the given field texts (numbers as written, strings quoted by the caller).
    private func command(at: String = "1000", sent: String = "900", seq: String = "7", fps: String = #""30/1""#)
        -> GroupBusMessage {
        GroupBusMessage(topic: commandTopic, payload: json(
            #"{"v":1,"group":"studio","from":"x","seq":\#(seq),"command":"stop","at_ns":\#(at),"sent_ns":\#(sent),"#
            + #""fps":\#(fps)}"#))
    }

    func testTimesAndNumbersOutOfRangeAreDroppedAsOutOfRange() {
        let last = GroupMessageDecoder.acceptedInstants.upperBound
        let rows: [(String, GroupBusMessage, GroupDropReason?)] = [
            ("at_ns Int64.max", command(at: "\(Int64.max)"), .outOfRange),
            ("at_ns Int64.min", command(at: "\(Int64.min)"), .outOfRange),
            ("at_ns -1", command(at: "-1"), .outOfRange),
            ("at_ns after 2100", command(at: "\(last + 1)"), .outOfRange),
            ("at_ns at 2100", command(at: "\(last)"), nil),
            ("at_ns 0", command(at: "0"), nil),
            ("sent_ns Int64.max", command(sent: "\(Int64.max)"), .outOfRange),
            ("sent_ns negative", command(sent: "-5"), .outOfRange),
            ("at_ns beyond Int64", command(at: "9223372036854775808"), .wrongSchema),
            ("at_ns fractional", command(at: "1.5"), .wrongSchema),
            ("seq UInt64.max", command(seq: "\(UInt64.max)"), .outOfRange),
            ("seq 2^53", command(seq: "\(UInt64(1) << 53)"), nil),
            ("seq 2^53 + 1", command(seq: "\((UInt64(1) << 53) + 1)"), .outOfRange),
            ("seq negative", command(seq: "-1"), .wrongSchema),
            ("fps 0/1", command(fps: #""0/1""#), .outOfRange),
            ("fps 30/0", command(fps: #""30/0""#), .outOfRange),
            ("fps -30/-1", command(fps: #""-30/-1""#), .outOfRange),
            ("fps Int32.max", command(fps: #""2147483647/1""#), .outOfRange),
            ("fps 241/1", command(fps: #""241/1""#), .outOfRange),
            ("fps 1/2", command(fps: #""1/2""#), .outOfRange),
            ("fps without a slash", command(fps: #""30""#), .outOfRange),
            ("fps text", command(fps: #""NaN""#), .outOfRange),
            ("fps a number", command(fps: "30"), .wrongSchema),
            ("fps 240/1", command(fps: #""240/1""#), nil),
            ("fps 30000/1001", command(fps: #""30000/1001""#), nil),
        ]
        for (name, message, reason) in rows {
            let decoded = decoder.decode(message)
            if let reason {
                XCTAssertEqual(decoded, .dropped(reason), name)
            } else if case .dropped(let why) = decoded {
                XCTFail("\(name): dropped as \(why)")
            }
        }
        guard case .command(let reduced, _) = decoder.decode(command(fps: #""60/2""#)) else {
            return XCTFail("60/2 fps dropped")
        }
        XCTAssertEqual(reduced.fps, "30/1", "a rate is compared in its reduced form")
    }

    func testStatusesOutOfRangeAreDroppedAsOutOfRange() {
        let topic = "pausecam/studio/status/cam-b"
        func status(_ fields: String) -> GroupBusMessage {
            GroupBusMessage(topic: topic, payload: json(#"{"v":1,"host":"cam-b","state":"idle","online":true,"#
                                                        + fields + "}"))
        }
        let rows: [(String, String, GroupDropReason?)] = [
            ("timer 1e10", #""scene":0,"timer":1e10,"dropped":0,"seen_ns":1"#, .outOfRange),
            ("timer negative", #""scene":0,"timer":-1,"dropped":0,"seen_ns":1"#, .outOfRange),
            ("seen_ns Int64.min", #""scene":0,"timer":0,"dropped":0,"seen_ns":-9223372036854775808"#, .outOfRange),
            ("seen_ns Int64.max", #""scene":0,"timer":0,"dropped":0,"seen_ns":9223372036854775807"#, .outOfRange),
            ("scene negative", #""scene":-1,"timer":0,"dropped":0,"seen_ns":1"#, .outOfRange),
            ("dropped negative", #""scene":0,"timer":0,"dropped":-1,"seen_ns":1"#, .outOfRange),
            ("disk negative", #""scene":0,"timer":0,"dropped":0,"seen_ns":1,"disk_left_bytes":-1"#, .outOfRange),
            ("clock error negative", #""scene":0,"timer":0,"dropped":0,"seen_ns":1,"clock_error_ns":-1"#, .outOfRange),
            ("fps 0/0", #""scene":0,"timer":0,"dropped":0,"seen_ns":1,"fps":"0/0""#, .outOfRange),
            ("timer 1e9", #""scene":0,"timer":1e9,"dropped":0,"seen_ns":1,"fps":"30/1""#, nil),
        ]
        for (name, fields, reason) in rows {
            let decoded = decoder.decode(status(fields))
            if let reason {
                XCTAssertEqual(decoded, .dropped(reason), name)
            } else if case .dropped(let why) = decoded {
                XCTFail("\(name): dropped as \(why)")
            }
        }
        // JSON allows 1e400; whether Foundation refuses it or reads it as infinity, it is dropped.
        guard case .dropped = decoder.decode(status(#""scene":0,"timer":1e400,"dropped":0,"seen_ns":1"#)) else {
            return XCTFail("timer 1e400 was read")
        }
    }

    /// The size a sender checks is the decoder's own limit, counted on the JSON as published (escapes included),
    /// with every number at its longest: what passes the check is never dropped as oversized.
    func testSizeProblemUsesTheDecodersLimitOnTheEncodedMessage() {
        func problem(_ line: String) -> String? {
            GroupCommandMessage.sizeProblem(group: "studio", from: "cam-a", line: line, fps: FrameRate(30000, 1001))
        }
        var longest = 0
        for count in stride(from: 3_900, through: 4_100, by: 1) where problem("mark " + String(repeating: "a", count: count)) == nil {
            longest = count
        }
        XCTAssertGreaterThan(longest, 3_900)
        let line = "mark " + String(repeating: "a", count: longest)
        let message = GroupCommandMessage(group: "studio", from: "cam-a", seq: GroupMessageDecoder.maximumSequenceNumber,
                                          command: line, atNanoseconds: GroupMessageDecoder.acceptedInstants.upperBound,
                                          sentNanoseconds: GroupMessageDecoder.acceptedInstants.upperBound,
                                          fps: FrameRate(30000, 1001))
        guard case .command = decoder.decode(GroupBusMessage(topic: commandTopic, payload: message.payload())) else {
            return XCTFail("the longest mark that passes the check was dropped")
        }
        XCTAssertEqual(message.payload().count, GroupMessageDecoder.maximumPayloadBytes)
        XCTAssertNotNil(problem(line + "a"))
        // Each ESC is six bytes of JSON (\u001b): 700 of them do not fit, though the text is 700 characters.
        XCTAssertNotNil(problem("mark " + String(repeating: "\u{1B}", count: 700)))
        XCTAssertTrue(problem("chapter " + String(repeating: "b", count: 5_000))?.hasPrefix("\"chapter\" is too long") ?? false)
    }
}
