import Foundation
import PauseCamCore
import PauseCamSystem

/// `pausecam export CLIP.json --format FORMAT[,FORMAT…] [--output FILE] [--start-timecode HH:MM:SS:FF]`: writes a
/// clip's scenes (as chapters) and markers from its sidecar in the formats editors import.
///
/// Each file goes beside the sidecar as `NAME.edl`, `NAME.fcpxml`… (or to `--output`; `-` is standard output),
/// never over an existing file: `NAME-2.edl` is used instead, as for movies. Prints each path written. Anything
/// wrong — no such sidecar, not a sidecar, an unknown format, a bad timecode — is said plainly, exit status 1.
enum ExportCommand {
    /// A problem with what was asked: printed as it is, exit status 1.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["format", "output", "start-timecode"], flags: [])
        guard arguments.positional.count == 1, let sidecarPath = arguments.positional.first else {
            throw UsageError("export needs exactly one sidecar: pausecam export CLIP.json --format FORMAT")
        }
        let formats = try formatsAsked(arguments.options["format"])
        let output = arguments.options["output"]
        if let output, formats.count > 1 {
            throw Failure("--output \(output) names one file, but \(formats.count) formats were asked for; leave "
                          + "--output out to write each beside the sidecar, or export one format at a time")
        }
        let sidecar = try read(sidecarPath)
        let timeline: ExportTimeline
        do { timeline = try ExportTimeline(sidecar: sidecar) } catch { throw Failure("\(sidecarPath): \(error)") }
        var startFrame: Int64 = 0
        if let text = arguments.options["start-timecode"] {
            do { startFrame = try Timecode(rate: timeline.rate).frame(parsing: text) } catch {
                throw Failure("--start-timecode: \(error)")
            }
        }
        if !sidecar.complete {
            StandardStreamWriter.error.write("pausecam: note: \(sidecarPath) is of a clip that was not finished "
                                             + "cleanly; exporting what it recorded\n")
        }
        let folder = URL(fileURLWithPath: sidecarPath).deletingLastPathComponent()
        let movieURL = folder.appendingPathComponent(sidecar.movie)
        let store = AtomicSidecarStore()
        for format in formats {
            let text = format.render(timeline, mediaURL: movieURL.absoluteString, startFrame: startFrame)
            if output == "-" {
                StandardStreamWriter.output.write(text)
                continue
            }
            let (stem, suffix) = output.map(AddOnlyName.split)
                ?? (folder.appendingPathComponent(timeline.name).path, format.fileSuffix)
            do {
                let written = try store.writeNew(Data(text.utf8), stem: stem, suffix: suffix)
                StandardStreamWriter.output.write(written + "\n")
            } catch {
                throw Failure("the \(format.rawValue) export could not be written: \(error)")
            }
        }
        return 0
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

    /// The sidecar at `path`, with a reason a person can act on when it cannot be read.
    static func read(_ path: String) throws -> Sidecar {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Failure("\(path) does not exist; give the sidecar (NAME.json) written beside the movie")
        }
        guard !isDirectory.boolValue else {
            throw Failure("\(path) is a folder; give the sidecar (NAME.json) written beside the movie")
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
