import Foundation
import PauseCamCore
import PauseCamTestHelpers
import XCTest

/// Three members of one group on this machine (virtual lenses, the real clock, a real Mosquitto broker on
/// loopback), driven by `ctl --group`: every command lands on the same slot of every member's movie, so the three
/// movies' scenes start and last the same to the frame.
final class GroupEndToEndTests: XCTestCase {
    private let hosts = ["cam-a", "cam-b", "cam-c"]

    /// A member's rig: the end-to-end rig with a group on `broker`. The lead is 1 s, not 250 ms, so that a loaded
    /// test machine still delivers every command before its time (a late one is applied on arrival, on whatever
    /// slot that is, which this test would rightly call a failure); `require_sync: false` since a test machine's
    /// clock need not be synchronised (the sidecar notes it).
    private func members(broker: MosquittoBroker, in directory: URL) throws -> [RunningCommand] {
        let base = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
        return try hosts.map { host in
            let rig = directory.appendingPathComponent("\(host).yaml")
            let text = base.replacingOccurrences(of: "name: E2E rig", with: "name: group-\(host)")
                + "group: {name: studio, broker: \"\(broker.url)\", host: \(host), lead: 1s, require_sync: false}\n"
            try text.write(to: rig, atomically: true, encoding: .utf8)
            let output = directory.appendingPathComponent(host).path
            return try RunningCommand(["shell", rig.path, "--output", output], keepInputOpen: true)
        }
    }

    private func ctl(_ broker: MosquittoBroker, _ words: String...) throws -> ProcessResult { try ctl(broker, words) }

    private func ctl(_ broker: MosquittoBroker, _ words: [String], lead: String = "1s") throws -> ProcessResult {
        try ProcessRunner.run(BinaryLocator.pausecam.path,
                              ["ctl", "--group", "studio", "--broker", broker.url, "--lead", lead, "--timeout", "10"]
                                  + words)
    }

    /// Waits until every member's output holds `needle` `count` times.
    private func waitAll(_ members: [RunningCommand], _ needle: String, count: Int = 1, seconds: Double = 30,
                         file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(seconds)
        for member in members {
            while member.stdout.components(separatedBy: needle).count - 1 < count && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
            XCTAssertGreaterThanOrEqual(member.stdout.components(separatedBy: needle).count - 1, count,
                                        "\"\(needle)\" ×\(count): " + member.stdout + member.stderr,
                                        file: file, line: line)
        }
    }

    private func finish(_ members: [RunningCommand]) {
        for member in members {
            member.send("quit")
            member.closeInput()
            XCTAssertEqual(member.waitForExit(seconds: 60), 0, member.stdout + member.stderr)
        }
    }

    func testThreeMembersRecordOneScriptWithTheSameScenesToTheFrame() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try ProcessRunner.temporaryDirectory("group")
        let members = try members(broker: broker, in: directory)
        waitAll(members, "joined group studio")

        let status = try ctl(broker, "status")
        XCTAssertEqual(status.status, 0, status.stderr)
        for host in hosts { XCTAssertTrue(status.stdoutText.contains("\(host): idle"), status.stdoutText) }

        for (step, (words, needle)) in [(["record", "Take"], "recording scene 1"), (["pause"], "paused at"),
                                         (["resume", "Two"], "recording scene 2"), (["pause"], "paused at"),
                                         (["resume", "Three"], "recording scene 3"),
                                         (["chapter", "Four"], "scene 4 \"Four\""), (["stop"], "saved ")].enumerated() {
            let sent = try ctl(broker, words)
            XCTAssertEqual(sent.status, 0, sent.stdoutText + sent.stderr)
            XCTAssertTrue(sent.stdoutText.contains("cam-a, cam-b, cam-c"), sent.stdoutText)
            XCTAssertTrue(sent.stdoutText.contains(" in 1.0"), "--lead 1s, as the members' rigs say: " + sent.stdoutText)
            waitAll(members, needle, count: step == 3 ? 2 : 1)
            // Some recording between boundaries (the movies' content; equality is what is checked).
            if step < 6 { Thread.sleep(forTimeInterval: 0.6 + 0.2 * Double(step)) }
        }
        finish(members)

