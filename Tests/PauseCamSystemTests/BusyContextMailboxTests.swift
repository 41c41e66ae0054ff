import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamSystem

/// The mailboxes end to end, with devices that capture on their own threads (as V4L2 and ALSA do) and a serial
/// context that is really busy: a sink whose every video append blocks it for 20 ms, plus one work item that holds
/// it for 4 s (the microphone's mailbox holds 3 s). Virtual and file lenses are ticked on the context itself, so they can never get ahead of it; these
/// cameras can, and the test checks that what waits stays within the mailbox bound, that the drops are counted in
/// the clip's sidecar and warnings, and that `status` still answers.
final class BusyContextMailboxTests: XCTestCase {
    /// Messages the controller sends, from whichever thread.
    final class Messages: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    /// Reads every camera mailbox's depth from its own thread every millisecond and keeps the deepest seen: the
    /// frames alive between a camera and the context.
    final class DepthProbe: @unchecked Sendable {
        private let mailboxes: [Mailbox<VideoFrame>]
        private let lock = NSLock()
        private var running = true
        private var deepestOne = 0
        private var deepestAll = 0
        private let ended = DispatchSemaphore(value: 0)

        init(_ mailboxes: [Mailbox<VideoFrame>]) {
            self.mailboxes = mailboxes
            Thread { [self] in
                while lock.withLock({ running }) {
                    let depths = mailboxes.map(\.waiting)
                    lock.withLock {
                        deepestOne = max(deepestOne, depths.max() ?? 0)
                        deepestAll = max(deepestAll, depths.reduce(0, +))
                    }
                    Thread.sleep(forTimeInterval: 0.001)
                }
                ended.signal()
            }.start()
        }

        /// Stops sampling; returns the deepest single mailbox and the deepest sum over all of them.
        func stop() -> (one: Int, all: Int) {
            lock.withLock { running = false }
            ended.wait()
            return lock.withLock { (deepestOne, deepestAll) }
        }
    }

