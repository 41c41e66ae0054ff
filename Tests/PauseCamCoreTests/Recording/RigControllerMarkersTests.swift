import XCTest
@testable import PauseCamCore

/// `mark` without text and `mark rename`: numbered markers, their names given afterwards, on the engine and the
/// simulated clock, through to the sidecar written mid-clip and the finished one.
final class RigControllerMarkersTests: XCTestCase {
    private func sidecarMarkers(_ data: Data?) throws -> [[String]] {
        let sidecar = try Sidecar.decode(try XCTUnwrap(data))
        return sidecar.scenes.map { $0.markers.map(\.text) }
    }

    func testABareMarkIsNumberedAndItsReplySaysHowToNameIt() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        XCTAssertTrue(fixture.runner.perform(.record(name: nil)).ok)
        _ = fixture.runner.perform(.wait(.seconds(1)))
        let first = fixture.runner.perform(.mark(nil))
        XCTAssertTrue(first.ok, first.message)
        XCTAssertEqual(first.message, "marked \"Marker 1\" at 00:00:01.0; name it with: mark rename 1 TEXT")
        let named = fixture.runner.perform(.mark("good take"))
        XCTAssertEqual(named.message, "marked \"good take\" at 00:00:01.0 (marker 2)")
        let third = fixture.runner.perform(.mark(nil))
        XCTAssertTrue(third.message.hasPrefix("marked \"Marker 3\""), "every marker counts, named or not: \(third.message)")
        XCTAssertEqual(fixture.runner.perform(.stop).ok, true)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertEqual(clip.sidecar.scenes.map { $0.markers.map(\.text) }, [["Marker 1", "good take", "Marker 3"]])
    }

    /// A marker of a scene the sidecar settled long ago is renamed in the very next sidecar written, not only in
    /// the finished one.
    func testARenameReachesTheSidecarWrittenMidClipAndTheFinishedOne() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        for step: Command in [.record(name: nil), .wait(.seconds(1)), .mark(nil), .wait(.seconds(1)),
                              .chapter(name: "Two"), .wait(.seconds(1)), .chapter(name: "Three"), .wait(.seconds(1))] {
            XCTAssertTrue(fixture.runner.perform(step).ok, "\(step)")
        }
        let sidecarPath = try XCTUnwrap(fixture.store.files.keys.first { $0.hasSuffix(".json") })
        XCTAssertEqual(try sidecarMarkers(fixture.store.files[sidecarPath]).first, ["Marker 1"])
        let renamed = fixture.runner.perform(.renameMarker(number: 1, name: "opening"))
        XCTAssertEqual(renamed.message, "marker 1 at 00:00:01.0 is now \"opening\"")
        XCTAssertTrue(fixture.runner.perform(.chapter(name: "Four")).ok)
        _ = fixture.runner.perform(.wait(.seconds(1)))
        XCTAssertEqual(try sidecarMarkers(fixture.store.files[sidecarPath]).first, ["opening"],
                       "the sidecar written after the rename carries the new name")
        XCTAssertTrue(fixture.runner.perform(.stop).ok)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertEqual(clip.sidecar.scenes.map { $0.markers.map(\.text) }, [["opening"], [], [], []])
        XCTAssertEqual(clip.sidecar.scenes[0].markers.first?.time ?? -1, 1.0, accuracy: 1e-9)
    }

    func testRenamesThatCannotBeDoneSayWhy() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        XCTAssertEqual(fixture.runner.perform(.renameMarker(number: 1, name: "x")).message,
                       "not recording; a marker is named while its clip records")
        _ = fixture.runner.perform(.record(name: nil))
        XCTAssertEqual(fixture.runner.perform(.renameMarker(number: 1, name: "x")).message,
                       "this clip has no marker 1 (it has none yet)")
        _ = fixture.runner.perform(.wait(.seconds(1)))
        _ = fixture.runner.perform(.mark(nil))
        XCTAssertEqual(fixture.runner.perform(.renameMarker(number: 2, name: "x")).message,
                       "this clip has no marker 2 (it has 1: 1 to 1)")
        _ = fixture.runner.perform(.wait(.seconds(1)))
        _ = fixture.runner.perform(.pause)
        XCTAssertTrue(fixture.runner.perform(.renameMarker(number: 1, name: "while paused")).ok)
        _ = fixture.runner.perform(.stop)
        let clip = try XCTUnwrap(fixture.runner.finishClip())
        XCTAssertEqual(clip.sidecar.scenes.map { $0.markers.map(\.text) }, [["while paused"]])
        XCTAssertEqual(fixture.runner.perform(.renameMarker(number: 1, name: "after")).message,
                       "not recording; a marker is named while its clip records")
        // A new clip numbers from 1 again.
        _ = fixture.runner.perform(.record(name: nil))
        _ = fixture.runner.perform(.wait(.seconds(1)))
        XCTAssertTrue(fixture.runner.perform(.mark(nil)).message.hasPrefix("marked \"Marker 1\""))
    }

    /// A marker `retake` threw away cannot be named, and its number is not given again.
    func testAMarkerOfARetakenTakeCannotBeNamed() throws {
        let fixture = EngineFixture.makeFixture(rig: EngineFixture.makeRig())
        for step: Command in [.record(name: nil), .wait(.seconds(1)), .chapter(name: "Two"), .wait(.seconds(1)),
                              .mark(nil)] {
            XCTAssertTrue(fixture.runner.perform(step).ok, "\(step)")
        }
        XCTAssertTrue(fixture.runner.perform(.retake).ok)
        let gone = fixture.runner.perform(.renameMarker(number: 1, name: "x"))
        XCTAssertFalse(gone.ok)
        XCTAssertEqual(gone.message, "marker 1 went with the take `retake` threw away")
        _ = fixture.runner.perform(.wait(.seconds(1)))
        XCTAssertTrue(fixture.runner.perform(.mark(nil)).message.hasPrefix("marked \"Marker 2\""),
                      "numbers are never given twice in a clip")
        XCTAssertTrue(fixture.runner.perform(.renameMarker(number: 2, name: "kept")).ok)
        let markers = fixture.serialContext.perform { fixture.controller.clips.recorder?.log.markers.map(\.text) }
        XCTAssertEqual(markers, ["Marker 1", "kept"])
    }
}
