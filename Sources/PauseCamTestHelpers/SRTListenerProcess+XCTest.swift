import Foundation
import PauseCamTestSupport
import XCTest

extension SRTListenerProcess {
    /// Starts a listener for one test (`start(port:file:)`), skipping the test when ffmpeg is not installed.
    public static func forTest(port: Int, file: String) throws -> Process {
        do {
            return try start(port: port, file: file)
        } catch let failure as SRTListenerProcess.Failure {
            throw XCTSkip(failure.description)
        }
    }
}
