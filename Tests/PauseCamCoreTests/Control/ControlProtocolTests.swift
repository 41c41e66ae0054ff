import Foundation
import XCTest
@testable import PauseCamCore

/// The control socket's protocol, without a socket: line framing and its limits, requests, replies, the JSON, and
/// where the socket lives.
final class ControlProtocolTests: XCTestCase {
    func testFramingSplitsLinesAndRefusesJunk() {
        var framer = ControlLineFramer()
        XCTAssertEqual(framer.append(Array("rec".utf8)), [])
        XCTAssertTrue(framer.hasPartialLine)
        XCTAssertEqual(framer.append(Array("ord A\npause\r\n\nmark é\n".utf8)),
                       [.line("record A"), .line("pause"), .line(""), .line("mark é")])
        XCTAssertFalse(framer.hasPartialLine)
        let nul = framer.append([0x70, 0x00, 0x0a])
        let invalid = framer.append([0x6d, 0xff, 0xfe, 0x0a])
        guard case .junk(let nulReason)? = nul.first, case .junk(let utf8Reason)? = invalid.first else {
            return XCTFail("junk accepted: \(nul) \(invalid)")
        }
        XCTAssertTrue(nulReason.contains("NUL"))
        XCTAssertTrue(utf8Reason.contains("UTF-8"))
        XCTAssertEqual(framer.append(Array("status\n".utf8)), [.line("status")], "junk does not end the connection")
    }

    func testALineOverTheLimitEndsTheConversationAtOnce() {
        let limit = ControlLineFramer.maximumLineLength
        var exact = ControlLineFramer()
        XCTAssertEqual(exact.append(Array(repeating: UInt8(ascii: "a"), count: limit) + [0x0a]),
                       [.line(String(repeating: "a", count: limit))])
        var framer = ControlLineFramer()
        // A megabyte with no newline: refused as soon as the limit is passed, and nothing after is read.
        XCTAssertEqual(framer.append(Array(repeating: UInt8(ascii: "a"), count: limit + 1)), [.tooLong])
        XCTAssertTrue(framer.isClosed)
        XCTAssertFalse(framer.hasPartialLine)
        XCTAssertEqual(framer.append(Array("status\n".utf8)), [])
        var split = ControlLineFramer()
        XCTAssertEqual(split.append([UInt8](repeating: 0x61, count: limit)), [])
        XCTAssertEqual(split.append([0x61, 0x0a]), [.tooLong])
    }

    func testRequestsAreTheShellGrammarPlusTwo() {
        let parser = CommandParser(lenses: ["main", "wide"], zoomPresets: ["2x"], exposurePresets: [], scripts: ["demo"])
        let table: [(String, ControlRequest?)] = [
            ("toggle", .command(.toggle)), ("chapter Q", .command(.chapter(name: "Q"))),
            ("lens wide", .command(.lens(.named("wide")))), ("mark good take", .command(.mark("good take"))),
            ("status", .command(.status)), ("status --json", .statusJSON), ("  STATUS   --JSON ", .statusJSON),
            ("watch", .watch), ("wait 2s", nil), ("quit", nil), ("run demo", nil), ("help", nil), ("devices", nil),
            ("lens mian", nil), ("", nil), ("watch now", nil),
            ("follow on", .command(.follow(true))), ("follow off", .command(.follow(false))), ("follow maybe", nil),
            ("voice guest mute", .command(.voice(name: "guest", change: .mute))),
            ("voice guest unmute", .command(.voice(name: "guest", change: .unmute))),
            ("voice host gain -3dB", .command(.voice(name: "host", change: .gain(-3)))),
        ]
        for (line, expected) in table {
            XCTAssertEqual(try? ControlRequest.parse(line, parser: parser).get(), expected, line)
        }
        guard case .failure(let failure) = ControlRequest.parse("quit", parser: parser) else { return XCTFail() }
        XCTAssertTrue(failure.message.contains("only in the shell"), failure.message)
    }

