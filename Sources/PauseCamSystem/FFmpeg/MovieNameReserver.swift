import Foundation
import Glibc
import PauseCamCore

/// Picks a movie name that no other clip has taken, and holds it by creating the `.partial` file.
///
/// The name is `NAME.ext` where none of the files a clip of that name creates exists (`clipFiles`: the movie, its
/// `.partial` and `.remux`, the sidecar and its `.tmp`, the thumbnail, every export); otherwise `NAME-2`, `NAME-3`…
/// A leftover of an earlier clip (a `.remux` left by a crash while finishing) thus never makes the new clip fail to
/// finish, and is never overwritten or removed. The `.partial` is created with `O_CREAT|O_EXCL`, so two recorders
/// reserving in the same second (even in two processes) never get the same name, and no existing file is ever opened
/// for writing.
/// A clip still being finished in the background keeps its name: its `.partial` is removed only after the final
/// movie exists, and its sidecar exists from its first frame on, so `record` right after `stop` takes `NAME-2`.
struct MovieNameReserver {
    /// A reserved name: the paths that belong to one clip. The `.partial` exists (empty) once reserved.
    struct Reservation: Equatable {
        var moviePath: String
        var partialPath: String
        var sidecarPath: String
        var thumbnailPath: String
        /// The file that kept the rig's own name from being used (`nil` when it was free).
        var nameTakenBy: String?
    }

    /// The suffix of the remuxed movie's temporary file (`NAME.mov.remux`, see `ChapterRemuxer`).
    static let remuxSuffix = ".remux"

    /// Every file a clip whose name is `stem` creates beside its movie, in or after recording.
    static func clipFiles(stem: String, fileExtension: String) -> [String] {
        let movie = "\(stem).\(fileExtension)"
        let files: [String] = [movie, movie + ".partial", movie + remuxSuffix, stem + ".json", stem + ".json.tmp",
                               stem + ".jpg"]
        return files + ExportFormat.allCases.map { stem + $0.fileSuffix }
    }

    /// Why a name could not be reserved.
    struct ReservationError: Error, CustomStringConvertible {
        var description: String
    }

    var directory: String
    var baseName: String
    var fileExtension: String
    /// Gives up after this many taken names (a runaway loop would otherwise mean a broken directory).
    var maximumAttempts = 10_000

    /// Creates `directory` if needed, then reserves the first free name.
    func reserve() throws -> Reservation {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ReservationError(description: "cannot create the output directory \(directory): "
                                   + "\(error.localizedDescription); choose another directory with --output")
        }
        var takenBy: String?
        for attempt in 1...maximumAttempts {
            let name = attempt == 1 ? baseName : "\(baseName)-\(attempt)"
            let stem = (directory as NSString).appendingPathComponent(name)
            let candidate = Reservation(moviePath: "\(stem).\(fileExtension)",
                                        partialPath: "\(stem).\(fileExtension).partial",
                                        sidecarPath: "\(stem).json", thumbnailPath: "\(stem).jpg", nameTakenBy: takenBy)
            if let taken = Self.clipFiles(stem: stem, fileExtension: fileExtension).first(where: Self.exists) {
                if attempt == 1 { takenBy = taken }
                continue
            }
            do throws(Errno) {
                let partial = try FileDescriptor.open(candidate.partialPath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
                                                      permissions: 0o644)
                try? partial.close()
                return candidate
            } catch where error == .fileExists {
                if attempt == 1 { takenBy = candidate.partialPath }
                continue
            } catch {
                throw ReservationError(description: "cannot create \(candidate.partialPath): "
                                       + "\(error.message); check the directory's permissions")
            }
        }
        throw ReservationError(description: "no free movie name for \(baseName) in \(directory) after "
                               + "\(maximumAttempts) attempts")
    }

    /// True when anything (file, link, directory) sits at `path`. The corresponding C function is `lstat`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
