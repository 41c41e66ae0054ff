import Foundation
import XCTest

/// The monitor's QR code through the built binary: listening beyond loopback, the shell prints the token URL and
/// then the URL as a QR code in half blocks; the test turns the printed characters back into pixels, writes a PNG
/// with `ffmpeg` and reads it with a real decoder, `zbarimg`, which must find exactly the printed URL.
final class MonitorQRCodeEndToEndTests: XCTestCase {
    func testBeyondLoopbackTheTokenURLIsPrintedAsAQRCodeThatDecodesToIt() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg") else {
            throw XCTSkip("/usr/bin/zbarimg is missing (scripts/install-deps installs zbar-tools)")
        }
        let shell = try ControlledShell(name: "qr", extraArguments: ["--web", "0.0.0.0:0"])
        let deadline = Date().addingTimeInterval(60)
        var lines: [String] = []
        // The code's last line is a row of top halves (a code with its quiet zone has an odd number of rows).
        while Date() < deadline {
            lines = shell.running.stderr.components(separatedBy: "\n")
            if let start = lines.firstIndex(where: { $0.hasPrefix("monitor: ") }),
               lines[(start + 1)...].contains(where: { !$0.isEmpty && $0.allSatisfy { $0 == "▀" } }) { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
        let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("monitor: ") }, shell.running.stderr)
        let url = String(lines[start].dropFirst("monitor: ".count))
        XCTAssertTrue(url.hasPrefix("http://") && url.contains("/?token="), url)
        let end = try XCTUnwrap(lines[(start + 1)...].firstIndex { !$0.isEmpty && $0.allSatisfy { $0 == "▀" } })
        let text = Array(lines[(start + 1)...end])
        let width = text[0].count
        XCTAssertTrue(text.allSatisfy { $0.count == width }, "every line is as wide: \(text)")
        // Modules per side with the 2-module quiet zone: 17 + 4 × version + 4, one character per module.
        XCTAssertEqual((width - 21) % 4, 0, "width \(width) is not a QR code's size plus its quiet zone")
        XCTAssertEqual(text.count, (width + 1) / 2, "two module rows per line")

        // One byte per module, light (the drawn half) 255, dark 0, as a PGM; ffmpeg scales it up into a PNG.
        var pixels: [UInt8] = []
        for line in text {
            var top: [UInt8] = [], bottom: [UInt8] = []
            for character in line {
                let halves: (Bool, Bool)
                switch character {
                case "█": halves = (true, true)
                case "▀": halves = (true, false)
                case "▄": halves = (false, true)
                case " ": halves = (false, false)
                default: return XCTFail("unexpected character \(character) in the QR code")
                }
                top.append(halves.0 ? 255 : 0)
                bottom.append(halves.1 ? 255 : 0)
            }
            pixels += top + bottom
        }
        let rows = width  // the last line's bottom half lies outside the code
        let folder = try ProcessRunner.temporaryDirectory("qr")
        let pgm = folder.appendingPathComponent("code.pgm"), png = folder.appendingPathComponent("code.png")
        try (Data("P5\n\(width) \(rows)\n255\n".utf8) + Data(pixels.prefix(width * rows))).write(to: pgm)
        let converted = try ProcessRunner.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", pgm.path, "-vf",
                                                                   "scale=iw*8:ih*8:flags=neighbor", png.path])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        let read = try ProcessRunner.run("/usr/bin/zbarimg", ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", png.path])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(read.stdoutText.trimmingCharacters(in: .newlines), url, "zbarimg reads the printed URL")
    }

    func testOnLoopbackNoQRCodeIsPrinted() throws {
        let shell = try ControlledShell(name: "no-qr", extraArguments: ["--web", "127.0.0.1:0"])
        let url = try MonitorWebEndToEndTests.webAddress(shell)
        let deadline = Date().addingTimeInterval(30)
        while !shell.running.stderr.contains("monitor: \(url)") && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
        XCTAssertTrue(shell.running.stderr.contains("monitor: \(url)"), shell.running.stderr)
        XCTAssertFalse(shell.running.stderr.contains("▀"), shell.running.stderr)
    }
}
