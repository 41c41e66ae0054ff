import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// The recording time left on the engine and the simulated clock: measured from the growth of the clip's files at
/// the health rounds, shown in the status and its JSON, told once at ten minutes and once when it clears, and kept
/// (the last clip's rate) while idle.
final class RigControllerTimeLeftTests: XCTestCase {
    /// A disk whose free space the test sets, and on which every file of a clip grows by `rate` bytes a second of
    /// clock time while the test says the clip records.
    final class FillingDisk: StorageProbe, @unchecked Sendable {
        let clock: any Clock
        var free: Int64 = 0
        var rate: Int64 = 1_000_000
        var probes = 0
        /// The bytes written so far and when they were last brought up to date.
        private var written: Double = 0
        private var updated: MediaTime
        init(clock: any Clock) {
            self.clock = clock
            updated = clock.now()
        }
        func availableBytes(at path: String) -> Int64? {
            probes += 1
            return free
        }
        func fileSize(at path: String) -> Int64? {
            let now = clock.now()
            written += (now - updated).seconds * Double(rate)
            updated = now
            return path.hasSuffix(".partial") ? Int64(written) : nil
        }
    }

    struct Engine {
        let controller: RigController
        let runner: ScriptRunner
        let disk: FillingDisk
        let box: EngineFixture.EventBox
        let context: SimulatedSerialContext

        func status() -> [String: Any] {
            let line = context.perform { ControlStatusJSON.line(controller.status, rig: "Test rig") }
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
        }

        func statusLine() -> String { context.perform { controller.statusLine() } }
    }

    private func engine() -> Engine {
        let context = SimulatedSerialContext()
        let rig = EngineFixture.makeRig()
        var cameras: [String: any Camera] = [:]
        for lens in rig.lenses {
            guard case .virtual(let color) = lens.source else { continue }
            cameras[lens.name] = VirtualLens(lens: lens.name, color: color, width: 64, height: 36, rate: FrameRate(30),
                                             serialContext: context)
        }
        let box = EngineFixture.EventBox()
        let storage = FillingDisk(clock: context.clock)
        let controller = EngineFixture.makeController(rig: rig, cameras: cameras, serialContext: context,
                                                      storage: storage, notify: { box.record($0) })
        controller.startDevices()
        return Engine(controller: controller, runner: ScriptRunner(controller: controller, serialContext: context),
                      disk: storage, box: box, context: context)
    }

    func testTheTimeLeftIsMeasuredShownAndWarnedOnceWithItsAllClear() throws {
        let engine = engine()
        let (runner, disk, box) = (engine.runner, engine.disk, engine.box)
        let stop = StoragePolicy().stopBelow
        disk.free = stop + 5_000_000_000
        XCTAssertTrue(engine.status()["time_left_s"] is NSNull, "unknown before any clip")
        XCTAssertEqual(engine.status()["time_left_warning"] as? Bool, false)
        XCTAssertEqual(disk.probes, 0, "no rate, no reason to read the disk")

        XCTAssertTrue(runner.perform(.record(name: nil)).ok)
        _ = runner.perform(.wait(.seconds(5)))
        let early = engine.status()
        let seconds = try XCTUnwrap(early["time_left_s"] as? Int, "\(early)")
        // 5 GB less what finishing needs, at 1 MB/s.
        XCTAssertTrue((4990...5000).contains(seconds), "\(seconds)")
        XCTAssertEqual(early["time_left_warning"] as? Bool, false)
        XCTAssertFalse(engine.statusLine().contains("time left"),
                       "over an hour is not in the line")

        disk.free = stop + 500_000_000
        _ = runner.perform(.wait(.seconds(4)))
        let low = engine.status()
        XCTAssertEqual(low["time_left_warning"] as? Bool, true, "\(low)")
        XCTAssertTrue(engine.statusLine().contains("time left 8 min (low)"),
                      engine.statusLine())
        _ = runner.perform(.wait(.seconds(4)))
        XCTAssertEqual(box.events.filter { if case .recordingTimeLeft = $0 { return true }; return false }.count, 1,
                       "told once: \(box.events)")
        guard case .recordingTimeLeft(let left, true, let rate)? = box.events.last(where: {
            if case .recordingTimeLeft = $0 { return true }; return false
        }) else { return XCTFail("no low event: \(box.events)") }
        XCTAssertTrue((490...500).contains(left), "\(left)")
        XCTAssertEqual(rate, 1_000_000, accuracy: 1)

        disk.free = stop + 900_000_000
        _ = runner.perform(.wait(.seconds(4)))
        XCTAssertEqual(engine.status()["time_left_warning"] as? Bool, false)
        guard case .recordingTimeLeft(_, false, _)? = box.events.last else {
            return XCTFail("no all-clear: \(box.events)")
        }

        // Idle after the clip: the clip's rate, and the free space read again (at most once a health interval).
        XCTAssertTrue(runner.perform(.stop).ok)
        _ = runner.finishClip()
        disk.free = stop + 100_000_000
        _ = runner.perform(.wait(.seconds(3)))
        let idle = engine.status()
        XCTAssertEqual(idle["state"] as? String, "idle")
        XCTAssertEqual(idle["time_left_s"] as? Int, 100, "\(idle)")
        XCTAssertEqual(idle["time_left_warning"] as? Bool, true)
        let probes = disk.probes
        _ = engine.status()
        _ = engine.status()
        XCTAssertEqual(disk.probes, probes, "polling the status does not read the disk each time")
    }

    /// A pause writes nothing: the time left is the recording rate's, not one diluted by the pause.
    func testAPauseDoesNotStretchTheTimeLeft() throws {
        let engine = engine()
        let (runner, disk) = (engine.runner, engine.disk)
        disk.free = StoragePolicy().stopBelow + 1_000_000_000
        XCTAssertTrue(runner.perform(.record(name: nil)).ok)
        _ = runner.perform(.wait(.seconds(5)))
        XCTAssertTrue(runner.perform(.pause).ok)
        disk.rate = 0
        _ = runner.perform(.wait(.seconds(20)))
        let paused = engine.status()
        XCTAssertEqual(paused["state"] as? String, "paused")
        let seconds = try XCTUnwrap(paused["time_left_s"] as? Int, "\(paused)")
        XCTAssertTrue((990...1000).contains(seconds), "\(seconds)")
    }

    func testTheRateFromBeforeTheSessionIsUsedUntilAClipIsMeasured() {
        let engine = engine()
        let (controller, disk) = (engine.controller, engine.disk)
        disk.free = StoragePolicy().stopBelow + 3_600_000_000
        engine.context.perform { controller.expectRecordingRate(bytesPerSecond: 2_000_000) }
        XCTAssertEqual(engine.status()["time_left_s"] as? Int, 1800)
        engine.context.perform { controller.expectRecordingRate(bytesPerSecond: .nan) }
        XCTAssertEqual(engine.status()["time_left_s"] as? Int, 1800, "a rate that is no number is ignored")
    }
}
