import Foundation
import PauseCamCore
import XCTest

/// A recording shell stopped (SIGSTOP, as Ctrl-Z does) and continued (SIGCONT, as `fg` does): the session and the
/// sidecar say PauseCam was suspended and the picture was held, and do not blame the encoder for the frames
/// dropped while catching up.
final class SuspensionEndToEndTests: XCTestCase {
    func testASuspensionIsToldAsSuchAndNotAsTheEncoderFallingBehind() throws {
        let shell = try ShellSignalTests.RunningShell(name: "suspend")
        defer { if shell.process.isRunning { kill(shell.process.processIdentifier, SIGKILL) } }
        shell.send("record")
        // A second of recording first: the mark's reply says the wait is over.
        shell.send("wait 1s")
        shell.send("mark before")
        XCTAssertTrue(shell.waitFor("marked \"before\""), shell.text)

        let pid = shell.process.processIdentifier
        XCTAssertEqual(kill(pid, SIGSTOP), 0)
        // The suspension under test: 3 s of wall time with the process stopped.
        Thread.sleep(forTimeInterval: 3)
        XCTAssertEqual(kill(pid, SIGCONT), 0)
        XCTAssertTrue(shell.waitFor("PauseCam was suspended for"), shell.text + shell.errorText)
        // Two health-check rounds after it, so the frames dropped while catching up have been counted.
        shell.send("wait 4s")
        shell.send("stop")
        XCTAssertTrue(shell.waitFor("* saved "), shell.text + shell.errorText)
        try shell.input.fileHandleForWriting.close()
        XCTAssertTrue(shell.waitForExit(), shell.text)

        let said = shell.text + shell.errorText
        let seconds = try XCTUnwrap(said.firstMatch(of: /PauseCam was suspended for (\d+\.\d) s: the picture was held/),
                                    said).1
        let value = try XCTUnwrap(Double(seconds))
        XCTAssertGreaterThanOrEqual(value, 2.5, said)
        XCTAssertLessThanOrEqual(value, 4.5, said)
        XCTAssertFalse(said.contains("cannot keep up"), said)

        let names = try FileManager.default.contentsOfDirectory(atPath: shell.directory.path)
        let json = try XCTUnwrap(names.first { $0.hasSuffix(".json") }, "\(names)")
        let sidecar = try Sidecar.decode(try Data(contentsOf: shell.directory.appendingPathComponent(json)))
        XCTAssertTrue(sidecar.warnings.contains { $0.hasPrefix("PauseCam was suspended for \(seconds) s") },
                      "\(sidecar.warnings)")
        XCTAssertFalse(sidecar.warnings.contains { $0.contains("encoder fell behind") }, "\(sidecar.warnings)")
    }
}
