import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// A microphone unplugged mid-clip: a warning and a sidecar event, the clip goes on (video, timer, scenes) with no
/// sound; plugged back, sound resumes at its own time, in sync — the encoder fills the hole with silence.
final class MicrophoneUnplugTests: XCTestCase {
    func testUnplugMidClipGoesOnSilentAndPlugBackResumes() throws {
        // The microphone ticks on the fixture's serial context, so the test can unplug it at chosen times.
        let serialContext = SimulatedSerialContext()
        let microphone = VirtualMicrophone(serialContext: serialContext, tone: 440)
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig(), serialContext: serialContext,
                                                microphone: microphone)
        let start = serialContext.clock.now()
        serialContext.schedule(at: start + .milliseconds(1500)) { microphone.unplug(reason: "USB device gone") }
        serialContext.schedule(at: start + .milliseconds(3200)) { microphone.plugBack() }
        for step: Command in [.record(name: "Take"), .wait(.seconds(5)), .stop] {
            XCTAssertTrue(fixture.runner.perform(step).ok)
        }
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        XCTAssertEqual(sink.video.count, 150, "the clip went on: 5 s of video")
        XCTAssertTrue(fixture.events.contains(.microphoneStopped(reason: "USB device gone")), "\(fixture.events)")
        XCTAssertTrue(fixture.events.contains { if case .microphoneBack = $0 { true } else { false } }, "\(fixture.events)")
        XCTAssertTrue(clip.sidecar.warnings.contains { $0.contains("microphone stopped: USB device gone; the clip goes on with silence") },
                      "\(clip.sidecar.warnings)")
        XCTAssertTrue(clip.sidecar.warnings.contains { $0.hasPrefix("microphone back: sound resumes at 00:00:03") },
                      "\(clip.sidecar.warnings)")
        // Audio up to about 1.5 s, none in the hole, then again from about 3.2 s to the end, at its file time.
        let hole = sink.audio.filter { $0.pts > .milliseconds(1520) && $0.pts < .milliseconds(3190) }
        XCTAssertTrue(hole.isEmpty, "audio in the hole: \(hole.map(\.pts))")
        XCTAssertTrue(sink.audio.contains { $0.pts >= .milliseconds(3190) && $0.pts < .milliseconds(3300) })
        XCTAssertGreaterThan(sink.audio.last?.end ?? .zero, .milliseconds(4900))
    }
}
