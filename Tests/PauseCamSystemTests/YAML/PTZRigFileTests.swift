import Foundation
import PauseCamCore
import PauseCamSystem
import XCTest

/// A PTZ lens in a rig file: `optical_max:` on the lens, `optical:` and `ptz: {pan:, tilt:}` in a zoom preset, read
/// through the real YAML parser so that a wrong type is reported at its file, line and column.
final class PTZRigFileTests: XCTestCase {
    private static let header = """
        name: PTZ
        lenses:
          main: {zoom: 1, match: {usb: "046d:0853"}, optical_max: 3}
          wide: {zoom: 0.5, virtual: {color: "#d03030"}}
        zoom_presets:

        """

    func testPresetsCarryOpticalAndPanTiltAndTheLensItsOpticalReach() throws {
        let rig = try RigLoader.load(text: Self.header + """
              desk:  {lens: main, optical: 200, ptz: {pan: -3600, tilt: 0}, ramp: 1s}
              door:  {lens: main, ptz: {tilt: 7200}}
              plain: {lens: main, digital: 2}
            """, file: "p.yaml")
        XCTAssertEqual(rig.lens(named: "main")?.opticalMax, 3)
        XCTAssertNil(rig.lens(named: "wide")?.opticalMax)
        XCTAssertEqual(rig.zoomPreset(named: "desk")?.ptz, PTZPosition(zoom: 200, pan: -3600, tilt: 0))
        XCTAssertEqual(rig.zoomPreset(named: "desk")?.ramp, .seconds(1))
        XCTAssertEqual(rig.zoomPreset(named: "door")?.ptz, PTZPosition(tilt: 7200))
        XCTAssertEqual(rig.zoomPreset(named: "plain")?.ptz, PTZPosition())
    }

    func testWrongTypesAreRigErrorsAtTheirPlace() {
        let text = Self.header + """
              a: {lens: main, optical: wide}
              b: {lens: main, ptz: {pan: 1.5, roll: 3}}
              c: {lens: main, ptz: 90}
            """
        XCTAssertThrowsError(try RigLoader.load(text: text, file: "p.yaml")) { error in
            XCTAssertEqual((error as? RigError)?.description.split(separator: "\n").map(String.init), [
                "p.yaml:6:28: zoom_presets.a.optical: expected a whole number of the camera's zoom units "
                    + "(zoom_absolute), such as 200, found \"wide\"",
                "p.yaml:7:30: zoom_presets.b.ptz.pan: expected a whole number of arc seconds (pan_absolute), such "
                    + "as -3600, found \"1.5\"",
                "p.yaml:7:35: zoom_presets.b.ptz: unknown key \"roll\" (expected one of: pan, tilt)",
                "p.yaml:8:24: zoom_presets.c.ptz: expected a mapping (pan: tilt: …), found \"90\"",
            ])
        }
    }

    func testOpticalMaxIsAFactorAboveOneAndOnlyForACamera() {
        let text = """
            name: PTZ
            lenses:
              main: {zoom: 1, match: {usb: "046d:0853"}, optical_max: 1}
              film: {zoom: 2, file: /tmp/none.mov, optical_max: 3}
            """
        XCTAssertThrowsError(try RigLoader.load(text: text, file: "p.yaml")) { error in
            let lines = (error as? RigError)?.description.split(separator: "\n").map(String.init) ?? []
            XCTAssertTrue(lines.contains("p.yaml:3:59: lenses.main.optical_max: expected the optical zoom factor at "
                                         + "the camera's longest zoom, more than 1 and at most 100, found \"1\""),
                          lines.joined(separator: "\n"))
            XCTAssertTrue(lines.contains { $0.hasPrefix("p.yaml:4:") && $0.contains("\"optical_max\" does not apply to "
                                                                                      + "a movie file lens") },
                          lines.joined(separator: "\n"))
        }
    }

    func testAScriptsZoomStepCountsTheDeclaredOpticsInTheDigitalLimit() {
        let text = Self.header + """
              plain: {lens: main}
            max_digital_zoom: 2
            scripts:
              far: [record, zoom 6, stop]
              tooFar: [record, zoom 7, stop]
            """
        XCTAssertThrowsError(try RigLoader.load(text: text, file: "p.yaml")) { error in
            XCTAssertEqual((error as? RigError)?.description,
                           "p.yaml:10:20: scripts.tooFar step 2: zoom 7x is beyond this rig: digital zoom is limited "
                           + "to 2x (max_digital_zoom), so with main (3x at its longest optical zoom) the most is 6x",
                           "6x is main's 3x optics times 2x digital; 7x is not")
        }
    }
}
