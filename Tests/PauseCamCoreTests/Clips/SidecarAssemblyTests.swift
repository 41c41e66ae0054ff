import XCTest
@testable import PauseCamCore

/// The sidecar a recorder writes comes from its `SidecarAssembly`: the facts only the sidecar keeps (drops, clipped
/// samples, each scene's sound, the stop) reach the document.
final class SidecarAssemblyTests: XCTestCase {
    func testDropsClippingAndTheStopReachTheSidecar() throws {
        let d = MediaTime(value: 1, timescale: 30)
        let sink = RecordingSink(path: "/v/clip.mov")
        let store = MemorySidecarStore()
        let recorder = Recorder(description: Recorder.Description(
            rigName: "desk", settings: MovieSettings(width: 2, height: 2, rate: FrameRate(30),
                                                     audio: .init(sampleRate: 48_000, channels: 1, declick: false)),
            devices: [Sidecar.Device(role: "main", name: "Cam"), Sidecar.Device(role: "microphone", name: "Mic")],
            sidecarPath: "/v/clip.json", started: "then"), sink: sink, store: store)
        if case .failure(let rejection) = recorder.handle(.record(name: "Take"), at: .zero) { XCTFail("\(rejection)") }
        for index: Int64 in 0..<30 {
            recorder.appendVideo(VideoFrame(pts: try d.multiplied(by: index), width: 2, height: 2, format: .yuv420p,
                                            planes: [Plane(bytes: [0, 0, 0, 0], stride: 2), Plane(bytes: [0], stride: 1),
                                                     Plane(bytes: [0], stride: 1)], lens: "main"))
        }
        // Ten samples at full scale in each 20 ms chunk.
        for chunk: Int64 in 0..<25 {
            recorder.appendAudio(AudioChunk(pts: .milliseconds(chunk * 20), sampleRate: 48_000, channels: 1,
                                            samples: Array(repeating: Int16.max, count: 10) + Array(repeating: 0, count: 950)))
        }
        recorder.noteMailboxDrops(device: "main", count: 0)
        recorder.noteMailboxDrops(device: "main", count: 3)
        recorder.noteMailboxDrops(device: "microphone", count: 2)
        if case .failure(let rejection) = recorder.handle(.stop, at: try d.multiplied(by: 30)) { XCTFail("\(rejection)") }
        let clip = try recorder.finish(stoppedAt: "now")

        XCTAssertEqual(recorder.mailboxDrops, ["main": 3, "microphone": 2])
        XCTAssertEqual(clip.sidecar.devices.map(\.dropped), [3, 2])
        let clipped = try XCTUnwrap(clip.sidecar.audio?.clippedSamples)
        XCTAssertEqual(clipped, recorder.clippedSamples)
        XCTAssertGreaterThan(clipped, 0)
        XCTAssertEqual(clipped % 10, 0, "whole chunks: ten full-scale samples each")
        XCTAssertEqual(clip.sidecar.stopped, "now")
        XCTAssertNil(clip.sidecar.group, "no group, no group block")
        XCTAssertNotNil(clip.sidecar.scenes.first?.audioPeak, "the scene's sound level")
    }

    func testAnIsoLiesInTheClipsFolderBesideTheSidecar() {
        XCTAssertEqual(SidecarAssembly.pathBesideSidecar("/videos/desk-1.iso/tele.mov"), "desk-1.iso/tele.mov")
    }
}
