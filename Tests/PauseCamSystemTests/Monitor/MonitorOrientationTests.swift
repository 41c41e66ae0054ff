import Foundation
import XCTest
import PauseCamCore
@testable import PauseCamSystem
import PauseCamVirtual

/// The live monitor shows a turned or mirrored lens as the movie records it: the picture's size is the oriented
/// one, and its halves land where the turn puts them.
final class MonitorOrientationTests: XCTestCase {
    /// A 640x360 yuv420p frame, red on the left half and blue on the right, with `orientation`.
    static func halves(lens: String, orientation: PictureOrientation) -> VideoFrame {
        let red = TestPatternPainter.yuv(RGBColor(hex: "#d03030")!), blue = TestPatternPainter.yuv(RGBColor(hex: "#3050e0")!)
        func plane(_ w: Int, _ h: Int, _ left: UInt8, _ right: UInt8) -> Plane {
            Plane(bytes: (0..<(w * h)).map { $0 % w < w / 2 ? left : right }, stride: w)
        }
        return VideoFrame(pts: .seconds(1), width: 640, height: 360, format: .yuv420p,
                          planes: [plane(640, 360, red.y, blue.y), plane(320, 180, red.u, blue.u),
                                   plane(320, 180, red.v, blue.v)], lens: lens, orientation: orientation)
    }

    func testAQuarterTurnedLensIsShownUprightInTheProgramAndItsTile() throws {
        let feed = MonitorFeed(programLens: "main")
        feed.startWatching()
        feed.offer(Self.halves(lens: "main", orientation: PictureOrientation(rotation: .quarter)))
        let program = try MonitorFeedTests.decode(try XCTUnwrap(feed.programPicture(after: 0, timeoutSeconds: 60)))
        XCTAssertEqual([program.width, program.height], [360, 640])
        MonitorFeedTests.assertColor(program.corner, "#d03030", "the left half is on top once turned")
        feed.waitForWorker()
        let tile = try MonitorFeedTests.decode(try XCTUnwrap(feed.lensPicture("main")))
        XCTAssertEqual([tile.width, tile.height], [320, 568])
        MonitorFeedTests.assertColor(tile.corner, "#d03030", "the tile is turned too")
        XCTAssertEqual(feed.failures.count, 0, feed.failures.last ?? "")
        feed.close()
    }

    func testAMirroredLensShowsItsRightHalfOnTheLeft() throws {
        let feed = MonitorFeed(programLens: "main")
        feed.startWatching()
        feed.offer(Self.halves(lens: "main", orientation: PictureOrientation(mirrored: true)))
        let program = try MonitorFeedTests.decode(try XCTUnwrap(feed.programPicture(after: 0, timeoutSeconds: 60)))
        XCTAssertEqual([program.width, program.height], [640, 360])
        MonitorFeedTests.assertColor(program.corner, "#3050e0", "mirrored: blue on the left")
        feed.close()
    }
}
