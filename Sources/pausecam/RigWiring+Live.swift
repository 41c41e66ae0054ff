import Foundation
import PauseCamCore
import PauseCamSystem

/// The live outputs of a rig's `live:`: one `StreamOutput` per destination, its events told on the serial context.
struct RigLiveSinks: LiveSinkFactory {
    let live: Rig.Live
    let serialContext: any SerialContext
    let events: @Sendable (EngineEvent) -> Void

    func makeLiveSinks(for program: LiveProgram) -> [any LiveSink] {
        let serialContext = self.serialContext, events = self.events
        return live.streams.map { stream in
            StreamOutput(settings: StreamOutput.Settings(stream: stream, program: program), on: stream.startsOn,
                         report: { event in serialContext.schedule(at: .zero) { events(event) } })
        }
    }
}