        var sceneLists: [[Sidecar.Scene]] = []
        var chapterLists: [[String]] = []
        for host in hosts {
            let folder = directory.appendingPathComponent(host)
            let movie = folder.appendingPathComponent("group-\(host).mov").path
            let probe = MediaProbe(path: movie)
            try probe.assertConstantRate(30)
            chapterLists.append(try probe.chapters().map { "\($0.title ?? "") \($0.startTime) \($0.endTime)" })
            let sidecar = try Sidecar.decode(Data(contentsOf: folder.appendingPathComponent("group-\(host).json")))
            XCTAssertEqual(sidecar.scenes.map(\.title), ["Take", "Two", "Three", "Four"])
            sceneLists.append(sidecar.scenes)
            let group = try XCTUnwrap(sidecar.group)
            XCTAssertEqual(group.host, host)
            XCTAssertEqual(group.commands.map(\.command), ["record Take", "pause", "resume Two", "pause",
                                                            "resume Three", "chapter Four", "stop"])
            XCTAssertEqual(Set(group.commands.map(\.outcome)), ["on_time"], "\(group.commands)")
            XCTAssertEqual(Set(group.membersSeen), Set(hosts.filter { $0 != host }))
        }
        XCTAssertEqual(chapterLists[0].count, 4)
        XCTAssertEqual(chapterLists[1], chapterLists[0])
        XCTAssertEqual(chapterLists[2], chapterLists[0])
        let frame = 1.0 / 30
        for scenes in sceneLists.dropFirst() {
            XCTAssertEqual(scenes.count, sceneLists[0].count)
            for (scene, first) in zip(scenes, sceneLists[0]) {
                XCTAssertEqual(scene.start, first.start, accuracy: frame / 4, "scene \(scene.title) start")
                XCTAssertEqual(scene.duration, first.duration, accuracy: frame / 4, "scene \(scene.title)")
            }
        }
    }

    /// The broker goes away mid-clip and comes back: both members keep recording, warn, reconnect by themselves, and
    /// take the group's commands again. A command given in one member's shell reaches both; one published by another
    /// tool (`mosquitto_pub`, with its time already past) is applied on arrival and reported late, with by how much.
    func testTheBrokerRestartingMidClipLosesNoMovieAndALateCommandIsReported() throws {
        let publisher = "/usr/bin/mosquitto_pub"
        guard FileManager.default.isExecutableFile(atPath: publisher) else {
            throw XCTSkip("\(publisher) is not installed (Debian package mosquitto-clients)")
        }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try ProcessRunner.temporaryDirectory("group-restart")
        let members = Array(try members(broker: broker, in: directory).prefix(2))
        waitAll(members, "joined group studio")

        members[0].send("record Take")
        waitAll(members, "recording scene 1")
        XCTAssertTrue(members[0].stdout.contains("sent to group studio: record Take"), members[0].stdout)
        broker.stop()
        waitAll(members, "lost the group's broker")
        Thread.sleep(forTimeInterval: 1)
        try broker.start()
        waitAll(members, "the group's broker is back")

        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        let late = #"{"v":1,"group":"studio","from":"pub","seq":1,"command":"mark late-one","at_ns":"#
            + "\(now - 2_000_000_000)" + #","sent_ns":"# + "\(now - 2_000_000_000)" + #","fps":"30/1"}"#
        let published = try ProcessRunner.run(publisher, ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1",
                                                          "-t", "pausecam/studio/command", "-m", late])
        XCTAssertEqual(published.status, 0, published.stderr)
        waitAll(members, "\"mark late-one\" from pub arrived")

        let stop = try ctl(broker, "stop")
        XCTAssertEqual(stop.status, 0, stop.stdoutText + stop.stderr)
        waitAll(members, "saved ")
        finish(members)

        for host in hosts.prefix(2) {
            let folder = directory.appendingPathComponent(host)
            try MediaProbe(path: folder.appendingPathComponent("group-\(host).mov").path).assertConstantRate(30)
            let sidecar = try Sidecar.decode(Data(contentsOf: folder.appendingPathComponent("group-\(host).json")))
            XCTAssertTrue(sidecar.complete)
            XCTAssertTrue(sidecar.warnings.contains { $0.contains("lost the group's broker") }, "\(sidecar.warnings)")
            XCTAssertTrue(sidecar.warnings.contains { $0.contains("broker is back") }, "\(sidecar.warnings)")
            let commands = try XCTUnwrap(sidecar.group?.commands)
            XCTAssertEqual(commands.map(\.command), ["record Take", "mark late-one", "stop"])
            let marked = try XCTUnwrap(commands.first { $0.command == "mark late-one" })
            XCTAssertEqual(marked.outcome, "late")
            XCTAssertGreaterThan(marked.lateBy, 1.9, "published 2 s after its time, snapped to the next slot")
            XCTAssertEqual(sidecar.scenes.flatMap(\.markers).map(\.text), ["late-one"])
        }
    }

    /// `run` with a group: it waits for the broker before the script's first step, and for the group's last
    /// command to land before it finishes, so the script's `stop` ends this member's clip like everyone else's.
    func testRunSendsTheScriptToTheGroupAndEndsOnItsStop() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try ProcessRunner.temporaryDirectory("group-run")
        let base = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
        let rig = directory.appendingPathComponent("solo.yaml")
        try (base.replacingOccurrences(of: "name: E2E rig", with: "name: group-solo")
             + "group: {name: studio, broker: \"\(broker.url)\", host: solo, require_sync: false}\n")
            .write(to: rig, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["run", rig.path, "--script", "short", "--output", output.path])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stdoutText.contains("sent to group studio: stop"), result.stdoutText)
        let sidecar = try Sidecar.decode(Data(contentsOf: output.appendingPathComponent("group-solo.json")))
        XCTAssertEqual(sidecar.group?.commands.map(\.command), ["record", "stop"])
        XCTAssertEqual(sidecar.group?.commands.map(\.outcome), ["on_time", "on_time"])
        XCTAssertEqual(sidecar.duration, 0.5, accuracy: 0.1)
    }

    /// A member that joins while the group records starts at the group's next scene boundary, and says so: its movie
    /// holds that scene and the ones after it, starting on the same slot as the others' scene.
    func testAMemberJoiningMidRecordingStartsAtTheNextSceneBoundary() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try ProcessRunner.temporaryDirectory("group-join")
        let everyone = try members(broker: broker, in: directory)
        let first = everyone[0]
        // Only cam-a is there at first: cam-b and cam-c wait for their rigs to be started again below.
        for late in everyone.dropFirst() { late.send("quit"); late.closeInput(); _ = late.waitForExit() }
        waitAll([first], "joined group studio")
        XCTAssertEqual(try ctl(broker, "record", "Early").status, 0)
        waitAll([first], "recording scene 1")
        let late = try RunningCommand(["shell", directory.appendingPathComponent("cam-b.yaml").path, "--output",
                                       directory.appendingPathComponent("cam-b-late").path], keepInputOpen: true)
        waitAll([late], "joined group studio")
        XCTAssertEqual(try ctl(broker, "chapter", "Joined").status, 0)
        waitAll([first], "scene 2 \"Joined\"")
        waitAll([late], "recording scene 1 \"Joined\"")
        XCTAssertTrue(late.stdout.contains("this member joins at its scene boundary"), late.stdout)
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(try ctl(broker, "stop").status, 0)
        waitAll([first, late], "saved ")
        finish([first, late])
        let a = try Sidecar.decode(Data(contentsOf: directory.appendingPathComponent("cam-a/group-cam-a.json")))
        let b = try Sidecar.decode(Data(contentsOf: directory.appendingPathComponent("cam-b-late/group-cam-b.json")))
        XCTAssertEqual(a.scenes.map(\.title), ["Early", "Joined"])
        XCTAssertEqual(b.scenes.map(\.title), ["Joined"])
        XCTAssertEqual(b.duration, try XCTUnwrap(a.scenes.last?.duration), accuracy: 1.0 / 120,
                       "the joined member's movie is the group's last scene, to the frame")
    }

    /// Members must share one frame grid: one at another `output.fps` is named with both rates, and the two ignore
    /// each other's commands; the newcomer still records at its own rate, by its own commands (a status is a hint).
    func testAMemberAtAnotherFrameRateIsNamedWithBothRatesAndTheirCommandsStayApart() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try ProcessRunner.temporaryDirectory("group-fps")
        let everyone = try members(broker: broker, in: directory)
        let first = everyone[0]
        for other in everyone.dropFirst() { other.send("quit"); other.closeInput(); _ = other.waitForExit() }
        waitAll([first], "joined group studio")
        let rig = directory.appendingPathComponent("cam-b.yaml")
        let text = try String(contentsOf: rig, encoding: .utf8).replacingOccurrences(of: "fps: 30", with: "fps: 25")
        try text.write(to: rig, atomically: true, encoding: .utf8)
        let other = try RunningCommand(["shell", rig.path, "--output", directory.appendingPathComponent("b25").path],
                                       keepInputOpen: true)
        waitAll([other], "cam-a records at 30/1 fps, cam-b at 25/1 fps: each ignores the other's commands")
        waitAll([first], "cam-b records at 25/1 fps, cam-a at 30/1 fps")
        other.send("record")
        waitAll([other], "recording scene 1")
        waitAll([first], "its \"record\" is ignored")
        other.send("wait 1s")
        other.send("stop")
        waitAll([other], "saved ")
        other.send("quit")
        other.closeInput()
        XCTAssertEqual(other.waitForExit(seconds: 60), 0, other.stdout + other.stderr)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("b25").path)) ?? []
        XCTAssertTrue(files.contains("group-cam-b.mov"), "the newcomer records at its own rate: \(files)")
        let firstFiles = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("cam-a").path)) ?? []
        XCTAssertFalse(firstFiles.contains { $0.contains(".mov") }, "cam-a took no command at 25 fps: \(firstFiles)")
        finish([first])
    }

    /// A `record` that arrives while the clip still records, for a slot after the group's `stop`, starts the next
    /// clip: the stopped clip's sidecar lists the commands from its own `record` to its `stop`, and the next clip's
    /// begins with that `record`.
    func testARecordArrivingBeforeTheStopTakesEffectBelongsToTheNextClip() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try ProcessRunner.temporaryDirectory("group-next")
        let everyone = try members(broker: broker, in: directory)
        let member = everyone[0]
        for other in everyone.dropFirst() { other.send("quit"); other.closeInput(); _ = other.waitForExit() }
        waitAll([member], "joined group studio")
        XCTAssertEqual(try ctl(broker, ["record", "First"]).status, 0)
        waitAll([member], "recording scene 1")
        // The stop takes effect 4 s after it is sent; the record, sent just after it, 5 s after that: it reaches
        // the member while First still records.
        let stop = try ctl(broker, ["stop"], lead: "4s")
        XCTAssertEqual(stop.status, 0, stop.stdoutText + stop.stderr)
        let record = try ctl(broker, ["record", "Next"], lead: "5s")
        XCTAssertEqual(record.status, 0, record.stdoutText + record.stderr)
        XCTAssertFalse(member.stdout.contains("saved "), "the record must arrive before the stop: " + member.stdout)
        waitAll([member], "recording scene 1 \"Next\"")
        XCTAssertEqual(try ctl(broker, ["stop"]).status, 0)
        waitAll([member], "saved ", count: 2)
        finish([member])

        let folder = directory.appendingPathComponent("cam-a")
        let first = try Sidecar.decode(Data(contentsOf: folder.appendingPathComponent("group-cam-a.json")))
        let next = try Sidecar.decode(Data(contentsOf: folder.appendingPathComponent("group-cam-a-2.json")))
        XCTAssertEqual(first.scenes.map(\.title), ["First"])
        XCTAssertEqual(next.scenes.map(\.title), ["Next"])
        XCTAssertEqual(first.group?.commands.map(\.command), ["record First", "stop"])
        XCTAssertEqual(next.group?.commands.map(\.command), ["record Next", "stop"])
    }
}
