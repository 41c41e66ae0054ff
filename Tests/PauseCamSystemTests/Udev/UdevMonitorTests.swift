import Foundation
import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// The udev monitor's own set-up, on the host's real netlink socket (no umockdev needed).
final class UdevMonitorTests: XCTestCase {
    static func makeContext() throws -> UdevContext {
        do { return try UdevContext() } catch { throw XCTSkip("libudev cannot start here: \(error)") }
    }

    /// A monitor whose `udev_monitor_enable_receiving` fails must throw and release the monitor exactly once: it
    /// used to unref it in `init` and again in `deinit` (a use after free that ASan reports, and that can crash).
    func testAMonitorThatCannotEnableReceivingThrowsAndIsReleasedOnce() throws {
        for _ in 0..<3 {
            XCTAssertThrowsError(try UdevMonitor(context: Self.makeContext(), subsystem: "video4linux",
                                                 enableReceiving: { _ in -EPERM })) { error in
                XCTAssertEqual(error as? UdevError, UdevError(call: "udev_monitor_enable_receiving", code: EPERM))
            }
        }
    }

    /// The monitor's receive buffer is as large as the kernel allows up to `receiveBufferBytes` (the kernel
    /// reports twice what was set): root may force any size, others are capped at net.core.rmem_max. Far above a
    /// fresh uevent socket's, so a burst of events does not overflow it.
    func testTheMonitorsReceiveBufferIsAsLargeAsTheKernelAllows() throws {
        let context = try Self.makeContext()
        let monitor: UdevMonitor
        do {
            monitor = try UdevMonitor(context: context, subsystem: "video4linux")
        } catch {
            throw XCTSkip("no udev netlink socket here: \(error)")
        }
        let plain = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 15) // NETLINK_KOBJECT_UEVENT
        guard plain >= 0 else { throw XCTSkip("no netlink socket: errno \(errno)") }
        defer { close(plain) }
        func receiveBuffer(_ fd: Int32) -> Int {
            var size: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            XCTAssertEqual(getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, &length), 0)
            return Int(size)
        }
        let cap = geteuid() == 0 ? Int.max
            : Int((try? String(contentsOfFile: "/proc/sys/net/core/rmem_max", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        let expected = 2 * min(Int(UdevMonitor.receiveBufferBytes), cap)
        let monitorSize = receiveBuffer(monitor.fileDescriptor)
        XCTAssertGreaterThanOrEqual(monitorSize, expected)
        XCTAssertGreaterThan(monitorSize, receiveBuffer(plain))
        // Nothing queued: libudev returns NULL with errno EAGAIN, which is "drained", not a failure or an overflow.
        guard case .drained = monitor.receive() else { return XCTFail("an empty monitor is drained") }
    }
}

