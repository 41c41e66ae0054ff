import Foundation
import XCTest

/// `audio:` as a list of voices and `follow:` through the built binary: `check` reports every problem of a voices
/// rig as `FILE:LINE:COLUMN: message` read from real YAML (exit status 2), and summarises a good one (exit status 0).
final class VoicesRigEndToEndTests: XCTestCase {
    func check(_ text: String) throws -> (path: String, result: ProcessResult) {
        let path = try ProcessRunner.temporaryDirectory("voices-rig").appendingPathComponent("voices.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", path]))
    }

    func testABadVoicesRigIsReportedAtEachLineAndColumn() throws {
        let (path, result) = try check("""
            name: voices
            audio:
              - {name: host, match: {usb: "1234:5678"}, channel: 1}
              - {name: guest, match: {usb: "1234:5678"}, channel: 1}
              - name: host
                device: virtual
            lenses:
              wide: {zoom: 0.5, virtual: {color: "#d03030"}}
              tele: {zoom: 3, virtual: {color: "#3050e0"}}
            follow:
              host: tele
              gust: tele
              both: wide

            """)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertEqual(result.stderr, """
            \(path):4:55: audio.guest: the same card and channel as voice "host" (usb "1234:5678", channel 1); give each voice its own channel:
            \(path):5:11: audio.host.name: the name "host" is taken by the voice at line 3, column 12; give each voice its own name
            \(path):12:3: follow: "gust" is neither a voice nor an option of follow; did you mean "guest"?
            \(path): 3 errors

            """)
        XCTAssertEqual(result.stdoutText, "")
    }

    func testAnInterviewOnTwoChannelsOfOneInterfaceChecksClean() throws {
        let (path, result) = try check("""
            name: interview
            audio:
              - {name: host, match: {usb: "1234:5678"}, channel: 1, pan: -0.3}
              - {name: guest, match: {usb: "1234:5678"}, channel: 2, pan: 0.3, gain: +4dB}
            lenses:
              wide: {zoom: 0.5, virtual: {color: "#d03030"}}
              main: {zoom: 1, virtual: {color: "#20c040"}}
              tele: {zoom: 3, virtual: {color: "#3050e0"}}
            follow: {host: main, guest: tele, both: wide, hold: 1.5s}

            """)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(result.stdoutText.hasPrefix("\(path): \"interview\" is valid\n"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("""
              audio: 2 voices, each on its own track beside the stereo mix (optional)
                host   usb "1234:5678", channel 1, pan -0.3
                guest  usb "1234:5678", channel 2, gain +4dB, pan +0.3
              follow (on at start): host → main, guest → tele, both → wide, nobody → wide
                      min shot 2s, hold 1.5s, manual hold 10s, threshold -40 dBFS

            """), result.stdoutText)
    }

    /// The README's two examples of "Several voices and `follow:`", in a rig of the lenses they name, check clean.
    func testTheReadmeVoicesExamplesAreValid() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try XCTUnwrap(text.range(of: "### Several voices and `follow:`"), "the README lost its voices section")
        var examples: [String] = []
        var from = section.upperBound
        while examples.count < 2, let start = text.range(of: "```yaml\n", range: from..<text.endIndex),
              let end = text.range(of: "```", range: start.upperBound..<text.endIndex) {
            examples.append(String(text[start.upperBound..<end.lowerBound]))
            from = end.upperBound
        }
        XCTAssertEqual(examples.count, 2)
        XCTAssertTrue(examples.first?.hasPrefix("audio:\n") == true, examples.first ?? "")
        XCTAssertTrue(examples.last?.hasPrefix("follow:\n") == true, examples.last ?? "")
        let (_, result) = try check("""
            name: readme
            lenses:
              wide: {zoom: 0.5, virtual: {color: "#d03030"}}
              main: {zoom: 1, virtual: {color: "#20c040"}}
              tele: {zoom: 3, virtual: {color: "#3050e0"}}

            """ + examples.joined())
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutText.contains("follow (on at start): host → main, guest → tele, both → wide"),
                      result.stdoutText)
    }
}
