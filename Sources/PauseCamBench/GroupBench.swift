import Foundation
import PauseCamCore
import PauseCamTestSupport

/// A group of three members on this machine (bench/README.md, "Groups"): a throw-away Mosquitto broker on loopback
/// and three `pausecam shell` processes of the release binary with virtual-lens rigs on the real clock
/// (`require_sync: false`: the figures are about delivery and slots, not about this machine's NTP).
///
/// Skew: `pausecam ctl --group` sends 20 boundaries (record; pause, resume and chapter in turn; stop) with ctl's
/// lead of 250 ms, each once every member has applied the one before and some recording has gone by;
/// `group_boundary_skew_frames` is the largest spread of any scene edge across the three sidecars, in frames
/// (`GroupSidecarComparison`; goal 0), and `group_late_commands` the commands that reached a member after their time.
///
/// Lead: the same kind of clip, short (8 boundaries), typed into one member's shell with the rig's `lead:` set to
/// 250, 100, 50, 20, 10 and 5 ms in turn; `group_min_lead_ms_zero_late` is the smallest lead from which every longer
/// lead tried also had no late command. It measures this machine's loopback delivery under its load at that moment
/// (the broker, three members, their encoders and whatever else runs), not a network's.
enum GroupBench {
    static let hosts = ["cam-a", "cam-b", "cam-c"]
    static let leadsMilliseconds = [250, 100, 50, 20, 10, 5]

    /// Runs both parts and returns the figures for `bench/results.json`; nil (and says why) when the release
    /// `pausecam` or Mosquitto is missing. A part that fails says so and leaves its figures out.
    static func run() -> [String: Any]? {
        guard let pausecam = pausecamBinary() else {
            print("group skipped: no pausecam beside this PauseCamBench (swift build -c release --product pausecam)")
            return nil
        }
        guard FileManager.default.isExecutableFile(atPath: MosquittoProcess.program) else {
            print("group skipped: \(MosquittoProcess.program) is not installed (Debian package mosquitto)")
            return nil
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-bench-group-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = Date()
        var results: [String: Any] = [:]
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let broker = try MosquittoProcess(folderName: "pausecam-bench-mosquitto-\(getpid())")
            defer { broker.stop() }
            let takes = Take(pausecam: pausecam, broker: broker, folder: folder)

            // record S1, pause, resume S2, chapter S3, pause, resume S4, … chapter S13, stop: 20 boundaries.
            let middle = (0..<18).map { ["pause", "resume S\($0 / 3 * 2 + 2)", "chapter S\($0 / 3 * 2 + 3)"][$0 % 3] }
            let boundaries = ["record S1"] + middle + ["stop"]
            switch takes.record(group: "skew", lead: nil, boundaries: boundaries, viaControl: true) {
            case .success(let take):
                let comparison = take.comparison
                results["group_boundary_skew_frames"] = comparison.maximumSkewFrames
                results["group_late_commands"] = comparison.lateCommands
                results["group_boundaries"] = boundaries.count
                let margin = comparison.smallestMarginNanoseconds.map { Double($0) / 1e6 }
                results["group_smallest_margin_ms"] = margin ?? NSNull()
                print(String(format: "group: 3 members, %d boundaries by ctl --group (lead 250 ms): "
                             + "group_boundary_skew_frames %.2f over %d scene edges, group_late_commands %d of %d "
                             + "deliveries%@; the closest delivery on time came %@ before its time", boundaries.count,
                             comparison.maximumSkewFrames, comparison.edges.count, comparison.lateCommands,
                             comparison.commands,
                             comparison.largestLateBy.map { String(format: " (at most %.1f ms late)", $0 * 1e3) } ?? "",
                             margin.map { String(format: "%.1f ms", $0) } ?? "-") + take.lateList)
            case .failure(let problem):
                print("group skew: \(problem)")
            }
            fflush(nil)

            var lateByLead: [String: Any] = [:]
            var zeroLate: [Int: Bool] = [:]
            let short = ["record L1", "pause", "resume L2", "chapter L3", "pause", "resume L4", "chapter L5", "stop"]
            for lead in leadsMilliseconds {
                switch takes.record(group: "lead\(lead)", lead: lead, boundaries: short, viaControl: false) {
                case .success(let take):
                    let comparison = take.comparison
                    lateByLead[String(lead)] = comparison.lateCommands
                    zeroLate[lead] = comparison.lateCommands == 0
                    print(String(format: "group lead %3d ms: %d late of %d deliveries%@, skew %.2f frames; closest "
                                 + "delivery on time %@ before its time", lead, comparison.lateCommands,
                                 comparison.commands,
                                 comparison.largestLateBy.map { String(format: " (at most %.1f ms late)", $0 * 1e3) } ?? "",
                                 comparison.maximumSkewFrames, comparison.smallestMarginNanoseconds.map {
                                     String(format: "%.1f ms", Double($0) / 1e6)
                                 } ?? "-") + take.lateList)
                case .failure(let problem):
                    lateByLead[String(lead)] = NSNull()
                    zeroLate[lead] = false
                    print("group lead \(lead) ms: \(problem)")
                }
                fflush(nil)
            }
            results["group_late_commands_by_lead_ms"] = lateByLead
            let smallest = smallestLeadWithoutLateCommands(zeroLate)
            results["group_min_lead_ms_zero_late"] = smallest ?? NSNull()
            print("group_min_lead_ms_zero_late \(smallest.map(String.init) ?? "none of \(leadsMilliseconds)") "
                  + "(loopback, load average \(loadAverage()); a command's time is also snapped to the next frame, "
                  + "so it had up to one frame more)")
        } catch {
            print("group: \(error)")
        }
        print(String(format: "group bench took %.0f s", Date().timeIntervalSince(started)))
        return results
    }

