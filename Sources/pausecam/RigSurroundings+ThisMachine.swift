import Foundation
import PauseCamCore
import PauseCamSystem

extension RigSurroundings {
    /// This machine's answers for `check`, `run` and `shell`: movie paths are looked at with `stat` after the same
    /// `~` expansion the lens will use, and the control socket goes in this user's socket folder unless
    /// `socketOption` (`--socket PATH`) places it.
    static func thisMachine(socketOption: String? = nil) -> RigSurroundings {
        let environment = ProcessInfo.processInfo.environment
        return RigSurroundings(movieFileProblem: { MovieFileCheck.problemBeforeRun(at: RigWiring.expandDirectory($0)) },
                               controlSocketDirectory: socketOption == nil
                                   ? ControlSocketPaths.directory(environment: environment) : nil)
    }
}
