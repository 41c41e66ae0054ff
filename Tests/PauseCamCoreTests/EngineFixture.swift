import Foundation
@testable import PauseCamCore
import PauseCamVirtual

/// The engine on the virtual rig and the simulated clock, with a sink that records what it gets.
enum EngineFixture {
    struct Fixture {
        let serialContext: SimulatedSerialContext
        let controller: RigController
        let runner: ScriptRunner
        let factory: RecordingSinkFactory
        let store: MemorySidecarStore
        /// The engine's own events, in order (not the commands').
        var events: [EngineEvent] { box.events }
        let box: EventBox
    }
    /// The engine's own news as `EngineEvent` values, in order, for tests to match on their cases; the events of
    /// commands the test gave are kept apart.
    final class EventBox {
        var events: [EngineEvent] = []
        var commands: [CommandEvent] = []
        func record(_ event: EngineEvent) {
            if case .command(let command) = event { commands.append(command) } else { events.append(event) }
        }
    }

    static func makeRig(fps: Int32 = 30) -> Rig {
        let colors = ["wide": "#d03030", "main": "#20c040", "tele": "#3050e0"]
        let lenses = [("wide", 0.5), ("main", 1.0), ("tele", 3.0)].map { name, zoom in
            Rig.Lens(name: name, zoom: zoom, source: .virtual(color: RGBColor(hex: colors[name]!)!), width: 64,
                     height: 36, rate: FrameRate(fps))
        }
        return Rig(name: "Test rig", output: Rig.OutputSettings(width: 64, height: 36, rate: FrameRate(fps)),
                   audio: Rig.AudioInput(device: .virtual), lenses: lenses, defaultLens: "main",
                   zoomPresets: [Rig.ZoomPreset(name: "2x", lens: "main", digital: 2, ramp: .milliseconds(400))])
    }

    /// The engine for `rig`; a lens named in `startupDelays` takes that long to deliver its first frame after a start.
    /// `cameras` replace the virtual lenses of the same roles; `finishing` and `savedEvents` are the controller's;
    /// `serialContext` and `microphone` replace the fixture's own (a test that drives the microphone itself).
    static func makeFixture(rig: Rig, startupDelays: [String: MediaTime] = [:], cameras replacements: [String: any Camera] = [:],
                            finishing: any BackgroundWorker = InlineWorker(),
                            savedEvents: ClipFinisher.SavedEvents = .whenFinished,
                            devices: any BackgroundWorker = InlineWorker(),
                            serialContext: SimulatedSerialContext = SimulatedSerialContext(),
                            microphone: (any Microphone)? = nil, withoutMicrophone: Bool = false,
                            liveSinks: (any LiveSinkFactory)? = nil) -> Fixture {
        var cameras: [String: any Camera] = [:]
        for lens in rig.lenses {
            guard case .virtual(let color) = lens.source else { continue }
            cameras[lens.name] = VirtualLens(lens: lens.name, color: color, width: lens.width!, height: lens.height!,
                                             rate: lens.rate!, serialContext: serialContext,
                                             startupDelay: startupDelays[lens.name] ?? .zero)
        }
        cameras.merge(replacements) { $1 }
        let factory = RecordingSinkFactory()
        let store = MemorySidecarStore()
        let box = EventBox()
        let controller = makeController(
            rig: rig, cameras: cameras, microphone: withoutMicrophone ? nil : microphone ?? VirtualMicrophone(serialContext: serialContext), sinkFactory: factory,
            store: store, serialContext: serialContext, wallClock: { Date(timeIntervalSince1970: 1_800_000_000) },
            outputDirectory: "/videos", finishing: finishing, savedEvents: savedEvents, devices: devices,
            liveSinks: liveSinks, notify: { box.record($0) })
        controller.startDevices()
        return Fixture(serialContext: serialContext, controller: controller,
                       runner: ScriptRunner(controller: controller, serialContext: serialContext), factory: factory,
                       store: store, box: box)
    }


    /// A controller over a `DeviceHub` and a `ClipController` made here for `rig` and `serialContext`, as the
    /// composition root joins them: `cameras` serve the lens roles (a missing role has no camera yet); `finishing`
    /// runs the slow end of each clip and `devices` starts and stops cameras (`InlineWorker`s by default: the work
    /// is done at once); `savedEvents` says when the context hears of a saved clip; `monitor` gets every lens's
    /// frames while someone watches.
    static func makeController(rig: Rig, cameras: [String: any Camera], microphone: (any Microphone)? = nil,
                               sinkFactory: any MovieSinkFactory = RecordingSinkFactory(),
                               store: any SidecarStore = MemorySidecarStore(), serialContext: any SerialContext,
                               wallClock: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_000) },
                               outputDirectory: String = "/videos", warnings: [String] = [],
                               storage: (any StorageProbe)? = nil, storagePolicy: StoragePolicy = StoragePolicy(),
                               finishing: any BackgroundWorker = InlineWorker(),
                               savedEvents: ClipFinisher.SavedEvents = .whenFinished,
                               devices: any BackgroundWorker = InlineWorker(), monitor: (any MonitorTap)? = nil,
                               liveSinks: (any LiveSinkFactory)? = nil,
                               notify: @escaping (EngineEvent) -> Void = { _ in }) -> RigController {
        let hub = DeviceHub(rig: rig, cameras: cameras, microphone: microphone, serialContext: serialContext,
                            devices: devices, monitor: monitor, notify: notify)
        let clips = ClipController(rig: rig, sinkFactory: sinkFactory, store: store, serialContext: serialContext,
                                   wallClock: wallClock, outputDirectory: outputDirectory, warnings: warnings,
                                   storage: storage, storagePolicy: storagePolicy, finishing: finishing,
                                   savedEvents: savedEvents, notify: notify)
        return RigController(rig: rig, devices: hub, clips: clips, serialContext: serialContext, monitor: monitor,
                             liveSinks: liveSinks, notify: notify)
    }
}
