import Foundation
import PauseCamCore
import PauseCamTestHelpers
import XCTest

/// Random and extreme JSON on a recording member's group topics — wrong types, numbers at and past the `Int64` and
/// `UInt64` limits, NaN-like strings, deep nesting, long strings, control characters, bytes that are not UTF-8 —
/// while it records on the virtual rig. The member must neither crash nor stop: its clip is saved whole, with video
/// and audio, as long as it recorded.
///
/// The messages come from a seeded generator: the seed is in every failure's message, and
/// `PAUSECAM_FUZZ_SEED=N swift test --skip-build --filter GroupFuzzEndToEndTests` replays that run. No message is
/// a valid `pause`, `stop`, `toggle`, `resume` or `record`, nor comes from the member's own name, so the clip's length
/// is the test's to know; valid-looking marks and chapters may land, which is fine.
final class GroupFuzzEndToEndTests: XCTestCase {
    private let publisher = "/usr/bin/mosquitto_pub"
    private static let defaultSeed: UInt64 = 0x5EED_0034

    func testRandomAndExtremeJSONOnTheGroupTopicsNeitherCrashesNorStopsARecordingMember() throws {
        guard FileManager.default.isExecutableFile(atPath: publisher) else {
            throw XCTSkip("\(publisher) is not installed (Debian package mosquitto-clients)")
        }
        let seed = ProcessInfo.processInfo.environment["PAUSECAM_FUZZ_SEED"].flatMap { UInt64($0) } ?? Self.defaultSeed
        let tag = "fuzz seed \(seed) (PAUSECAM_FUZZ_SEED=\(seed) replays it)"
        var generator = FuzzMessageGenerator(seed: seed, now: Int64(Date().timeIntervalSince1970 * 1e9))

        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let directory = try ProcessRunner.temporaryDirectory("group-fuzz")
        let base = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
        let rig = directory.appendingPathComponent("cam-a.yaml")
        try (base.replacingOccurrences(of: "name: E2E rig", with: "name: group-cam-a")
             + "group: {name: studio, broker: \"\(broker.url)\", host: cam-a, lead: 1s, require_sync: false}\n")
            .write(to: rig, atomically: true, encoding: .utf8)
        let member = try RunningCommand(["shell", rig.path, "--output", directory.appendingPathComponent("cam-a").path],
                                        keepInputOpen: true)
        XCTAssertTrue(wait(member, for: "joined group studio"), tag + ": " + member.stdout + member.stderr)
        let recordSent = Date()
        member.send("record Fuzz")
        XCTAssertTrue(wait(member, for: "recording scene 1"), tag + ": " + member.stdout + member.stderr)
        let recordingSeen = Date()

        // Batches in a fixed order, each from one mosquitto_pub reading one message a line; 320 messages in all.
        let batches: [(topic: String, retained: Bool, count: Int, kind: FuzzMessageGenerator.Kind)] = [
            ("pausecam/studio/command", false, 200, .command),
            ("pausecam/studio/status/cam-b", false, 50, .status(host: "cam-b")),
            ("pausecam/studio/status/cam-a", false, 20, .status(host: "cam-a")),
            // A host that is not its topic's, and one in control characters (MQTT tools refuse them in a topic).
            ("pausecam/studio/status/cam-d", false, 10, .status(host: "cam\u{1B}]0;x\u{07}")),
            ("pausecam/studio/command", true, 10, .command),
            ("pausecam/studio/status/cam-c", true, 20, .status(host: "cam-c")),
            ("pausecam/studio/status", false, 10, .command),
        ]
        for batch in batches {
            let lines = (0..<batch.count).map { _ in generator.message(batch.kind) }
            try publish(lines, topic: batch.topic, retained: batch.retained, on: broker, tag: tag)
            guard member.process.isRunning else {
                return XCTFail(tag + ": the member died during the batch for \(batch.topic): " + member.stdout.suffix(3000)
                               + member.stderr)
            }
        }
        // Delivered after every fuzz message (one broker, published in order): once applied, all were handled.
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        let sentinel = #"{"v":1,"group":"studio","from":"fuzz-end","seq":1,"command":"mark fuzz-end","at_ns":"#
            + "\(now)" + #","sent_ns":"# + "\(now)" + #","fps":"30/1"}"#
        try publish([Array(sentinel.utf8)], topic: "pausecam/studio/command", retained: false, on: broker, tag: tag)
        XCTAssertTrue(wait(member, for: "fuzz-end"), tag + ": the sentinel mark never came: "
                      + member.stdout.suffix(3000) + member.stderr)

        guard member.process.isRunning else {
            return XCTFail(tag + ": the member died: " + member.stdout.suffix(3000) + member.stderr)
        }
        XCTAssertFalse(member.stdout.contains("saved "), tag + ": the clip ended before stop: " + member.stdout)
        let stopSent = Date()
        member.send("stop")
        XCTAssertTrue(wait(member, for: "saved "), tag + ": " + member.stdout.suffix(3000) + member.stderr)
        let savedSeen = Date()
        member.send("quit")
        member.closeInput()
        XCTAssertEqual(member.waitForExit(seconds: 60), 0, tag + ": " + member.stdout.suffix(3000) + member.stderr)

        let folder = directory.appendingPathComponent("cam-a")
        let movie = folder.appendingPathComponent("group-cam-a.mov").path
        guard FileManager.default.fileExists(atPath: movie) else {
            return XCTFail(tag + ": no movie in \(folder.path): " + member.stdout.suffix(3000) + member.stderr)
        }
        let probe = MediaProbe(path: movie)
        let streams = try probe.streams()
        XCTAssertEqual(streams.filter { $0.codecType == "video" }.count, 1, tag + ": \(streams)")
        XCTAssertEqual(streams.filter { $0.codecType == "audio" }.count, 1, tag + ": \(streams)")
        // The clip ran from the group's record to its stop, each taking effect the lead (1 s) after it was given:
        // at least from when recording was seen to when stop was given, at most from record given to saved seen.
        let duration = try probe.duration()
        let shortest = stopSent.timeIntervalSince(recordingSeen)
        let longest = savedSeen.timeIntervalSince(recordSent)
        XCTAssertGreaterThanOrEqual(duration, shortest - 0.25, tag + ": the movie is shorter than the recording")
        XCTAssertLessThanOrEqual(duration, longest + 0.25, tag + ": the movie is longer than the recording")
        XCTAssertEqual(try probe.audioDuration(), duration, accuracy: 0.2, tag + ": audio and video lengths differ")
        let sidecar = try Sidecar.decode(Data(contentsOf: folder.appendingPathComponent("group-cam-a.json")))
        XCTAssertTrue(sidecar.complete, tag)
        let titles = sidecar.scenes.map(\.title)
        XCTAssertEqual(titles.first, "Fuzz", tag + ": \(titles)")
        // A fuzz `chapter` lands as "fuzz-N", or as "Scene N" when it names none.
        XCTAssertTrue(titles.dropFirst().allSatisfy { $0.hasPrefix("fuzz-") || $0.hasPrefix("Scene ") },
                      tag + ": only the fuzz's own chapters may start scenes: \(titles)")
        let dropped = sidecar.group?.dropped ?? [:]
        // Most of the 300 messages it subscribes to are ignored: fewer means they never reached it, not that it held.
        XCTAssertGreaterThan(dropped.values.reduce(0, +), 150, tag + ": the fuzz did not reach the member: \(dropped)")
        print("\(tag): \(String(format: "%.2f", duration)) s recorded; ignored by reason: \(dropped.sorted { $0.key < $1.key }); "
              + "\(sidecar.scenes.flatMap(\.markers).count) marks and \(titles.count - 1) chapters landed")
    }

