import XCTest
@testable import PauseCamSystem

final class FFmpegErrorTests: XCTestCase {
    func testMessageComesFromAvStrerror() {
        let error = FFmpegError("avformat_open_input(x)", code: -2)
        XCTAssertTrue(error.description.contains("No such file or directory"), error.description)
    }
}