    /// The smallest lead from which every longer lead tried also had no late command; nil when the longest had one.
    static func smallestLeadWithoutLateCommands(_ zeroLate: [Int: Bool]) -> Int? {
        var smallest: Int?
        for lead in zeroLate.keys.sorted(by: >) {
            guard zeroLate[lead] == true else { break }
            smallest = lead
        }
        return smallest
    }

    /// The release `pausecam` beside this executable (SwiftPM builds both into one folder).
    static func pausecamBinary() -> URL? {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        let candidate = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("pausecam")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }

    /// `/proc/loadavg`'s first three fields: the load the lead figure was taken under.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// One clip recorded by three members of a group.
    struct Take {
        var pausecam: URL
        var broker: MosquittoProcess
        var folder: URL

        /// Starts the three members (with `lead` ms, or the rig's default), sends `boundaries` — through
        /// `pausecam ctl --group` with `viaControl`, else typed into the first member's shell — each once every
        /// member has applied the one before, ends the members and compares their sidecars.
        func record(group: String, lead: Int?, boundaries: [String],
                    viaControl: Bool) -> Result<TakeFigures, TakeProblem> {
            let directory = folder.appendingPathComponent(group)
            let environment = ["XDG_RUNTIME_DIR": directory.appendingPathComponent("runtime").path,
                               "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path]
            var members: [GroupBenchMember] = []
            defer { for member in members { member.quit(seconds: 10) } }
            do {
                for path in environment.values {
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                            attributes: [.posixPermissions: 0o700])
                }
                for host in GroupBench.hosts {
                    let rig = directory.appendingPathComponent("\(host).yaml")
                    try rigText(host: host, group: group, lead: lead).write(to: rig, atomically: true, encoding: .utf8)
                    members.append(try GroupBenchMember(pausecam: pausecam, host: host, rig: rig,
                                                        output: directory.appendingPathComponent(host),
                                                        environment: environment))
                }
            } catch {
                return .failure(TakeProblem("could not start the members: \(error)"))
            }
            if let problem = waitAll(members, "joined group \(group)", seconds: 30) { return .failure(problem) }

            var scene = 0, pauses = 0
            for (step, line) in boundaries.enumerated() {
                let word = line.split(separator: " ").first.map(String.init) ?? line
                var needle: String, count = 1
                switch word {
                case "record", "resume":
                    scene += 1
                    needle = "recording scene \(scene)"
                case "chapter":
                    scene += 1
                    needle = "scene \(scene) \"\(line.dropFirst(word.count + 1))\""
                case "pause":
                    pauses += 1
                    (needle, count) = ("paused at", pauses)
                default:
                    needle = "saved "
                }
                if viaControl {
                    if let problem = control(group: group, line) { return .failure(problem) }
                } else {
                    members[0].send(line)
                }
                if let problem = waitAll(members, needle, count: count, seconds: 20) { return .failure(problem) }
                // Some recording between boundaries, of a few lengths (the scenes' content; equality is measured).
                if step < boundaries.count - 1 { Thread.sleep(forTimeInterval: 0.15 + 0.05 * Double(step % 4)) }
            }
            for member in members {
                guard member.quit() == 0 else {
                    return .failure(TakeProblem("\(member.host) did not end cleanly: \(member.tail)"))
                }
            }
            do {
                let sidecars = try members.map { member in
                    try Sidecar.decode(Data(contentsOf: member.output.appendingPathComponent("group-\(member.host).json")))
                }
                let late = sidecars.flatMap { sidecar in
                    (sidecar.group?.commands ?? []).filter { $0.outcome == "late" }.map { "\($0.command) on \(sidecar.group?.host ?? "?")" }
                }
                return .success(TakeFigures(comparison: try GroupSidecarComparison(sidecars: sidecars), late: late))
            } catch {
                return .failure(TakeProblem("the sidecars: \(error)"))
            }
        }

