import PauseCamCore

/// Writes a `Command` back as the words a user would type (for logs and transcripts).
enum CommandFormatter {
    static func format(_ command: Command) -> String {
        switch command {
        case .record(let name): return name.map { "record \($0)" } ?? "record"
        case .pause: return "pause"
        case .resume(let name): return name.map { "resume \($0)" } ?? "resume"
        case .stop: return "stop"
        case .lens(.named(let n)): return "lens \(n)"
        case .lens(.next): return "lens next"
        case .zoom(.preset(let p)): return "zoom \(p)"
        case .zoom(.factor(let f)): return "zoom \(f)"
        case .exposure(.preset(let p)): return "exposure \(p)"
        case .exposure(.auto): return "exposure auto"
        case .exposure(.bias(let ev)): return "exposure \(ev >= 0 ? "+" : "")\(ev)"
        case .focus(.auto): return "focus auto"
        case .focus(.manual(let n)): return "focus \(n)"
        case .mark(let text): return "mark \(text)"
        case .wait(let d): return "wait \(DurationParser.clockString(d, decimals: 3))"
        case .status: return "status"
        case .devices: return "devices"
        case .run(let s): return "run \(s)"
        case .last(let play): return play ? "last play" : "last"
        case .help(let topic): return topic.map { "help \($0)" } ?? "help"
        case .quit: return "quit"
        }
    }
}
