import Foundation
import PauseCamCore
import XCTest

/// A member's rig for the group end-to-end tests: the end-to-end rig (virtual lenses, 30 fps) named
/// `group-HOST`, with a `group:` on `broker`. `require_sync: false`, since a test machine's clock need not be
/// synchronised; `lead` as the rig would write it (`nil`: the default 250 ms).
enum GroupMemberRig {
    static func write(host: String, broker: String, in directory: URL, lead: String? = nil, fps: Int = 30,
                      extra: String = "") throws -> URL {
        let base = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
        let rig = directory.appendingPathComponent("\(host).yaml")
        let options = [extra, lead.map { "lead: \($0)" } ?? ""].filter { !$0.isEmpty }.map { ", " + $0 }.joined()
        let text = base.replacingOccurrences(of: "name: E2E rig", with: "name: group-\(host)")
            .replacingOccurrences(of: "fps: 30", with: "fps: \(fps)")
            + "group: {name: studio, broker: \"\(broker)\", host: \(host), require_sync: false\(options)}\n"
        try text.write(to: rig, atomically: true, encoding: .utf8)
        return rig
    }

    /// The movie `group-HOST.mov` in `folder` is finished and plays, its sidecar is complete, and nothing partial
    /// is left; returns the sidecar.
    @discardableResult
    static func assertSaved(host: String, in folder: URL, context: String, file: StaticString = #filePath,
                            line: UInt = #line) throws -> Sidecar {
        let base = "group-\(host)"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()) ?? []
        XCTAssertEqual(names, ["\(base).jpg", "\(base).json", "\(base).mov"], context, file: file, line: line)
        let sidecar = try Sidecar.decode(Data(contentsOf: folder.appendingPathComponent("\(base).json")))
        XCTAssertTrue(sidecar.complete, context, file: file, line: line)
        let probe = MediaProbe(path: folder.appendingPathComponent("\(base).mov").path)
        try probe.assertConstantRate(30, file: file, line: line)
        XCTAssertEqual(try probe.decodeErrors(), "", file: file, line: line)
        XCTAssertEqual(sidecar.duration, try probe.duration(), accuracy: 0.07, context, file: file, line: line)
        return sidecar
    }

    /// Waits (at most `seconds`) until `text()` holds `needle` `count` times.
    static func waitFor(_ needle: String, count: Int = 1, in text: () -> String, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if text().components(separatedBy: needle).count - 1 >= count { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return text().components(separatedBy: needle).count - 1 >= count
    }
}
