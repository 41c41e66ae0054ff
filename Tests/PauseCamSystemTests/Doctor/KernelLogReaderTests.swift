import Foundation
import PauseCamCore
@testable import PauseCamSystem
import XCTest

final class KernelLogReaderTests: XCTestCase {
    func testARecordIsReadAsTheLineDmesgPrints() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kmsg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("kmsg")
        try Data("4,812,3900123,-;usb 1-4: device descriptor read/64, error -71\n SUBSYSTEM=usb\n".utf8).write(to: file)
        guard case .read(let lines) = KernelLogReader.read(from: file.path) else {
            return XCTFail("a readable record was not read")
        }
        XCTAssertEqual(lines, ["[    3.900123] usb 1-4: device descriptor read/64, error -71"])
    }

    func testAMissingLogDeviceIsNotReadableAndSaysWhy() {
        guard case .notReadable(let reason) = KernelLogReader.read(from: "/nonexistent/kmsg") else {
            return XCTFail("a missing device was read")
        }
        XCTAssertTrue(reason.contains("/nonexistent/kmsg does not exist"), reason)
    }

    /// A device that hands out bytes forever in place of the log ends the read at once, not readable, saying what
    /// it handed out. The read runs on a thread of its own so that a reader that never returns fails here instead of
    /// hanging the suite.
    func testADeviceThatNeverEndsIsNotReadAsTheLog() {
        for path in ["/dev/zero", "/dev/urandom"] {
            let done = DispatchSemaphore(value: 0)
            let result = Guarded<DoctorFacts.Reading<[String]>?>(nil)
            Thread.detachNewThread {
                let reading = KernelLogReader.read(from: path)
                result.withLock { $0 = reading }
                done.signal()
            }
            guard done.wait(timeout: .now() + 60) == .success else { return XCTFail("\(path): still reading after 60 s") }
            guard case .notReadable(let reason) = result.withLock({ $0 }) else {
                return XCTFail("\(path) was read as the kernel's log")
            }
            XCTAssertTrue(reason.hasPrefix("\(path) does not read as the kernel's log"), reason)
        }
    }

    func testTheKernelsOwnLogIsReadWithoutWaitingForTheNextMessage() throws {
        guard FileManager.default.isReadableFile(atPath: KernelLogReader.devicePath) else {
            throw XCTSkip("\(KernelLogReader.devicePath) is not readable here: the kernel's log cannot be read")
        }
        // Returns at the end of the log (a blocking read would wait here for the kernel's next message).
        switch KernelLogReader.read() {
        case .notReadable(let reason):
            if reason.contains("dmesg_restrict") { throw XCTSkip("the kernel log is restricted here: \(reason)") }
            XCTFail(reason)
        case .read(let lines):
            XCTAssertFalse(lines.isEmpty, "the kernel log has at least its boot banner")
            let shape = try NSRegularExpression(pattern: #"^\[ *[0-9]+\.[0-9]{6}\] "#)
            for line in lines.prefix(50) {
                XCTAssertNotNil(shape.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)), line)
            }
        }
    }
}
