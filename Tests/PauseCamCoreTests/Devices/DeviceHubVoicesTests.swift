import Foundation
import XCTest
@testable import PauseCamCore

/// The hot-plug of a rig of voices: each sound card its own slot in the hub, its removal ending only that card's
/// voices, a card plugged in opened for the gone card whose source picks it (with the channels its voices need).
final class DeviceHubVoicesTests: XCTestCase {
    typealias EndableMicrophone = DeviceHubTests.EndableMicrophone

    /// Opens a voice card when the test lets it, recording what it was asked.
    final class VoiceOpener: DeviceOpening, @unchecked Sendable {
        var microphone: EndableMicrophone?
        var requests: [(card: Int, device: Rig.AudioInput.Device, channels: Int)] = []
        func openCamera(_ identity: CameraIdentity, for lens: Rig.Lens) throws -> any Camera {
            throw CancellationError()
        }
        func openMicrophone(on card: MicrophoneIdentity, lensNode: String?,
                            opened: @escaping @Sendable (any Microphone) -> Void) {
            XCTFail("a rig of voices opens voice cards, not the one microphone")
        }
        func openVoiceMicrophone(on card: MicrophoneIdentity, device: Rig.AudioInput.Device, lensNode: String?,
                                 channels: Int, opened: @escaping @Sendable (any Microphone) -> Void) {
            requests.append((card.card, device, channels))
            if let microphone { opened(microphone) }
        }
    }

    private let serialContext = SimulatedSerialContext()
    private let interface = MicrophoneIdentity(card: 2, name: "Scarlett 2i2")
    private let lavalier = MicrophoneIdentity(card: 3, name: "Wireless GO")

    func testRemovingOneCardEndsOnlyItsVoicesAndPluggingItBackReopensItForThem() {
        var audio = Rig.AudioInput(device: .none)
        audio.voices = [Rig.Voice(name: "host", source: .alsa("hw:2"), channel: 1),
                        Rig.Voice(name: "guest", source: .alsa("hw:2"), channel: 2),
                        Rig.Voice(name: "room", source: .alsa("hw:3"))]
        let rig = Rig(name: "Interview", audio: audio, lenses: [Rig.Lens(name: "main", source: .virtual(color: RGBColor(hex: "#20c040")!))])
        let onInterface = EndableMicrophone("ALSA hw:2"), onLavalier = EndableMicrophone("ALSA hw:3")
        let replugged = EndableMicrophone("ALSA hw:2 again")
        let opener = VoiceOpener()
        var reports: [String] = []
        let hub = DeviceHub(rig: rig, cameras: [:], microphone: nil, serialContext: serialContext,
                            devices: InlineWorker(), opener: opener,
                            voiceMicrophones: [onInterface, onLavalier], voiceCardIdentities: [interface, lavalier],
                            notify: { _ in })
        hub.report = { report in
            if case .voiceCardEnded(let card, let reason) = report { reports.append("card \(card) ended: \(reason)") }
        }
        hub.startMicrophone()
        XCTAssertTrue(onInterface.running && onLavalier.running, "one capture per card, both started")

        hub.handle(.added(MicrophoneIdentity(card: 7, name: "Other")))
        serialContext.runDue()
        XCTAssertTrue(opener.requests.isEmpty, "every card runs: nothing is opened")

        hub.handle(.removed(interface))
        serialContext.runDue()
        XCTAssertEqual(reports, ["card 0 ended: sound card 2 (Scarlett 2i2) was unplugged"])
        XCTAssertFalse(onInterface.running)
        XCTAssertTrue(onLavalier.running, "the other card's voice is untouched")
        XCTAssertTrue(hub.voiceCards[0].gone)

        opener.microphone = replugged
        hub.handle(.added(interface))
        serialContext.runDue()
        XCTAssertEqual(opener.requests.map(\.card), [2])
        XCTAssertEqual(opener.requests.first?.device, .alsa("hw:2"))
        XCTAssertEqual(opener.requests.first?.channels, 2, "host and guest take channels 1 and 2")
        XCTAssertTrue(hub.voiceCards[0].microphone === replugged)
        XCTAssertTrue(replugged.running)
        XCTAssertEqual(hub.voiceCards[0].card, interface)

        // ALSA's late report of the first microphone's end changes nothing.
        onInterface.onEnd?("device disconnected")
        serialContext.runDue()
        XCTAssertEqual(reports.count, 1, "\(reports)")
    }

    /// A microphone whose chunks the test delivers, as its capture thread would.
    final class DeliveringMicrophone: Microphone, @unchecked Sendable {
        let displayName: String
        let sampleRate: Int32 = 48_000
        let channels = 1
        var deliver: (@Sendable (AudioChunk) -> Void)?
        init(_ name: String) { displayName = name }
        func start(deliver: @escaping @Sendable (AudioChunk) -> Void, onEnd: @escaping @Sendable (String) -> Void) {
            self.deliver = deliver
        }
        func stop() { deliver = nil }
    }

    func testABacklogOfBothCardsIsHandedOnInCaptureOrderNotCardByCard() {
        var audio = Rig.AudioInput(device: .none)
        audio.voices = [Rig.Voice(name: "host", source: .virtual), Rig.Voice(name: "guest", source: .virtual)]
        let rig = Rig(name: "Pair", audio: audio, lenses: [Rig.Lens(name: "main", source: .virtual(color: RGBColor(hex: "#20c040")!))])
        let host = DeliveringMicrophone("host"), guest = DeliveringMicrophone("guest")
        var order: [String] = []
        let hub = DeviceHub(rig: rig, cameras: [:], microphone: nil, serialContext: serialContext,
                            devices: InlineWorker(), voiceMicrophones: [host, guest], notify: { _ in })
        hub.report = { report in
            if case .voiceChunk(let card, let chunk) = report { order.append("\(card)@\(chunk.pts.value)") }
        }
        hub.startMicrophone()
        hub.isTakingSamples = true
        // The serial context was busy: three chunks of each card wait before any drain runs.
        for n in 0..<3 {
            let chunk = AudioChunk(pts: MediaTime(value: Int64(n) * 480, timescale: 48_000), sampleRate: 48_000,
                                   channels: 1, samples: [Int16](repeating: 0, count: 480))
            host.deliver?(chunk)
            guest.deliver?(chunk)
        }
        serialContext.runDue()
        XCTAssertEqual(order, ["0@0", "1@0", "0@480", "1@480", "0@960", "1@960"])
    }
}