        /// A member's rig: one virtual lens at 320x180 (the encoders stay light, so the figure is about delivery,
        /// not a machine that cannot keep up), virtual sound, the group on the bench's broker.
        func rigText(host: String, group: String, lead: Int?) -> String {
            """
            name: group-\(host)
            output:
              name: "{rig}"
              container: mov
              size: 320x180
              fps: 30
              video: {codec: h264, preset: ultrafast, crf: 23, keyframe_interval: 2s}
            audio:
              device: virtual
            lenses:
              main:
                zoom: 1
                virtual: {color: "#20c040"}
                size: 320x180
                fps: 30
            default_lens: main
            group: {name: \(group), broker: "\(broker.url)", host: \(host), \(lead.map { "lead: \($0)ms, " } ?? "")require_sync: false}

            """
        }

        /// `pausecam ctl --group GROUP --broker URL LINE`; a problem when it did not say the group has it.
        func control(group: String, _ line: String) -> TakeProblem? {
            let process = Process()
            process.executableURL = pausecam
            process.arguments = ["ctl", "--group", group, "--broker", broker.url, "--timeout", "10"]
                + line.split(separator: " ").map(String.init)
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            do { try process.run() } catch { return TakeProblem("ctl did not start: \(error)") }
            let said = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                return TakeProblem("ctl --group \(group) \(line) exited \(process.terminationStatus): \(said)")
            }
            return nil
        }

        /// Waits until every member has said `needle` `count` times; a problem naming the first that did not.
        func waitAll(_ members: [GroupBenchMember], _ needle: String, count: Int = 1, seconds: Double) -> TakeProblem? {
            let deadline = Date().addingTimeInterval(seconds)
            for member in members where !member.wait(for: needle, count: count, until: deadline) {
                return TakeProblem("\(member.host) did not say \"\(needle)\" ×\(count) within \(Int(seconds)) s: "
                                   + member.tail)
            }
            return nil
        }
    }

    /// What one take measured: the comparison of the sidecars, and which commands came late where.
    struct TakeFigures {
        var comparison: GroupSidecarComparison
        /// "pause on cam-b" for each late delivery.
        var late: [String]
        /// "; late: record on cam-a, …" when any came late, and "; apart: scene 3 end 1 frame, …" for every scene
        /// edge the members did not share.
        var lateList: String {
            let apart = comparison.edges.filter { $0.spreadFrames > 0 }.map {
                "scene \($0.scene) \($0.isEnd ? "end" : "start") " + String(format: "%.2f", $0.spreadFrames)
            }
            return (late.isEmpty ? "" : "; late: " + late.joined(separator: ", "))
                + (apart.isEmpty ? "" : "; frames apart: " + apart.joined(separator: ", "))
        }
    }

    /// Why a take gave no figures: what did not happen, with the member's last words.
    struct TakeProblem: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
