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

    /// Every file a clip whose name is `stem` creates beside its movie, in or after recording (and the folder of its
    /// ISO movies).
    static func clipFiles(stem: String, fileExtension: String) -> [String] {
        let movie = "\(stem).\(fileExtension)"
        let sidecar = stem + ClipFileNames.sidecarSuffix
        let files: [String] = [movie, movie + ClipFileNames.partialSuffix, movie + ClipFileNames.remuxSuffix, sidecar,
                               sidecar + ClipFileNames.temporarySuffix, stem + ClipFileNames.thumbnailSuffix]
        return files + [stem + ClipFileNames.isoSuffix] + ExportFormat.allCases.map { stem + $0.fileSuffix }
    }

    /// Why a name could not be reserved.
    struct ReservationError: Error, CustomStringConvertible {
        var description: String
    }

    var directory: String
    var baseName: String
    var fileExtension: String
    /// Gives up after this many taken names (a runaway loop would otherwise mean a broken directory).
    var maximumAttempts = ClipFileNames.maximumCounter

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
            let name = ClipFileNames.counted(baseName, attempt: attempt)
            let stem = (directory as NSString).appendingPathComponent(name)
            let candidate = Reservation(moviePath: "\(stem).\(fileExtension)",
                                        partialPath: "\(stem).\(fileExtension)\(ClipFileNames.partialSuffix)",
                                        sidecarPath: stem + ClipFileNames.sidecarSuffix,
                                        thumbnailPath: stem + ClipFileNames.thumbnailSuffix, nameTakenBy: takenBy)
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
            } catch where error == .nameTooLong {
                throw ReservationError(description: "cannot create \(candidate.partialPath): \(error.message): "
                                       + Self.nameTooLongAdvice(candidate.partialPath))
            } catch {
                throw ReservationError(description: "cannot create \(candidate.partialPath): "
                                       + "\(error.message); check the directory's permissions")
            }
        }
        throw ReservationError(description: "no free movie name for \(baseName) in \(directory) after "
                               + "\(maximumAttempts) attempts")
    }

    /// What to do about a path the kernel found too long (`ENAMETOOLONG`): which limit it passes, in bytes.
    static func nameTooLongAdvice(_ path: String) -> String {
        let name = PathText.lastComponent(of: path).utf8.count
        let whole = path.utf8.count
        if name > ClipFileNames.maximumNameBytes {
            return "the file name is \(name) bytes and a file name holds at most \(ClipFileNames.maximumNameBytes); "
                + "shorten output.name (or the rig's name it contains)"
        }
        if whole > ClipFileNames.maximumPathBytes {
            return "the path is \(whole) bytes and a path holds at most \(ClipFileNames.maximumPathBytes); record to a "
                + "folder with a shorter path (--output) or shorten output.name"
        }
        return "this file system allows shorter names than most; shorten output.name or record to another disk "
            + "with --output"
    }

    /// True when anything (file, link, directory) sits at `path`. The corresponding C function is `lstat`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
