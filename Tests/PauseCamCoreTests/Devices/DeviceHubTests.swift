import Foundation
import XCTest
@testable import PauseCamCore

/// The hub's hot-plug paths driven the way the udev watchers drive them — events from another thread, devices
/// opened by a `DeviceOpening` — with fakes in place of V4L2 and ALSA: which lens a plugged camera serves, which
/// node an unplug detaches, which sound card's removal stops the microphone, and when a plugged card is opened.
final class DeviceHubTests: XCTestCase {
    /// A camera that only says whether it runs.
    final class StillCamera: Camera, @unchecked Sendable {
        let displayName: String
        let format = CameraFormat(width: 64, height: 36, rate: FrameRate(30), pixelFormat: .yuv420p)
        var running = false
        init(_ name: String) { displayName = name }
        func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) {
            running = true
        }
        func stop() { running = false }
    }

    /// A microphone whose end the test reports when it likes.
    final class EndableMicrophone: Microphone, @unchecked Sendable {
        let displayName: String
        let sampleRate: Int32 = 48_000
        let channels = 1
        var running = false
        var onEnd: (@Sendable (String) -> Void)?
        init(_ name: String) { displayName = name }
        func start(deliver: @escaping @Sendable (AudioChunk) -> Void, onEnd: @escaping @Sendable (String) -> Void) {
            running = true
            self.onEnd = onEnd
        }
        func stop() { running = false }
    }

    /// Opens what the test says: a camera per node (or an error), and microphones when the test lets them open.
    final class FakeOpener: DeviceOpening, @unchecked Sendable {
        var cameras: [String: StillCamera] = [:]
        var microphone: EndableMicrophone?
        /// The microphone requests seen: the card and the lens node it was given.
        var microphoneRequests: [(card: Int, lensNode: String?)] = []
        /// When set, a microphone request is held here instead of answered at once.
        var heldOpen: (@Sendable (any Microphone) -> Void)?
        var holdMicrophone = false

        struct CannotOpen: Error, CustomStringConvertible { var description: String { "Device or resource busy" } }

        func openCamera(_ identity: CameraIdentity, for lens: Rig.Lens) throws -> any Camera {
            guard let camera = cameras[identity.devicePath] else { throw CannotOpen() }
            return camera
        }

        func openMicrophone(on card: MicrophoneIdentity, lensNode: String?,
                            opened: @escaping @Sendable (any Microphone) -> Void) {
            microphoneRequests.append((card.card, lensNode))
            guard let microphone else { return }
            if holdMicrophone { heldOpen = opened } else { opened(microphone) }
        }
    }

    /// What the hub reported and told, as text.
    final class Log {
        var reports: [String] = []
        var events: [EngineEvent] = []
    }

    private let serialContext = SimulatedSerialContext()
    private let usb = MicrophoneIdentity(card: 2, name: "USB Audio")

    /// A rig with one real camera lens (matched by its node) whose microphone is the camera's own.
    private func makeRig() -> Rig {
        Rig(name: "Plug rig", output: Rig.OutputSettings(width: 64, height: 36, rate: FrameRate(30)),
            audio: Rig.AudioInput(device: .ofLens("main")),
            lenses: [Rig.Lens(name: "main", source: .camera(.device("/dev/video4")))], defaultLens: "main")
    }

    private func makeHub(cameras: [String: any Camera] = [:], microphone: (any Microphone)? = nil,
                         opener: FakeOpener, lensNodes: [String: String] = [:],
                         microphoneCard: MicrophoneIdentity? = nil, log: Log) -> DeviceHub {
        let hub = DeviceHub(rig: makeRig(), cameras: cameras, microphone: microphone, serialContext: serialContext,
                            devices: InlineWorker(), opener: opener, lensNodes: lensNodes,
                            microphoneCard: microphoneCard, notify: { log.events.append($0) })
        hub.report = { report in
            switch report {
            case .cameraAttached(let lens, let camera): log.reports.append("attached \(lens) \(camera)")
            case .cameraLost(let lens, let reason): log.reports.append("lost \(lens): \(reason)")
            case .microphoneEnded(let reason): log.reports.append("microphone ended: \(reason)")
            default: break
            }
        }
        return hub
    }

    func testAPluggedCameraServesItsLensAndUnpluggingItsNodeDetachesIt() {
        let opener = FakeOpener(), log = Log()
        let camera = StillCamera("/dev/video4 (C920)")
        opener.cameras["/dev/video4"] = camera
        let hub = makeHub(opener: opener, log: log)
        let node = CameraIdentity(devicePath: "/dev/video4", name: "C920")

        hub.handle(.attached(CameraIdentity(devicePath: "/dev/video7", name: "Other")))
        serialContext.runDue()
        XCTAssertEqual(log.reports, [], "a camera that matches no lens is not opened")

        hub.handle(.attached(node))
        serialContext.runDue()
        XCTAssertTrue(hub.cameras["main"] === camera)
        XCTAssertEqual(hub.lensNodes, ["main": "/dev/video4"])
        XCTAssertEqual(log.reports, ["attached main /dev/video4 (C920)"])

        XCTAssertTrue(hub.startCamera(lens: "main"))
        XCTAssertTrue(camera.running)
        hub.handle(.detached(node))
        serialContext.runDue()
        XCTAssertNil(hub.cameras["main"])
        XCTAssertEqual(hub.lensNodes, [:])
        XCTAssertFalse(camera.running, "the unplugged camera is stopped")
        XCTAssertEqual(log.reports.last, "lost main: /dev/video4 was unplugged")

        hub.handle(.detached(node))
        serialContext.runDue()
        XCTAssertEqual(log.reports.count, 2, "a second remove of the same node changes nothing")
    }

    func testACameraThatCannotOpenIsToldAndServesNothing() {
        let opener = FakeOpener(), log = Log()
        let hub = makeHub(opener: opener, log: log)
        hub.handle(.attached(CameraIdentity(devicePath: "/dev/video4", name: "C920")))
        serialContext.runDue()
        XCTAssertNil(hub.cameras["main"])
        XCTAssertEqual(log.reports, [])
        let told = EngineEvent.notice(.pluggedCameraNotOpened(lens: "main", device: "/dev/video4",
                                                              reason: "Device or resource busy"))
        XCTAssertEqual(log.events, [told])
        XCTAssertFalse(EngineNotice.pluggedCameraNotOpened(lens: "main", device: "", reason: "").isWarning)
        XCTAssertEqual(told.text, "lens main: /dev/video4 was plugged in but cannot be opened: Device or resource busy")
    }

    func testRemovingTheMicrophonesCardStopsItAndOtherCardsChangeNothing() {
        let opener = FakeOpener(), log = Log()
        let microphone = EndableMicrophone("ALSA plughw:2,0")
        let hub = makeHub(microphone: microphone, opener: opener, microphoneCard: usb, log: log)
        hub.startMicrophone()
        XCTAssertTrue(microphone.running)

        hub.handle(.removed(MicrophoneIdentity(card: 3, name: "Other")))
        serialContext.runDue()
        XCTAssertFalse(hub.microphoneGone)
        XCTAssertTrue(microphone.running)

        hub.handle(.removed(usb))
        serialContext.runDue()
        XCTAssertTrue(hub.microphoneGone)
        XCTAssertNil(hub.microphoneCard)
        XCTAssertFalse(microphone.running)
        XCTAssertEqual(log.reports, ["microphone ended: sound card 2 (USB Audio) was unplugged"])

        // ALSA's own report of the same end comes late: it is not told twice.
        microphone.onEnd?("device disconnected")
        serialContext.runDue()
        XCTAssertEqual(log.reports.count, 1, "\(log.reports)")
    }

    func testAPluggedCardReplacesTheEndedMicrophoneAndBecomesItsCard() {
        let opener = FakeOpener(), log = Log()
        let first = EndableMicrophone("ALSA plughw:2,0"), second = EndableMicrophone("ALSA plughw:5,0")
        opener.microphone = second
        let hub = makeHub(microphone: first, opener: opener, lensNodes: ["main": "/dev/video4"],
                          microphoneCard: usb, log: log)
        hub.startMicrophone()
        let plugged = MicrophoneIdentity(card: 5, name: "USB Audio")

        hub.handle(.added(plugged))
        serialContext.runDue()
        XCTAssertTrue(opener.microphoneRequests.isEmpty, "the microphone still runs: the card is not opened")

        hub.handle(.removed(usb))
        hub.handle(.added(plugged))
        serialContext.runDue()
        XCTAssertEqual(opener.microphoneRequests.map(\.card), [5])
        XCTAssertEqual(opener.microphoneRequests.first?.lensNode, "/dev/video4", "audio: main looks by the lens's node")
        XCTAssertTrue(hub.microphone === second)
        XCTAssertTrue(second.running)
        XCTAssertEqual(hub.microphoneCard, plugged)
        XCTAssertTrue(hub.microphoneGone, "gone until its first chunk says it is back")
        XCTAssertTrue(hub.microphoneReturned())
        XCTAssertFalse(hub.microphoneReturned())
        XCTAssertEqual(log.events, [.microphoneAttached(microphone: "ALSA plughw:5,0", nextClip: false)], "\(log.events)")
    }

    func testAMicrophoneThatOpensAfterTheDevicesStoppedIsDropped() {
        let opener = FakeOpener(), log = Log()
        let second = EndableMicrophone("ALSA plughw:5,0")
        opener.microphone = second
        opener.holdMicrophone = true
        let hub = makeHub(opener: opener, log: log)
        hub.handle(.added(usb))
        serialContext.runDue()
        let opened = opener.heldOpen
        XCTAssertNotNil(opened, "a rig without a microphone opens a plugged card")

        serialContext.perform { hub.stopDevices() }
        opened?(second)
        serialContext.runDue()
        XCTAssertNil(hub.microphone)
        XCTAssertNil(hub.microphoneCard)
        XCTAssertFalse(second.running)
    }

    func testWithoutAnOpenerWatcherEventsChangeNothing() {
        let log = Log()
        let hub = DeviceHub(rig: makeRig(), cameras: [:], microphone: nil, serialContext: serialContext,
                            devices: InlineWorker(), notify: { log.events.append($0) })
        hub.handle(.attached(CameraIdentity(devicePath: "/dev/video4", name: "C920")))
        hub.handle(.added(usb))
        serialContext.runDue()
        XCTAssertTrue(hub.cameras.isEmpty)
        XCTAssertEqual(log.events, [])
    }
}