    func testRepliesAreOneLineAndReadBack() {
        let table: [(ControlReply, String)] = [
            (ControlReply(ok: true, message: "lens wide"), "ok lens wide"),
            (.error("not recording; `record` first"), "error not recording; `record` first"),
            (ControlReply(ok: false, message: "failed\n  the movie is in x.partial\n"), "error failed |   the movie is in x.partial"),
            (ControlReply(ok: true, message: ""), "ok"),
        ]
        for (reply, line) in table {
            XCTAssertEqual(reply.line, line)
            XCTAssertFalse(reply.line.contains("\n"))
            XCTAssertEqual(ControlReply(line: line)?.ok, reply.ok)
        }
        XCTAssertEqual(ControlReply(line: "ok paused at 00:00:01.0"), ControlReply(ok: true, message: "paused at 00:00:01.0"))
        XCTAssertNil(ControlReply(line: "okay"))
        XCTAssertNil(ControlReply(line: "HTTP/1.1 400"))
    }

    func testStatusJSONHasEveryFieldAStatusBarNeeds() throws {
        let status = RigController.Status(state: .recording, scene: 3, timer: .milliseconds(83_450), lens: "wide",
                                          digitalZoom: 2, droppedFrames: 4, moviePath: "/v/a \"b\".mov")
        let line = ControlStatusJSON.line(status, rig: "Studio")
        XCTAssertFalse(line.contains("\n"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(object["state"] as? String, "recording")
        XCTAssertEqual(object["scene"] as? Int, 3)
        XCTAssertEqual(object["timer"] as? Double, 83.45)
        XCTAssertEqual(object["timer_text"] as? String, "00:01:23.450")
        XCTAssertEqual(object["lens"] as? String, "wide")
        XCTAssertEqual(object["zoom"] as? Double, 2)
        XCTAssertEqual(object["digital_zoom"] as? Double, 2)
        XCTAssertEqual(object["file"] as? String, "/v/a \"b\".mov")
        XCTAssertEqual(object["dropped_frames"] as? Int, 4)
        XCTAssertEqual(object["rig"] as? String, "Studio")
        let idle = ControlStatusJSON.line(RigController.Status(state: .idle, scene: 0, timer: .zero, lens: "main",
                                                               digitalZoom: 1, droppedFrames: 0, moviePath: nil), rig: "S")
        let idleObject = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(idle.utf8)) as? [String: Any])
        XCTAssertTrue(idleObject["file"] is NSNull)
        let toggled = EngineEvent.command(CommandEvent(source: .signal(name: "SIGUSR1"), line: "toggle", ok: true,
                                                       message: "pause: paused\n x", state: .paused, scene: 2,
                                                       movieTime: .milliseconds(1500), lens: "main"))
        let event = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ControlStatusJSON.event(toggled).utf8)) as? [String: Any])
        XCTAssertEqual(event["type"] as? String, "command")
        XCTAssertEqual(event["message"] as? String, "toggle (SIGUSR1): pause: paused\n x")
        XCTAssertEqual(event["source"] as? String, "SIGUSR1")
        XCTAssertEqual(event["command"] as? String, "toggle")
        XCTAssertEqual(event["ok"] as? Bool, true)
        XCTAssertEqual(event["state"] as? String, "paused")
        XCTAssertEqual(event["scene"] as? Int, 2)
        XCTAssertEqual(event["timer"] as? Double, 1.5)
        let saved = EngineEvent.clipSaved(ClipSavedEvent(moviePath: "/v/a.mov", scenes: 3, duration: .seconds(4),
                                                          droppedFrames: 0, mailboxDrops: [.init(role: "main", count: 2)]))
        let savedObject = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ControlStatusJSON.event(saved).utf8)) as? [String: Any])
        XCTAssertEqual(savedObject["type"] as? String, "clip_saved")
        XCTAssertEqual(savedObject["source"] as? String, "engine")
        XCTAssertEqual(savedObject["file"] as? String, "/v/a.mov")
        XCTAssertEqual(savedObject["scenes"] as? Int, 3)
        XCTAssertEqual(savedObject["duration"] as? Double, 4)
        XCTAssertEqual(savedObject["mailbox_drops"] as? [String: Int], ["main": 2])
        XCTAssertEqual(savedObject["message"] as? String,
                       "saved /v/a.mov — 3 scene(s), 00:00:04.0, 0 dropped frame(s); dropped before the engine (it was busy): main 2")
    }

    func testStatusJSONCarriesEveryVoiceAndFollow() throws {
        var status = RigController.Status(state: .recording, scene: 1, timer: .seconds(2), lens: "wide",
                                          digitalZoom: 1, droppedFrames: 0, moviePath: nil)
        status.voices = [
            VoiceStatus(name: "host", peakDBFS: -12.34, holdDBFS: -6.06, clipping: false, gainDecibels: 3,
                        pan: -0.5, muted: false, gone: false, speaking: true),
            VoiceStatus(name: "guest", peakDBFS: nil, holdDBFS: -.infinity, clipping: true, gainDecibels: -1.5,
                        pan: 0.25, muted: true, gone: true, speaking: false),
        ]
        status.follow = false
        let line = ControlStatusJSON.line(status, rig: "Interview")
        XCTAssertFalse(line.contains("\n"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(object["follow"] as? Bool, false, "follow off is false, not absent")
        let voices = try XCTUnwrap(object["voices"] as? [[String: Any]], line)
        XCTAssertEqual(voices.map { $0["name"] as? String }, ["host", "guest"], "rig order")
        for voice in voices {
            XCTAssertEqual(Set(voice.keys), ["name", "peak_dbfs", "hold_dbfs", "clipping", "gain_db", "pan", "muted",
                                             "gone", "speaking"])
        }
        let host = voices[0], guest = voices[1]
        XCTAssertEqual(host["peak_dbfs"] as? Double, -12.3)
        XCTAssertEqual(host["hold_dbfs"] as? Double, -6.1)
        XCTAssertEqual(host["gain_db"] as? Double, 3)
        XCTAssertEqual(host["pan"] as? Double, -0.5)
        XCTAssertEqual(host["clipping"] as? Bool, false)
        XCTAssertEqual(host["muted"] as? Bool, false)
        XCTAssertEqual(host["gone"] as? Bool, false)
        XCTAssertEqual(host["speaking"] as? Bool, true)
        XCTAssertTrue(guest["peak_dbfs"] is NSNull, "silence is null")
        XCTAssertTrue(guest["hold_dbfs"] is NSNull, "−∞ is null, never a JSON error")
        XCTAssertEqual(guest["gain_db"] as? Double, -1.5)
        XCTAssertEqual(guest["pan"] as? Double, 0.25)
        XCTAssertEqual(guest["clipping"] as? Bool, true)
        XCTAssertEqual(guest["muted"] as? Bool, true)
        XCTAssertEqual(guest["gone"] as? Bool, true)
        XCTAssertEqual(guest["speaking"] as? Bool, false)
        status.follow = true
        let following = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(ControlStatusJSON.line(status, rig: "Interview").utf8)) as? [String: Any])
        XCTAssertEqual(following["follow"] as? Bool, true)

        let oneMicrophone = RigController.Status(state: .idle, scene: 0, timer: .zero, lens: "main", digitalZoom: 1,
                                                 droppedFrames: 0, moviePath: nil)
        let plain = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(ControlStatusJSON.line(oneMicrophone, rig: "S").utf8)) as? [String: Any])
        XCTAssertEqual((plain["voices"] as? [Any])?.count, 0, "a rig of one microphone has no voices, an empty list")
        XCTAssertNil(plain["follow"], "a rig without follow: has no follow key")
    }

    func testTheSocketLivesInAPrivateFolderNamedAfterTheRig() {
        let table: [(String, String)] = [
            ("E2E rig", "e2e-rig"), ("Studio A / Desk", "studio-a-desk"), ("  --x--  ", "x"), ("Ünïcode ♪", "n-code"),
            ("", "rig"), ("///", "rig"), ("../../etc/passwd", "etc-passwd"),
        ]
        for (name, slug) in table { XCTAssertEqual(ControlSocketLocation.slug(name), slug, name) }
        XCTAssertEqual(ControlSocketLocation.socketPath(rigName: "E2E rig", environment: ["XDG_RUNTIME_DIR": "/run/user/1000"],
                                                        userID: 1000), "/run/user/1000/pausecam/e2e-rig.sock")
        XCTAssertEqual(ControlSocketLocation.directory(environment: ["XDG_RUNTIME_DIR": "/run/user/7/"], userID: 7),
                       "/run/user/7/pausecam")
        XCTAssertEqual(ControlSocketLocation.directory(environment: [:], userID: 1000), "/tmp/pausecam-1000")
        XCTAssertEqual(ControlSocketLocation.directory(environment: ["XDG_RUNTIME_DIR": "relative"], userID: 5), "/tmp/pausecam-5")
        XCTAssertEqual(ControlSocketLocation.lockPath(socket: "/a/b.sock"), "/a/b.sock.lock")
    }
}
