import Foundation
import PauseCamCore

/// The engine as the benches run it: a `DeviceHub` and a `ClipController` for `rig`, joined under a
/// `RigController`, as the composition root joins them (without its real devices and watchers).
enum BenchEngine {
    /// A controller whose lens roles are served by `cameras`, writing through `sinkFactory` and `store` into
    /// `outputDirectory`; `finishing` and `devices` are `InlineWorker`s unless a bench wants the real workers.
    static func controller(rig: Rig, cameras: [String: any Camera], microphone: (any Microphone)?,
                           sinkFactory: any MovieSinkFactory, store: any SidecarStore, serialContext: any SerialContext,
                           outputDirectory: String, finishing: any BackgroundWorker = InlineWorker(),
                           savedEvents: ClipFinisher.SavedEvents = .whenFinished, monitor: (any MonitorTap)? = nil,
                           liveSinks: (any LiveSinkFactory)? = nil,
                           notify: @escaping (EngineEvent) -> Void) -> RigController {
        let hub = DeviceHub(rig: rig, cameras: cameras, microphone: microphone, serialContext: serialContext,
                            devices: InlineWorker(), monitor: monitor, notify: notify)
        let clips = ClipController(rig: rig, sinkFactory: sinkFactory, store: store, serialContext: serialContext,
                                   wallClock: { Date() }, outputDirectory: outputDirectory, finishing: finishing,
                                   savedEvents: savedEvents, notify: notify)
        return RigController(rig: rig, devices: hub, clips: clips, serialContext: serialContext, monitor: monitor,
                             liveSinks: liveSinks, notify: notify)
    }
}
