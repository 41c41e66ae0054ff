import Foundation
import PauseCamCore
import PauseCamSystem

/// `pausecam check RIG…`: validates each rig file without opening any device or output file. Every error of every
/// file goes to standard error as `FILE:LINE:COLUMN: message`; a clean rig gets a summary on standard output.
/// Returns the exit status: 0 when all rigs are clean, 2 when any has an error (or no rig was named).
func runCheck(_ paths: [String]) -> Int32 {
    guard !paths.isEmpty else {
        writeStandardError("usage: pausecam check RIG…\n")
        return 2
    }
    var status: Int32 = 0
    for path in paths {
        do {
            let rig = try RigLoader.load(path: path)
            StandardStreamWriter.output.write(RigSummary.text(of: rig, file: path))
        } catch {
            writeStandardError(error.description + "\n")
            let count = error.diagnostics.count
            writeStandardError("\(path): \(count) error\(count == 1 ? "" : "s")\n")
            status = 2
        }
    }
    return status
}

private func writeStandardError(_ text: String) {
    StandardStreamWriter.error.write(text)
}
