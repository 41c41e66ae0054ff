import Foundation
import PauseCamCore
import XCTest

/// The page, script and style sheet the monitor serves are exactly the files in `Sources/PauseCamCore/Monitor/Page`,
/// which a web developer edits as any web page's.
final class MonitorPageTests: XCTestCase {
    private func pageFile(_ name: String) throws -> String {
        let tests = URL(fileURLWithPath: #filePath)
        let root = tests.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("Sources/PauseCamCore/Monitor/Page/\(name)"),
                          encoding: .utf8)
    }

    func testTheServedPageScriptAndStyleAreTheFilesInPage() throws {
        XCTAssertEqual(MonitorPage.html, try pageFile("index.html"))
        XCTAssertEqual(MonitorPage.script, try pageFile("app.js"))
        XCTAssertEqual(MonitorPage.styleSheet, try pageFile("app.css"))
        XCTAssertTrue(MonitorPage.html.contains(#"<script src="/app.js"></script>"#))
        XCTAssertTrue(MonitorPage.html.contains(#"<link rel="stylesheet" href="/app.css">"#))
        XCTAssertTrue(MonitorPage.script.hasPrefix("\"use strict\";"))
    }

    func testTheRigDescriptionNamesTheVoicesAndWhetherItFollows() throws {
        var rig = Rig(name: "Interview", lenses: [Rig.Lens(name: "wide", source: .virtual(color: RGBColor(red: 0, green: 0, blue: 0)))])
        rig.audio.voices = [Rig.Voice(name: "host", source: .virtual), Rig.Voice(name: "guest", source: .virtual)]
        rig.follow = Rig.Follow(lenses: [(voice: "host", lens: "wide")], both: "wide")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(MonitorPage.rigJSON(rig, hasPictures: false).utf8)) as? [String: Any])
        XCTAssertEqual(object["voices"] as? [String], ["host", "guest"], "in rig order")
        XCTAssertEqual(object["follow"] as? Bool, true)
        rig.audio.voices = []
        rig.follow = nil
        let plain = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(MonitorPage.rigJSON(rig, hasPictures: false).utf8)) as? [String: Any])
        XCTAssertEqual(plain["voices"] as? [String], [])
        XCTAssertEqual(plain["follow"] as? Bool, false)
    }

    func testTheRigDescriptionSaysWhichLensesCanHaveControls() throws {
        let rig = Rig(name: "Desk", lenses: [
            Rig.Lens(name: "wide", source: .camera(.serial("2F4A1C"))),
            Rig.Lens(name: "main", source: .virtual(color: RGBColor(red: 0, green: 0, blue: 0))),
            Rig.Lens(name: "film", source: .file(path: "/m/a.mov", loop: true)),
        ])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(MonitorPage.rigJSON(rig, hasPictures: true).utf8)) as? [String: Any])
        let lenses = try XCTUnwrap(object["lenses"] as? [[String: Any]])
        XCTAssertEqual(lenses.map { $0["name"] as? String }, ["wide", "main", "film"])
        XCTAssertEqual(lenses.map { $0["controls"] as? Bool }, [true, false, false],
                       "only a camera's lens can have exposure and focus controls")
    }
}