    /// Publishes each of `lines` as one message on `topic` with one `mosquitto_pub -l` (QoS 1: it ends once the
    /// broker has them all).
    private func publish(_ lines: [[UInt8]], topic: String, retained: Bool, on broker: MosquittoBroker,
                         tag: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: publisher)
        process.arguments = ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-t", topic, "-l"]
            + (retained ? ["-r"] : [])
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        var bytes: [UInt8] = []
        for line in lines { bytes += line + [0x0A] }
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, tag + ": mosquitto_pub on \(topic): " + message)
    }

    /// Waits until `member`'s output holds `needle`; false when the deadline passes or it exited.
    private func wait(_ member: RunningCommand, for needle: String, seconds: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if member.stdout.contains(needle) { return true }
            if !member.process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return member.stdout.contains(needle)
    }
}

/// The fuzz's messages: a plausible message of the group's schema with one to three fields changed into something
/// hostile, or a payload that is not such a message at all. Deterministic for a seed (SplitMix64).
struct FuzzMessageGenerator {
    enum Kind {
        case command
        case status(host: String)
    }

    private var state: UInt64
    private let now: Int64
    private var counter = 0

    init(seed: UInt64, now: Int64) {
        state = seed
        self.now = now
    }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// JSON values that are numbers at or past a limit, the wrong type, or text that looks like a number.
    private mutating func hostileValue(depth: Int = 0) -> String {
        let fixed = [
            "\(Int64.max)", "\(Int64.min)", "9223372036854775808", "-9223372036854775809", "\(UInt64.max)",
            "18446744073709551616", "9007199254740993", "-1", "0", "-0", "1.5", "1e308", "-1e308", "1e400", "-1e400",
            "4.9e-324", "1e-400", "0.1e1", #""NaN""#, #""Infinity""#, #""-Infinity""#, #""nan""#, #""""#, "null",
            "true", "false", "[]", "{}", #""9223372036854775807""#, #""30/1""#, #""0/0""#, #""1/0""#, #""-30/1""#,
            #""2147483648/1""#, #""30000/1001""#, #""\u0000""#, #""\u001b[2J\u0007""#, "\"\u{1B}]0;raw\u{07}\"",
            #""\ud800""#, "1e10", "86400.5", "-86400",
        ]
        switch below(10) {
        case 0 where depth < 3: return "[" + (0..<below(4)).map { _ in hostileValue(depth: depth + 1) }.joined(separator: ",") + "]"
        case 1 where depth < 3: return #"{"a":"# + hostileValue(depth: depth + 1) + "}"
        case 2: return "\"" + String(repeating: pick(["a", "é", "\\u001b", "\\\"", "𝄞"]), count: pick([100, 1000, 4100])) + "\""
        case 3: return "\(Int64(bitPattern: next()))"
        case 4: return "\(next())"
        default: return pick(fixed)
        }
    }

