import Foundation
import PauseCamCore
import PauseCamSystem

/// The live outputs of a rig's `live:`: one `StreamOutput` per destination.
struct RigLiveSinks: LiveSinkFactory {
    let live: Rig.Live

    func makeLiveSinks(for program: LiveProgram, report: @escaping @Sendable (EngineEvent) -> Void) -> [any LiveSink] {
        live.streams.map { stream in
            StreamOutput(settings: StreamOutput.Settings(stream: stream, program: program), on: stream.startsOn,
                         report: report)
        }
    }
}
