import Foundation
import PauseCamCore
import PauseCamTestHelpers
import XCTest

/// Every movie and ISO carries a QuickTime timecode track (`tmcd`) as ffprobe reads it: from the rig's start (time
/// of day, a fixed label, a group's grid), drop-frame at 29.97, running on through pauses (record run), the same in
/// the EDL's source timecode, and the same for the same instant in two members of a group.
final class TimecodeEndToEndTests: XCTestCase {
    private let ntsc = FrameRate(30000, 1001)

    /// The end-to-end rig at `fps` (output and every lens), with ISOs of two lenses, `extra` lines added to `output:`
    /// and the top-level `tail`.
    private func rig(_ name: String, in directory: URL, fps: String = "30", isos: Bool = true,
                     output extra: [String] = [], tail: String = "") throws -> String {
        var text = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "name: E2E rig", with: "name: \(name)")
            .replacingOccurrences(of: "fps: 30\n", with: "fps: \(fps)\n")
        let lines = ((isos ? ["  iso: [wide, tele]"] : []) + extra).joined(separator: "\n")
        text = text.replacingOccurrences(of: "  container: mov\n", with: "  container: mov\n" + lines + "\n") + tail
        let path = directory.appendingPathComponent("\(name).yaml")
        try text.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    private func record(_ rig: String, _ lines: [String], in directory: URL,
                        environment: [String: String] = [:]) throws -> ProcessResult {
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "shell", rig, "--clock", "simulated", "--output", directory.path,
        ], input: lines.joined(separator: "\n") + "\n", environment: environment)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        return result
    }

    /// The `timecode` tags ffprobe gives the movie's video stream and its `tmcd` data stream, and the number of
    /// samples and the duration of the `tmcd` stream.
    private func timecodes(_ path: String) throws
        -> (video: String?, track: String?, samples: String?, duration: Double?) {
        let streams = try MediaProbe(path: path).streams()
        let track = streams.first { $0.codecType == "data" && $0.tags?["timecode"] != nil }
        return (streams.first { $0.codecType == "video" }?.tags?["timecode"], track?.tags?["timecode"],
                track?.nbFrames, track?.duration.flatMap(Double.init))
    }

    private func sidecar(_ directory: URL, _ name: String) throws -> Sidecar {
        try Sidecar.decode(Data(contentsOf: directory.appendingPathComponent("\(name).json")))
    }

    /// A clip finished in place (and one finished by a copy) and each of its ISOs start at the rig's fixed label;
    /// the track lasts the whole movie in one sample, and the sidecar says the same.
    func testAFixedStartOnTheMovieFinishedInPlaceAndOnEachIso() throws {
        for byCopy in [false, true] {
            let directory = try ProcessRunner.temporaryDirectory("timecode-fixed")
            let rig = try rig("fixed", in: directory, tail: "timecode: {start: \"01:00:00:00\"}\n")
            _ = try record(rig, ["record A", "wait 1s", "lens wide", "wait 1s", "stop"], in: directory,
                           environment: byCopy ? ["PAUSECAM_FINISH_BY_COPY": "1"] : [:])
            let movies = ["fixed.mov", "fixed.iso/wide.mov", "fixed.iso/tele.mov"]
            for movie in movies {
                let path = directory.appendingPathComponent(movie).path
                let found = try timecodes(path)
                XCTAssertEqual(found.track, "01:00:00:00", "\(movie), copy: \(byCopy)")
                XCTAssertEqual(found.video, "01:00:00:00", "\(movie): the video track refers to it")
                XCTAssertEqual(found.samples, "1", movie)
                XCTAssertEqual(found.duration ?? 0, try MediaProbe(path: path).duration(), accuracy: 0.05, movie)
                XCTAssertEqual(try MediaProbe(path: path).decodeErrors(), "", movie)
            }
            let clip = try sidecar(directory, "fixed")
            XCTAssertEqual(clip.timecode, Sidecar.Timecode(start: "01:00:00:00", startFrame: 108_000, dropFrame: false,
                                                           source: "fixed"))
            XCTAssertEqual(clip.iso?.map { $0.timecode?.start }, ["01:00:00:00", "01:00:00:00"])
        }
    }

    /// The default start is the time of day of the first frame: within the seconds the run took (the machine's
    /// zone), the same in the movie, every ISO and the sidecar; each scene's time of day is in the sidecar.
    func testTheTimeOfDayByDefault() throws {
        let directory = try ProcessRunner.temporaryDirectory("timecode-day")
        let rig = try rig("day", in: directory)
        let before = Date()
        _ = try record(rig, ["record A", "wait 1s", "stop"], in: directory)
        let after = Date()
        let clip = try sidecar(directory, "day")
        let start = try XCTUnwrap(clip.timecode)
        XCTAssertEqual(start.source, "time_of_day")
        XCTAssertEqual(try timecodes(directory.appendingPathComponent("day.mov").path).track, start.start)
        for movie in ["day.iso/wide.mov", "day.iso/tele.mov"] {
            XCTAssertEqual(try timecodes(directory.appendingPathComponent(movie).path).track, start.start, movie)
        }
        XCTAssertEqual(clip.scenes.first?.timeOfDay, start.start)
        let calendar = Calendar.current
        let seconds = { (date: Date) -> Int64 in
            let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
            return Int64((parts.hour! * 60 + parts.minute!) * 60 + parts.second!)
        }
        let (low, high) = (seconds(before) * 30 - 30, seconds(after) * 30 + 60)
        // A run across midnight wraps; the window is then not one range, and the check is left out.
        if low < high {
            XCTAssertTrue((low...high).contains(start.startFrame), "\(start.start) not within \(before)…\(after)")
        }
    }

    /// At 29.97 the label is drop-frame (`;`), in the movie and the sidecar, the FCPXML's media start there, and the
    /// EDL of the ISOs gives each event's source timecode as the movie's own: the first event starts at the movie's first label, and every
    /// source in is that label plus the event's frames. A pause does not break the movie's timecode (record run):
    /// it runs on as one sample for the whole movie, while the sidecar keeps each scene's time of day (the second
    /// scene's later than the first's by the first scene and the pause); `status` shows the label at the timer.
    func testDropFrameAt2997MatchesTheEDLAndRunsOnThroughAPause() throws {
        let directory = try ProcessRunner.temporaryDirectory("timecode-df")
        let rig = try rig("df", in: directory, fps: "29.97", output: ["  exports: [edl, fcpxml]"])
        let run = try record(rig, ["record A", "wait 1s", "lens wide", "wait 1s", "pause", "wait 1.5s", "status",
                                   "resume B", "lens tele", "wait 1s", "stop"], in: directory)
        let clip = try sidecar(directory, "df")
        let start = try XCTUnwrap(clip.timecode)
        XCTAssertTrue(start.dropFrame)
        XCTAssertTrue(start.start.contains(";"), start.start)
        let movie = directory.appendingPathComponent("df.mov").path
        let found = try timecodes(movie)
        XCTAssertEqual(found.track, start.start)
        XCTAssertEqual(found.samples, "1", "one label run for the whole movie, pause and all")
        XCTAssertEqual(found.duration ?? 0, try MediaProbe(path: movie).duration(), accuracy: 0.05)
        for iso in ["df.iso/wide.mov", "df.iso/tele.mov"] {
            XCTAssertEqual(try timecodes(directory.appendingPathComponent(iso).path).track, start.start, iso)
        }
        // An outside reader agrees: MediaInfo's first frame of the QuickTime timecode.
        let mediaInfo = try ProcessRunner.run("/usr/bin/mediainfo", ["--Inform=Other;%TimeCode_FirstFrame%", movie])
        XCTAssertEqual(mediaInfo.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines), start.start,
                       mediaInfo.stderr)

        let edl = try String(contentsOf: directory.appendingPathComponent("df.edl"), encoding: .utf8)
        XCTAssertTrue(edl.contains("FCM: DROP FRAME"), edl)
        let events = edl.components(separatedBy: "\r\n").filter { $0.first?.isNumber ?? false }
            .map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(events.count, 3, edl)
        let labels = Timecode(rate: ntsc)
        XCTAssertEqual(events.first?[4], start.start)
        for event in events {
            let sourceIn = try labels.frame(parsing: event[4]), recordIn = try labels.frame(parsing: event[6])
            XCTAssertEqual(sourceIn, start.startFrame + recordIn, "\(event)")
        }

        // The FCPXML's assets and their clips in the multicam's angles start at the movies' own timecode.
        let fcpxml = directory.appendingPathComponent("df.fcpxml").path
        try MulticamExportEndToEndTests.assertValidFCPXML(fcpxml)
        let document = try String(contentsOfFile: fcpxml, encoding: .utf8)
        let sourceStart = "start=\"\(FCPXMLDocument.time(start.startFrame, rate: ntsc))\""
        // Three angles (the two ISOs, and the program for the lens without one), each an asset and an asset-clip.
        XCTAssertEqual(document.components(separatedBy: "<asset id=").count - 1, 3, document)
        XCTAssertEqual(document.components(separatedBy: sourceStart).count - 1, 6, document)

        // `status` while paused: the movie's label at the timer, held at the pause (the end of the first scene).
        let paused = start.startFrame + Int64((clip.scenes[0].duration * 30000 / 1001).rounded())
        XCTAssertTrue(run.stdoutText.contains("· timecode \(labels.string(forFrame: paused)) ·"), run.stdoutText)

        let days = try clip.scenes.map { try labels.frame(parsing: XCTUnwrap($0.timeOfDay)) }
        XCTAssertEqual(days.count, 2)
        let apart = Double(days[1] - days[0]) * 1001 / 30000
        XCTAssertEqual(apart, clip.scenes[0].duration + 1.5, accuracy: 0.1, "the wall clock ran on during the pause")
    }

    /// Two members of a group on loopback (a real Mosquitto broker, the real clock) record at 29.97 from one
    /// `ctl --group` command, so their first frames fall on the same grid slot: their movies start at the same
    /// drop-frame label, and so does the second scene's edge after a pause, in the movie (start + the scene's
    /// frames) and in the sidecars' time of day.
    func testTwoMembersOnOneGridSlotShareTheTimecodeAtEachSceneEdge() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try ProcessRunner.temporaryDirectory("timecode-group")
        let hosts = ["cam-a", "cam-b"]
        let members = try hosts.map { host -> RunningCommand in
            let group = "group: {name: tc, broker: \"\(broker.url)\", host: \(host), lead: 1s, require_sync: false}\n"
            let rig = try rig("tc-\(host)", in: directory, fps: "29.97", isos: false, tail: group)
            return try RunningCommand(["shell", rig, "--output", directory.appendingPathComponent(host).path],
                                      keepInputOpen: true)
        }
        defer { for member in members { member.closeInput() } }
        for member in members { XCTAssertTrue(member.waitFor("joined group tc"), member.stdout + member.stderr) }
        for (words, needle) in [(["record", "A"], "recording scene 1"), (["pause"], "paused at"),
                                (["resume", "B"], "recording scene 2"), (["stop"], "saved ")] {
            let sent = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                             ["ctl", "--group", "tc", "--broker", broker.url, "--lead", "1s",
                                              "--timeout", "10"] + words)
            XCTAssertEqual(sent.status, 0, sent.stdoutText + sent.stderr)
            for member in members { XCTAssertTrue(member.waitFor(needle), needle + ": " + member.stdout + member.stderr) }
            if needle != "saved " { Thread.sleep(forTimeInterval: 0.7) }
        }
        for member in members {
            member.send("quit")
            member.closeInput()
            XCTAssertEqual(member.waitForExit(seconds: 60), 0, member.stdout + member.stderr)
        }
        let labels = Timecode(rate: ntsc)
        var edges: [[String]] = []
        for host in hosts {
            let folder = directory.appendingPathComponent(host)
            let clip = try sidecar(folder, "tc-\(host)")
            XCTAssertEqual(Set(clip.group?.commands.map(\.outcome) ?? []), ["on_time"], "\(clip.group?.commands ?? [])")
            let start = try XCTUnwrap(clip.timecode)
            XCTAssertEqual(try timecodes(folder.appendingPathComponent("tc-\(host).mov").path).track, start.start)
            XCTAssertEqual(clip.scenes.count, 2)
            let second = start.startFrame + Int64((clip.scenes[1].start * 30000 / 1001).rounded())
            edges.append([start.start, labels.string(forFrame: second)] + clip.scenes.compactMap(\.timeOfDay))
        }
        XCTAssertEqual(edges[0].count, 4, "\(edges)")
        XCTAssertEqual(edges[0], edges[1])
    }
}