    private static let numberKeys: Set<String> = ["seq", "at_ns", "sent_ns", "scene", "timer", "dropped", "seen_ns"]

    /// An integer or decimal that decodes, at or past a limit of what a sender writes.
    private mutating func extremeNumber() -> String {
        pick(["\(Int64.max)", "\(Int64.min)", "\(Int64.max - 1)", "\(UInt64.max)", "\(UInt64(1) << 53 + 1)", "-1", "0",
              "4102444800000000001", "4102444800000000000", "\(Int64(bitPattern: next()))", "\(next() >> 1)",
              "1e10", "9.2233720368547758e18", "-1e10", "1e300", "\(Int32.max)", "\(Int64(Int32.min))"])
    }

    /// A command line that is never a valid `pause`, `stop`, `toggle`, `resume` or `record`.
    private mutating func commandLine() -> String {
        pick(["mark fuzz-\(counter)", "mark fuzz \\u001b]0;PWNED\\u0007\\u001b[2J", "chapter fuzz-\(counter)",
              "lens wide", "zoom 2", "quit", "rm -rf /", "", " ", "mark " + String(repeating: "m", count: 4200),
              "mark \\u0000", "chapter", "wait 1h", "mark \\ud800", "pauseX", "stopp"])
    }

    private mutating func fields(_ kind: Kind) -> [(String, String)] {
        let at = now + Int64(below(4_000_000_000)) - 1_000_000_000
        switch kind {
        case .command:
            return [("v", "1"), ("group", #""studio""#),
                    ("from", pick([#""fuzz-\#(counter)""#, #""cam-b""#, #""a/b""#, #""""#, #""x\u001by""#, ##""#""##])),
                    ("seq", "\(counter + 1)"), ("command", "\"" + commandLine() + "\""), ("at_ns", "\(at)"),
                    ("sent_ns", "\(now)"), ("fps", pick([#""30/1""#, #""60/2""#, #""25/1""#]))]
        case .status(let host):
            let escapedHost = host.unicodeScalars.map { $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : String($0) }
                .joined()
            return [("v", "1"), ("host", "\"\(escapedHost)\""), ("state", pick([#""recording""#, #""idle""#, #""rec\u001b[2J""#])),
                    ("scene", "\(below(5))"), ("timer", "\(below(100))"), ("dropped", "0"),
                    ("seen_ns", "\(now)"), ("online", "true"), ("fps", pick([#""30/1""#, #""25/1""#]))]
        }
    }

    /// One message's payload: never holds a line feed (each is one line for `mosquitto_pub -l`) nor a NUL.
    mutating func message(_ kind: Kind) -> [UInt8] {
        counter += 1
        switch below(12) {
        case 0:
            // Not a message of the schema at all: a bare value, deep nesting, or bytes that are not UTF-8.
            switch below(4) {
            case 0: return Array(hostileValue().utf8)
            case 1: let depth = pick([64, 600, 2000]); return Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
            case 2: return [0x7B, 0xFF, 0xFE, 0xC0, 0x80, 0x22, 0x1B, 0x07, 0x7D]
            // No NUL: mosquitto_pub -l stops reading at one (seen with mosquitto-clients 2.0.11).
            default: return (0..<below(300)).map { _ in UInt8(truncatingIfNeeded: next()) }.map { $0 == 0x0A || $0 == 0 ? 0x20 : $0 }
            }
        default:
            var fields = fields(kind)
            for _ in 0..<pick([1, 1, 1, 2, 3]) {
                guard !fields.isEmpty else { break }
                switch below(6) {
                case 0: fields.remove(at: below(fields.count))
                case 1: fields.append((pick(["extra", "at_ns", "v", "seq"]), hostileValue()))
                case 2: fields[below(fields.count)].1 = hostileValue()
                default:
                    // A number of the right type at or past its limit: what the decoder's ranges are for.
                    let numbers = fields.indices.filter { Self.numberKeys.contains(fields[$0].0) }
                    fields[pick(numbers)].1 = extremeNumber()
                }
            }
            let text = "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
            return Array(text.utf8)
        }
    }
}
