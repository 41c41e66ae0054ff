import Foundation
import PauseCamCore

/// The kernel log as `dmesg` prints it, or why it cannot be read (`kernel.dmesg_restrict` keeps it from users
/// without `CAP_SYSLOG`; a container may hide it). `dmesg` (util-linux, in every Debian) is run rather than
/// `/dev/kmsg` read so the text is the one users know and search for.
enum KernelLogReader {
    static func read() -> DoctorFacts.Reading<[String]> {
        guard let program = ["/usr/bin/dmesg", "/bin/dmesg"].first(where: FileManager.default.isExecutableFile)
        else { return .notReadable("dmesg is not installed (Debian package util-linux)") }
        // No options: util-linux's dmesg and BusyBox's (small systems, the VM test's guest, which knows none) both
        // print the ring buffer then. One run only: a second `Process` in a row has been seen to hang in
        // `waitUntilExit` on a system where Foundation cannot make its wakeup socket pair.
        let result = run(program, [])
        let text: Data
        switch result {
        case .failure(let failure): return .notReadable(failure.reason)
        case .success(let output): text = output
        }
        return .read(String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    /// `program arguments`' standard output, or why it failed (its standard error, or its exit status).
    private static func run(_ program: String, _ arguments: [String]) -> Result<Data, KernelLogFailure> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return .failure(KernelLogFailure("dmesg could not run: \(error)")) }
        // Read both pipes before waiting: a large log would otherwise fill the pipe and stall dmesg.
        let text = output.fileHandleForReading.readDataToEndOfFile()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let reason = String(decoding: problem, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            // BusyBox follows its complaint with its whole usage text: the first line says what went wrong.
            let first = reason.split(separator: "\n").first.map(String.init) ?? ""
            return .failure(KernelLogFailure(first.isEmpty ? "dmesg exited with status \(process.terminationStatus)" : first))
        }
        return .success(text)
    }
}

/// Why `dmesg` gave no log.
struct KernelLogFailure: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
