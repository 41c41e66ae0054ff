import Foundation
import PauseCamCore
import PauseCamSystem

/// `pausecam export CLIP.json --format FORMAT[,FORMAT…] [--output FILE] [--start-timecode HH:MM:SS:FF]`: writes a
/// clip's scenes (as chapters) and markers from its sidecar in the formats editors import.
///
/// Each file goes beside the sidecar as `NAME.edl`, `NAME.fcpxml`… (or to `--output`; `-` is standard output),
/// never over an existing file: `NAME-2.edl` is used instead, as for movies. `NAME` is the sidecar's movie taken
/// as a plain file name (`SidecarMovieName`), so a sidecar cannot send the files elsewhere. Prints each path
/// written. Anything wrong with what was given — no such sidecar, not a regular file, not a sidecar, a time out of
/// range, an unknown format, a bad timecode, a YouTube list YouTube would ignore asked alone — is said plainly with
/// exit status 2 and nothing written; a file that cannot be written is exit status 1, and so is a format refused
/// beside others (`--format all` with a YouTube list YouTube would ignore): the others are written, the refused one
/// is named with its reason. A movie missing beside the sidecar is a warning: the exports are written.
/// For a clip recorded with ISOs, `fcpxml` and `edl` are of the ISO movies (a multicam clip, a cut list of reels:
/// `ExportFormat.render`), and an ISO movie missing is a warning that names it.
enum ExportCommand {
    /// A problem with what was asked (status 2) or with writing it (status 1): printed as it is.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        var status: Int32
        init(_ description: String, status: Int32 = 2) {
            self.description = description
            self.status = status
        }
    }

    /// Runs the command; a `Failure` is printed here and becomes its status.
    static func run(_ arguments: Arguments) throws -> Int32 {
        do {
            return try export(arguments)
        } catch let failure as Failure {
            StandardStreamWriter.error.write("pausecam: \(failure)\n")
            return failure.status
        }
    }

    private static func export(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["format", "output", "start-timecode"], flags: ["multicam"])
        if arguments.flags.contains("multicam") { return try exportMulticam(arguments) }
        guard arguments.positional.count == 1, let sidecarPath = arguments.positional.first else {
            throw UsageError("export needs exactly one sidecar: pausecam export CLIP.json --format FORMAT")
        }
        let formats = try formatsAsked(arguments.options["format"])
        let output = arguments.options["output"]
        if let output, formats.count > 1 {
            throw Failure("--output \(output) names one file, but \(formats.count) formats were asked for; leave "
                          + "--output out to write each beside the sidecar, or export one format at a time")
        }
        var sidecar = try read(sidecarPath)
        let sidecarURL = URL(fileURLWithPath: sidecarPath)
        let folder = sidecarURL.deletingLastPathComponent()
        sidecar.movie = SidecarMovieName.beside(sidecarFileName: sidecarURL.lastPathComponent, movie: sidecar.movie)
        let timeline: ExportTimeline
        let isos: MulticamTimeline?
        do {
            timeline = try ExportTimeline(sidecar: sidecar)
            isos = try MulticamTimeline.iso(of: sidecar, clip: timeline)
        } catch { throw Failure("\(sidecarPath): \(error)") }
        let startFrame = try startFrame(arguments, rate: timeline.rate)
        let movieURL = folder.appendingPathComponent(sidecar.movie)
        noteUnfinishedOrMissing(sidecar, sidecarPath: sidecarPath, movieURL: movieURL)
        let isoURLs = isos?.angles.map { folder.appendingPathComponent($0.movie) } ?? []
        if formats.contains(where: { [.edl, .fcpxml].contains($0) }) {
            warnMissingIsos(isoURLs.filter { $0 != movieURL }, sidecarPath: sidecarPath)
        }
        // A format whose rules refuse the clip is left out and named; the others are still written. Asked alone,
        // it is a refusal of what was asked (status 2, nothing written); beside others, status 1.
        var refusals: [String] = []
        var written = formats
        if formats.contains(.youtube), let problem = YouTubeChapterList.problem(with: timeline) {
            let refusal = "YouTube would ignore this chapter list: \(problem)"
            guard formats.count > 1 else { throw Failure("\(sidecarPath): \(refusal); nothing was written") }
            refusals.append("\(sidecarPath): the youtube export was not written: \(refusal)")
            written.removeAll { $0 == .youtube }
        }
        let store = AtomicSidecarStore()
        for format in written {
            let text = format.render(timeline, mediaURL: movieURL.absoluteString, startFrame: startFrame, isos: isos,
                                     isoURLs: isoURLs.map(\.absoluteString))
            if output == "-" {
                StandardStreamWriter.output.write(text)
                continue
            }
            let (stem, suffix) = output.map(AddOnlyName.split)
                ?? (folder.appendingPathComponent(timeline.name).path, format.fileSuffix)
            try writeNew(text, stem: stem, suffix: suffix, what: "the \(format.rawValue) export", store: store)
        }
        for refusal in refusals { StandardStreamWriter.error.write("pausecam: \(refusal)\n") }
        return refusals.isEmpty ? 0 : 1
    }

    /// The `--start-timecode` as a frame count at `rate` (0 without one).
    static func startFrame(_ arguments: Arguments, rate: FrameRate) throws -> Int64 {
        guard let text = arguments.options["start-timecode"] else { return 0 }
        do { return try Timecode(rate: rate).frame(parsing: text) } catch {
            throw Failure("--start-timecode: \(error)")
        }
    }

    /// Says so when the clip was not finished cleanly (a note) or its movie is not at `movieURL` (a warning); the
    /// exports are written either way.
    static func noteUnfinishedOrMissing(_ sidecar: Sidecar, sidecarPath: String, movieURL: URL) {
        if !sidecar.complete {
            StandardStreamWriter.error.write("pausecam: note: \(sidecarPath) is of a clip that was not finished "
                                             + "cleanly; exporting what it recorded\n")
        }
        if !FileManager.default.fileExists(atPath: movieURL.path) {
            StandardStreamWriter.error.write("pausecam: warning: the movie \(movieURL.path) (named in "
                                             + "\(sidecarPath)) does not exist; the exports are written and point "
                                             + "there, so an editor finds the movie once it is back\n")
        }
    }

    /// Warns, naming each one, when ISO movies the exports link are not where the sidecar says: the exports are
    /// written all the same, as for a missing movie, so an editor finds them once they are back (an ISO that
    /// failed keeps its `.partial`, which the sidecar's warnings name).
    static func warnMissingIsos(_ urls: [URL], sidecarPath: String) {
        let missing = urls.filter { !FileManager.default.fileExists(atPath: $0.path) }
        guard !missing.isEmpty else { return }
        let list = missing.map(\.path).joined(separator: ", ")
        StandardStreamWriter.error.write("pausecam: warning: \(missing.count) ISO movie\(missing.count == 1 ? "" : "s") "
                                         + "named in \(sidecarPath) do\(missing.count == 1 ? "es" : "") not exist: "
                                         + "\(list); the exports are written and link there, so an editor finds "
                                         + "them once they are back\n")
    }

    /// Writes `text` as a new file `stem[-N]suffix` (never over an existing one) and prints its path; a failure is
    /// status 1, naming `what`.
    static func writeNew(_ text: String, stem: String, suffix: String, what: String,
                         store: AtomicSidecarStore) throws {
        do {
            let written = try store.writeNew(Data(text.utf8), stem: stem, suffix: suffix)
            StandardStreamWriter.output.write(written + "\n")
        } catch {
            throw Failure("\(what) could not be written: \(error)", status: 1)
        }
    }

    /// `edl`, `edl,fcpxml` or `all`, each name checked.
    static func formatsAsked(_ text: String?) throws -> [ExportFormat] {
        let names = ExportFormat.allCases.map(\.rawValue)
        guard let text, !text.isEmpty else {
            throw Failure("export needs --format: one of \(names.joined(separator: ", ")), a comma-separated list, "
                          + "or all")
        }
        if text == "all" { return ExportFormat.allCases }
        var formats: [ExportFormat] = []
        for name in text.split(separator: ",").map({ String($0).trimmingCharacters(in: .whitespaces) }) {
            guard let format = ExportFormat(rawValue: name.lowercased()) else {
                throw Failure("unknown export format \"\(name)\"\(SpellingSuggestion.clause(for: name, in: names)); "
                              + "formats: \(names.joined(separator: ", ")), all")
            }
            if !formats.contains(format) { formats.append(format) }
        }
        return formats
    }

    /// The sidecar at `path`, with a reason a person can act on when it cannot be read. Its kind is looked up
    /// (`stat`, through any symbolic link) before it is opened: a FIFO would block the open until a writer came,
    /// and a device such as `/dev/urandom` never ends.
    static func read(_ path: String) throws -> Sidecar {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Failure("\(path) does not exist; give the sidecar (NAME.json) written beside the movie")
        }
        guard !isDirectory.boolValue else {
            throw Failure("\(path) is a folder; give the sidecar (NAME.json) written beside the movie")
        }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let kind = (try? FileManager.default.attributesOfItem(atPath: resolved))?[.type] as? FileAttributeType
        guard kind == .typeRegular else {
            throw Failure("\(path) is not a regular file but \(describe(kind)); give the sidecar (NAME.json) "
                          + "written beside the movie")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure("\(path) cannot be read; check its permissions")
        }
        do {
            return try Sidecar.decode(data)
        } catch {
            throw Failure("\(path) is not a PauseCam sidecar (\(reason(error))); give the NAME.json written "
                          + "beside the movie")
        }
    }

    /// What a file that is not a regular file is, in words.
    private static func describe(_ kind: FileAttributeType?) -> String {
        switch kind {
        case .typeCharacterSpecial?: "a character device"
        case .typeBlockSpecial?: "a block device"
        case .typeSocket?: "a socket"
        case .typeSymbolicLink?: "a symbolic link that leads nowhere"
        case nil: "of a kind that cannot be looked up"
        // Foundation has no name for the one kind left on Linux: `.typeUnknown` is a FIFO.
        default: "a FIFO (named pipe)"
        }
    }

    /// A short reason for a JSON decoding error: which field is missing or wrong.
    private static func reason(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "no \"\(key.stringValue)\" field"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
             DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not JSON of a sidecar" : "the field \"\(path)\" is not what a sidecar holds"
        default: return "\(error)"
        }
    }
}
