import Foundation
import PauseCamTestSupport
import XCTest

extension RTMPServerProcess {
    /// Starts a server for one test (`init(port:folder:)`), skipping the test with the reason when nginx or its RTMP
    /// module is not installed, or the server cannot start here.
    public static func forTest(port: Int? = nil, folder: String) throws -> RTMPServerProcess {
        do {
            return try RTMPServerProcess(port: port, folder: folder)
        } catch let failure as RTMPServerProcess.Failure {
            throw XCTSkip(failure.description)
        }
    }
}
