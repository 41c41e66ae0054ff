import Foundation
import PauseCamCore

/// The kernel log as `dmesg` prints it, or why it cannot be read (`kernel.dmesg_restrict` keeps it from users
/// without `CAP_SYSLOG`; a container may hide it). `dmesg` (util-linux, in every Debian) is run rather than
/// `/dev/kmsg` read so the text is the one users know and search for.
enum KernelLogReader {
    static func read() -> DoctorFacts.Reading<[String]> {
        guard let program = ["/usr/bin/dmesg", "/bin/dmesg"].first(where: FileManager.default.isExecutableFile)
        else { return .notReadable("dmesg is not installed (Debian package util-linux)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["--kernel"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return .notReadable("dmesg could not run: \(error)") }
        // Read both pipes before waiting: a large log would otherwise fill the pipe and stall dmesg.
        let text = output.fileHandleForReading.readDataToEndOfFile()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let reason = String(decoding: problem, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return .notReadable(reason.isEmpty ? "dmesg exited with status \(process.terminationStatus)" : reason)
        }
        return .read(String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init))
    }
}
