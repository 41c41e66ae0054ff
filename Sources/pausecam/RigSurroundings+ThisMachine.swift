import Foundation
import PauseCamCore
import PauseCamSystem

extension RigSurroundings {
    /// This machine's answers for `check`, `run` and `shell`: movie paths are looked at with `stat` after the same
    /// `~` expansion the lens will use, and the control socket goes in this user's socket folder unless
    /// `socketOption` (`--socket PATH`) places it. The rig's output folder is looked at (never created) unless
    /// `outputOption` (`--output DIR`) replaces it.
    static func thisMachine(socketOption: String? = nil, outputOption: String? = nil) -> RigSurroundings {
        let environment = ProcessInfo.processInfo.environment
        var surroundings = RigSurroundings(movieFileProblem: { MovieFileCheck.problemBeforeRun(at: RigWiring.expandDirectory($0)) },
                               controlSocketDirectory: socketOption == nil
                                   ? ControlSocketPaths.directory(environment: environment) : nil,
                               outputFolderProblem: { directory in
                                   outputOption == nil ? OutputFolder.problem(RigWiring.expandDirectory(directory)) : nil
                               },
                               hostName: ProcessInfo.processInfo.hostName)
        surroundings.readableByOthers = { path in
            let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
            return mode.map { $0 & 0o044 != 0 } ?? false
        }
        return surroundings
    }

    /// For `run` and `shell`: the rig's warnings printed to standard error as `FILE:LINE:COLUMN: warning: …`,
    /// after refusing the rig (a `RigError`, exit status 2) when its output folder cannot be used — a run would
    /// otherwise fail on it with no position, after opening the devices.
    static func reportBeforeRun(_ rig: Rig) throws(RigError) {
        var refusals: [RigDiagnostic] = []
        for warning in rig.warnings {
            if case .outputFolder(let problem) = warning.kind {
                refusals.append(RigDiagnostic("output.directory: \(problem); choose a folder you can write in "
                                              + "output.directory or with --output", at: warning.mark))
            }
        }
        if !refusals.isEmpty { throw RigError(refusals) }
        for warning in rig.warnings { StandardStreamWriter.error.write(warning.description + "\n") }
    }
}
