import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// A switch whose new camera is refused by its USB bus for lack of bandwidth (`CameraStartFailure`), through the
/// controller on virtual lenses on a `VirtualUSBBus`: a hot lens on the same bus is stopped, the start is tried
/// again, the user and the sidecar are told which, and the movie never breaks.
final class BandwidthFallbackTests: XCTestCase {
    let frame = FrameRate(30).frameDuration

    /// The test rig with `standby: auto`, tele cold and wide and main hot.
    func makeRig() -> Rig {
        var rig = EngineFixture.makeRig()
        rig.standby = .auto
        rig.autoColdLenses = ["tele"]
        return rig
    }

    /// The fixture with the lenses in `onBus` on a bus of `streams` streams; `lensBuses` as the hub believes it.
    func makeFixture(streams: Int, onBus: [String], lensBuses: [String: String]) -> EngineFixture.Fixture {
        let rig = makeRig()
        let serialContext = SimulatedSerialContext()
        let bus = VirtualUSBBus(streams: streams)
        var cameras: [String: any Camera] = [:]
        for lens in rig.lenses where onBus.contains(lens.name) {
            guard case .virtual(let color) = lens.source else { continue }
            cameras[lens.name] = bus.camera(VirtualLens(lens: lens.name, color: color, width: 64, height: 36,
                                                        rate: FrameRate(30), serialContext: serialContext,
                                                        startupDelay: lens.name == "tele" ? .milliseconds(200) : .zero))
        }
        let fixture = EngineFixture.makeFixture(rig: rig, cameras: cameras, serialContext: serialContext)
        fixture.controller.devices.lensBuses = lensBuses
        return fixture
    }

    func assertConstantRate(_ sink: RecordingSink, file: StaticString = #filePath, line: UInt = #line) {
        let times = sink.video.map(\.time)
        XCTAssertEqual(times.first, .zero, file: file, line: line)
        for (a, b) in zip(times, times.dropFirst()) { XCTAssertEqual(b - a, frame, "gap after \(a)", file: file, line: line) }
    }

    func testAColdLensRefusedByAFullBusGetsTheRoomOfAHotLensThatIsNotShown() throws {
        let bus = "virtual bus (2 streams)"
        let fixture = makeFixture(streams: 2, onBus: ["wide", "main", "tele"],
                                  lensBuses: ["wide": bus, "main": bus, "tele": bus])
        for step: Command in [.record(name: nil), .wait(.seconds(1)), .lens(.named("tele")), .wait(.seconds(1))] {
            XCTAssertTrue(fixture.runner.perform(step).ok, "\(step)")
        }
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        let told = "lens tele's camera could not start: no USB bandwidth left on virtual bus (2 streams); stopped lens "
            + "wide's camera (cold from now on) to make room, and trying again"
        let stopped = EngineEvent.lensStoppedForBandwidth(stopped: "wide", lens: "tele", bus: bus)
        XCTAssertEqual(fixture.events.filter {
            if case .lensStoppedForBandwidth = $0 { return true }
            if case .cameraFailedToStart = $0 { return true }
            return false
        }, [stopped])
        XCTAssertEqual(stopped.text, told)
        XCTAssertTrue(clip.sidecar.warnings.contains(told), "\(clip.sidecar.warnings)")
        XCTAssertEqual(fixture.controller.bank.stoppedForBandwidth, ["wide"])
        // The movie: main until tele's first frame (1.2 s: the retry starts it at the request), then tele; no hole.
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        assertConstantRate(sink)
        let firstTele = try XCTUnwrap(sink.video.firstIndex { $0.lens == "tele" })
        XCTAssertEqual(sink.video[firstTele].time, MediaTime(value: 6, timescale: 5))
        XCTAssertTrue(sink.video[..<firstTele].allSatisfy { $0.lens == "main" })
        XCTAssertTrue(sink.video[firstTele...].allSatisfy { $0.lens == "tele" })
        XCTAssertEqual(clip.sidecar.switches.map(\.lens), ["tele"])
        let fields = EngineEvent.lensStoppedForBandwidth(stopped: "wide", lens: "tele", bus: bus).jsonFields
        XCTAssertEqual(fields["type"] as? String, "lens_stopped_for_bandwidth")
        XCTAssertEqual(fields["stopped"] as? String, "wide")
        XCTAssertEqual(fields["lens"] as? String, "tele")
        XCTAssertEqual(fields["bus"] as? String, bus)
    }

    func testWithNothingToStopTheSwitchFailsAsBeforeAndTheClipStaysOnItsLens() throws {
        // Only main and tele on a one-stream bus: main streams and is shown, so nothing can make room.
        let bus = "virtual bus (1 stream)"
        let fixture = makeFixture(streams: 1, onBus: ["main", "tele"], lensBuses: ["main": bus, "tele": bus])
        for step: Command in [.record(name: nil), .wait(.seconds(1)), .lens(.named("tele")), .wait(.seconds(1))] {
            XCTAssertTrue(fixture.runner.perform(step).ok, "\(step)")
        }
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertFalse(fixture.events.contains { if case .lensStoppedForBandwidth = $0 { true } else { false } },
                       "\(fixture.events)")
        XCTAssertTrue(fixture.events.contains(.lensChoiceRefused(
            reason: "lens tele has no camera right now; recording stays on main")), "\(fixture.events)")
        XCTAssertTrue(fixture.events.contains {
            if case .cameraFailedToStart("tele", let camera, let reason) = $0 {
                camera.hasPrefix("Virtual tele") && reason.contains("ENOSPC")
            } else { false }
        }, "\(fixture.events)")
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        assertConstantRate(sink)
        XCTAssertTrue(sink.video.allSatisfy { $0.lens == "main" })
        XCTAssertEqual(clip.sidecar.switches, [])
    }

    func testARetryThatFailsTooIsTheOldFailureAndTheLensStoppedStaysCold() throws {
        // The hub believes wide shares tele's bus, but wide's camera is elsewhere: stopping it frees nothing.
        let bus = "virtual bus (1 stream)"
        let fixture = makeFixture(streams: 1, onBus: ["main", "tele"],
                                  lensBuses: ["wide": bus, "main": bus, "tele": bus])
        for step: Command in [.record(name: nil), .wait(.seconds(1)), .lens(.named("tele")), .wait(.seconds(1))] {
            XCTAssertTrue(fixture.runner.perform(step).ok, "\(step)")
        }
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        let events = fixture.events.filter { "\($0)".contains("tele") }
        guard events.count == 3 else { return XCTFail("three events about tele expected: \(events)") }
        XCTAssertEqual(events[0], .lensStoppedForBandwidth(stopped: "wide", lens: "tele", bus: bus))
        guard case .cameraFailedToStart("tele", let camera, _) = events[1], camera.hasPrefix("Virtual tele") else {
            return XCTFail("\(events[1])")
        }
        XCTAssertEqual(events[2], .lensChoiceRefused(reason: "lens tele has no camera right now; recording stays on main"))
        let sink = try XCTUnwrap(fixture.factory.sinks.first)
        assertConstantRate(sink)
        XCTAssertTrue(sink.video.allSatisfy { $0.lens == "main" })
        XCTAssertEqual(clip.sidecar.switches, [])
        XCTAssertEqual(fixture.controller.bank.running, ["main"])
    }
}
