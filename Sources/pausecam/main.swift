import Foundation
import PauseCamCore
import PauseCamSystem

// The composition root: parse the command line and hand over to one command. Nothing else lives here.

// Before anything opens a file: a closed standard descriptor (`>&-`) gets /dev/null, and a vanished pipe reader
// (`| head -1`) means EPIPE, not a SIGPIPE that would kill a recording and leave only its `.partial`.
StandardStreamWriter.fillClosedStandardDescriptors()
BrokenPipe.ignore()

func fail(_ message: String, status: Int32) -> Never {
    StandardStreamWriter.error.write("pausecam: " + message + "\n")
    exit(status)
}

let words = Array(CommandLine.arguments.dropFirst())
do {
    guard let command = words.first else {
        print(HelpText.main)
        exit(2)
    }
    // `ctl` sends its words as they are (`status --json` is a request), so they never meet `Arguments`.
    if command == "ctl" { exit(try CtlCommand.run(Array(words.dropFirst()))) }
    let arguments = try Arguments(Array(words.dropFirst()))
    let wantsHelp = arguments.flags.contains("help")
    switch command {
    case "--help", "-h", "help":
        switch arguments.positional.first {
        case "run": print(HelpText.run)
        case "check": print(HelpText.check)
        case "devices": print(HelpText.devices)
        case "shell": print(HelpText.shell)
        case "ctl": print(HelpText.ctl)
        case "export": print(HelpText.export)
        case "doctor": print(HelpText.doctor)
        case nil: print(HelpText.main)
        case let topic?:
            throw UsageError("no command \"\(topic)\"\(SpellingSuggestion.clause(for: topic, in: HelpText.topics)); "
                             + "help knows \(HelpText.topics.joined(separator: ", "))")
        }
        exit(0)
    case "--version":
        print("pausecam 0.1.0")
        exit(0)
    case "run":
        if wantsHelp { print(HelpText.run); exit(0) }
        exit(try RunCommand.run(arguments))
    case "check":
        if wantsHelp { print(HelpText.check); exit(0) }
        try arguments.allow(options: [], flags: ["measure", "list-scripts"])
        guard !arguments.positional.isEmpty else { throw UsageError("check needs at least one rig file") }
        if arguments.flags.contains("list-scripts") { exit(listScripts(arguments.positional)) }
        exit(runCheck(arguments.positional, measure: arguments.flags.contains("measure")))
    case "devices":
        if wantsHelp { print(HelpText.devices); exit(0) }
        try arguments.allow(options: ["rig"], flags: ["json"])
        guard arguments.positional.isEmpty else { throw UsageError("devices takes no words, only --json and --rig RIG") }
        let rig = try arguments.options["rig"].map { try RigLoader.load(path: $0) }
        exit(runDevices(json: arguments.flags.contains("json"), rig: rig))
    case "doctor":
        if wantsHelp { print(HelpText.doctor); exit(0) }
        exit(try DoctorCommand.run(arguments))
    case "shell":
        if wantsHelp { print(HelpText.shell); exit(0) }
        exit(try ShellCommand.run(arguments))
    case "export":
        if wantsHelp { print(HelpText.export); exit(0) }
        exit(try ExportCommand.run(arguments))
    default:
        if command.hasSuffix(".yaml") || command.hasSuffix(".yml") || FileManager.default.fileExists(atPath: command) {
            if wantsHelp { print(HelpText.shell); exit(0) }
            exit(try ShellCommand.run(try Arguments(words)))
        }
        throw UsageError("unknown command \"\(command)\"\(SpellingSuggestion.clause(for: command, in: ["run", "check", "devices", "doctor", "shell", "export", "ctl", "help", "--help", "--version"]))")
    }
} catch let error as UsageError {
    fail("\(error)\nTry `pausecam --help`.", status: 2)
} catch let error as RigWiring.DeviceError {
    fail("\(error)", status: 1)
} catch let error as RigError {
    fail("\(error)", status: 2)
} catch let error as SocketError {
    // A second PauseCam on a rig that one already runs is how it was asked, not a failure of the machine.
    if case .held = error { fail("\(error)", status: 2) }
    fail("\(error)", status: 1)
} catch {
    fail("\(error)", status: 1)
}
