import PauseCamCore
import XCTest

/// A tap on the program picture mapped back to the camera's sensor: tables worked out by hand for the upright lens
/// (centre, corners, digital zoom), and, for every turn and mirror at several zooms, the sample the tap lands on
/// found by orienting a picture with one bright sample through `OrientingCopier`, the copy the movie uses.
final class TapRegionTests: XCTestCase {
    func testAnUprightLensMapsTheTapThroughTheDigitalZoomAndKeepsTheRegionInside() {
        let upright = PictureOrientation.upright
        let table: [(x: Double, y: Double, zoom: Double, expected: PixelRect, why: String)] = [
            (0.5, 0.5, 1, PixelRect(x: 852, y: 432, width: 216, height: 216), "the centre, a fifth of 1080 high"),
            (0.25, 0.75, 1, PixelRect(x: 372, y: 702, width: 216, height: 216), "a quarter across, three down"),
            (0, 0, 2, PixelRect(x: 426, y: 216, width: 108, height: 108), "2x: the shown corner is the crop's"),
            (0.5, 0.5, 2, PixelRect(x: 906, y: 486, width: 108, height: 108), "2x: a fifth of the 540 shown"),
            (1, 1, 1, PixelRect(x: 1704, y: 864, width: 216, height: 216), "a corner: moved inside, not cut"),
            (-3, 7, 1, PixelRect(x: 0, y: 864, width: 216, height: 216), "outside: taken at the nearest edge"),
            (0.5, 0.5, 1.0, PixelRect(x: 852, y: 432, width: 216, height: 216), "zoom 1 is no crop"),
        ]
        for row in table {
            XCTAssertEqual(TapRegion.sensorRect(x: row.x, y: row.y, sensorWidth: 1920, sensorHeight: 1080,
                                                orientation: upright, digitalZoom: row.zoom), row.expected, row.why)
        }
    }

    func testTurnsAndMirrorsTakeTheTapBackToTheSensorCorners() {
        // The shown picture's top-left corner, for each orientation of a 1920x1080 sensor: where it came from.
        let table: [(PictureOrientation.Rotation, Bool, PixelRect)] = [
            (.none, false, PixelRect(x: 0, y: 0, width: 216, height: 216)),
            (.none, true, PixelRect(x: 1704, y: 0, width: 216, height: 216)),
            (.quarter, false, PixelRect(x: 0, y: 864, width: 216, height: 216)),   // turned right: bottom-left
            (.quarter, true, PixelRect(x: 0, y: 0, width: 216, height: 216)),
            (.half, false, PixelRect(x: 1704, y: 864, width: 216, height: 216)),
            (.half, true, PixelRect(x: 0, y: 864, width: 216, height: 216)),
            (.threeQuarters, false, PixelRect(x: 1704, y: 0, width: 216, height: 216)),
            (.threeQuarters, true, PixelRect(x: 1704, y: 864, width: 216, height: 216)),
        ]
        for (rotation, mirrored, expected) in table {
            let orientation = PictureOrientation(rotation: rotation, mirrored: mirrored)
            XCTAssertEqual(TapRegion.sensorRect(x: 0, y: 0, sensorWidth: 1920, sensorHeight: 1080,
                                                orientation: orientation, digitalZoom: 1), expected, "\(orientation)")
        }
    }

    func testATapOnAnOrientedSampleFindsThatSampleOnTheSensor() {
        var random = SeededGenerator(seed: 23)
        let width = 64, height = 48
        for rotation in PictureOrientation.Rotation.allCases {
            for mirrored in [false, true] {
                let orientation = PictureOrientation(rotation: rotation, mirrored: mirrored)
                for zoom in [1.0, 1.5, 3.0] {
                    for _ in 0..<40 {
                        let sensor = (x: Int.random(in: 0..<width, using: &random),
                                      y: Int.random(in: 0..<height, using: &random))
                        var luma = [UInt8](repeating: 0, count: width * height)
                        luma[sensor.y * width + sensor.x] = 255
                        let chroma = Plane(bytes: [UInt8](repeating: 128, count: width * height / 4), stride: width / 2)
                        let (layout, planes) = OrientingCopier.oriented(
                            [Plane(bytes: luma, stride: width), chroma, chroma], format: .yuv420p, width: width,
                            height: height, orientation: orientation)
                        let bright = planes[0].bytes.firstIndex(of: 255)!
                        let shown = (x: bright % layout.width, y: bright / layout.width)
                        let crop = zoom > 1 ? ZoomPlan.centreCrop(width: layout.width, height: layout.height, factor: zoom)
                            : PixelRect(x: 0, y: 0, width: layout.width, height: layout.height)
                        guard (crop.x..<(crop.x + crop.width)).contains(shown.x),
                              (crop.y..<(crop.y + crop.height)).contains(shown.y) else { continue }
                        let tap = (x: (Double(shown.x - crop.x) + 0.5) / Double(crop.width),
                                   y: (Double(shown.y - crop.y) + 0.5) / Double(crop.height))
                        let region = TapRegion.sensorRect(x: tap.x, y: tap.y, sensorWidth: width, sensorHeight: height,
                                                          orientation: orientation, digitalZoom: zoom,
                                                          shownFraction: 0.1)
                        let what = "\(orientation) at \(zoom)x, sensor sample \(sensor), shown at \(shown): \(region)"
                        XCTAssertTrue((region.x..<(region.x + region.width)).contains(sensor.x), what)
                        XCTAssertTrue((region.y..<(region.y + region.height)).contains(sensor.y), what)
                        XCTAssertTrue(region.x >= 0 && region.y >= 0 && region.x + region.width <= width
                                      && region.y + region.height <= height, what)
                        let inside = region.x > 0 && region.y > 0 && region.x + region.width < width
                            && region.y + region.height < height
                        if inside {
                            XCTAssertEqual(Double(region.x) + Double(region.width) / 2, Double(sensor.x) + 0.5,
                                           accuracy: 1, what)
                            XCTAssertEqual(Double(region.y) + Double(region.height) / 2, Double(sensor.y) + 0.5,
                                           accuracy: 1, what)
                        }
                    }
                }
            }
        }
    }
}