    /// The process's peak resident set (`VmHWM` in /proc/self/status), in kilobytes: a figure for the report (the
    /// whole test process counts), not an assertion.
    static func peakResidentKilobytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func testThreeHotLensesAndAMicrophoneStayBoundedAndCountTheirDropsWhileTheContextIsBusy() throws {
        let directory = NSTemporaryDirectory() + "pausecam-busy-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }

        let serialContext = RealTimeSerialContext()
        let roles = ["wide", "main", "tele"]
        let cameras = Dictionary(uniqueKeysWithValues: roles.map { ($0, ThreadedCamera(lens: $0, clock: serialContext.clock)) })
        let grey = try XCTUnwrap(RGBColor(hex: "#808080"))
        let rig = Rig(name: "Busy rig", output: Rig.OutputSettings(width: 1920, height: 1080, rate: FrameRate(30)),
                      audio: Rig.AudioInput(device: .virtual),
                      lenses: roles.map { Rig.Lens(name: $0, source: .virtual(color: grey), width: 1920, height: 1080,
                                                   rate: FrameRate(30)) },
                      defaultLens: "main", standby: .hot)
        let factory = SleepingSinkFactory(delay: 0.02)
        let messages = Messages()
        let notify: (EngineEvent) -> Void = { messages.append($0.text) }
        let hub = DeviceHub(rig: rig, cameras: cameras, microphone: ThreadedMicrophone(clock: serialContext.clock),
                            serialContext: serialContext, devices: SerialQueueWorker(label: "test.devices"), notify: notify)
        let clips = ClipController(rig: rig, sinkFactory: factory, store: AtomicSidecarStore(), serialContext: serialContext,
                                   wallClock: { Date() }, outputDirectory: directory,
                                   finishing: SerialQueueWorker(label: "test.finishing"), notify: notify)
        let controller = RigController(rig: rig, devices: hub, clips: clips, serialContext: serialContext, notify: notify)
        addTeardownBlock {
            serialContext.perform { controller.stopDevices() }
            controller.waitForDevices()
        }
        serialContext.perform { controller.startDevices() }
        controller.waitForDevices()
        let mailboxes = serialContext.perform { controller.devices.videoMailboxes }
        XCTAssertEqual(Set(mailboxes.keys), Set(roles), "every lens is hot")
        let probe = DepthProbe(Array(mailboxes.values))
        let runner = ScriptRunner(controller: controller, serialContext: serialContext)

        XCTAssertTrue(runner.perform(.record(name: "busy")).ok)
        XCTAssertTrue(runner.perform(.wait(.seconds(1))).ok)
        // On top of the sleeping sink, hold the context for 4 s (longer than the microphone's 3 s mailbox); ask for the status while it is held.
        let held = DispatchSemaphore(value: 0)
        serialContext.schedule(at: .zero) {
            held.signal()
            Thread.sleep(forTimeInterval: 4)
        }
        held.wait()
        let asked = Date()
        let status = serialContext.perform { controller.status }
        let statusWait = Date().timeIntervalSince(asked)
        XCTAssertEqual(status.state, .recording)
        // It answers once the context is free (4 s of hold, then the drains queued meanwhile: a few 20 ms appends).
        XCTAssertLessThan(statusWait, 30, "status waited \(statusWait) s")
        XCTAssertTrue(runner.perform(.wait(.seconds(1))).ok)
        let clip = try XCTUnwrap(runner.finishClip())
        let deepest = probe.stop()
        let delivered = roles.map { cameras[$0]!.deliveredCount }
        let sink = try XCTUnwrap(factory.sinks.first)
        print("busy context: delivered \(delivered) frames (wide, main, tele); deepest mailbox \(deepest.one), "
              + "deepest sum \(deepest.all); status waited \(String(format: "%.2f", statusWait)) s; sink took "
              + "\(sink.videoAppends) frames; dropped \(clip.sidecar.devices.map { "\($0.role) \($0.dropped ?? 0)" }); "
              + "test process peak memory \(Self.peakResidentKilobytes() / 1024) MB")

        // Bounded: no camera ever had more than its mailbox's frames waiting, whatever the context was doing.
        let capacity = RigController.videoMailboxCapacity(for: rig.lenses[0], output: rig.output)
        XCTAssertLessThanOrEqual(deepest.one, capacity)
        XCTAssertLessThanOrEqual(deepest.all, roles.count * capacity)
        // And in bytes, whatever the sizing says: the frames waiting for the context stay within the per-camera
        // budget (48 MiB, counted as YUYV: 12 frames of 1080p, 37 MB of yuv420p each camera); a 2 s stall of three
        // unbounded lenses is over 500 MB.
        let frameBytes = 1920 * 1080 * 3 / 2
        XCTAssertLessThanOrEqual(deepest.all * frameBytes, roles.count * RigController.videoMailboxBytes,
                                 "\(deepest.all) frames waited at once")
        XCTAssertGreaterThan(sink.videoAppends, 0, "the clip got frames")

        // Counted: every device dropped while the context was held, and the sidecar (the file on disk too) says so.
        let dropped = Dictionary(uniqueKeysWithValues: clip.sidecar.devices.map { ($0.role, $0.dropped ?? 0) })
        for role in roles + [RigController.microphoneRole] {
            XCTAssertGreaterThan(dropped[role] ?? 0, 0, "\(role) dropped nothing: \(dropped)")
        }
        for role in roles {
            XCTAssertLessThanOrEqual(dropped[role] ?? 0, cameras[role]!.deliveredCount)
            XCTAssertTrue(clip.sidecar.warnings.contains { $0.hasPrefix("\(dropped[role]!) frames from \(role) dropped") },
                          "\(clip.sidecar.warnings)")
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: clip.sidecarPath)))
        let devices = try XCTUnwrap((json as? [String: Any])?["devices"] as? [[String: Any]])
        for device in devices {
            let role = try XCTUnwrap(device["role"] as? String)
            XCTAssertEqual(device["dropped"] as? Int, dropped[role], "sidecar file, \(role)")
        }
        XCTAssertTrue(messages.all.contains { $0.hasPrefix("saved ") && $0.contains("dropped before the engine (it was busy): ") },
                      "\(messages.all)")
    }
}
