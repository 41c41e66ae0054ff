import Foundation
import PauseCamCore

/// Where measured encoder speeds are kept between runs, so `preset: auto` measures once per machine, canvas size
/// and rate: `$XDG_CACHE_HOME/pausecam/encoder-speed.json` (default `~/.cache/pausecam/`).
///
/// Keyed by CPU model, core count, size and rate: a different machine (or a VM given more cores) measures again.
/// A file that does not parse is treated as empty and rewritten by the next measurement: a cache never stops a
/// recording. Writes go to a temporary name and are renamed into place, so a reader never sees half a file.
public struct EncoderSpeedCache: Sendable {
    /// The cache file.
    public let path: String
    /// This machine's identity: CPU model and the number of online cores.
    public let machine: String

    /// The cache in `directory`, or the XDG default; `machine` defaults to this machine's identity.
    public init(directory: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                machine: String = EncoderSpeedCache.machineIdentity()) {
        let base = directory ?? EncoderSpeedCache.defaultDirectory(environment: environment)
        path = (base as NSString).appendingPathComponent("encoder-speed.json")
        self.machine = machine
    }

    /// `$XDG_CACHE_HOME/pausecam`, else `$HOME/.cache/pausecam`.
    public static func defaultDirectory(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/pausecam" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.cache/pausecam"
    }

    /// "CPU MODEL × N cores", from `/proc/cpuinfo` and the online processor count.
    public static func machineIdentity() -> String {
        "\(cpuModel()) × \(ProcessInfo.processInfo.activeProcessorCount) cores"
    }

    /// The first `model name` of `/proc/cpuinfo` ("unknown CPU" where there is none).
    public static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown CPU" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown CPU"
    }

    func key(width: Int, height: Int, rate: FrameRate) -> String {
        "\(machine) | \(width & ~1)x\(height & ~1) | \(rate.numerator)/\(rate.denominator)"
    }

    /// The stored measurement for this size and rate, nil when there is none or the file does not parse.
    public func measurement(width: Int, height: Int, rate: FrameRate) -> EncoderSpeedMeasurement? {
        guard let entry = entries()[key(width: width, height: height, rate: rate)] as? [[String: Any]] else {
            return nil
        }
        var samples: [EncoderSpeedMeasurement.Sample] = []
        for item in entry {
            guard let preset = item["preset"] as? String, let fps = item["fps"] as? Double, fps.isFinite, fps > 0,
                  EncoderPresetChoice.ladder.contains(preset) else { return nil }
            samples.append(.init(preset: preset, framesPerSecond: fps))
        }
        guard !samples.isEmpty else { return nil }
        return EncoderSpeedMeasurement(width: width & ~1, height: height & ~1, rate: rate, samples: samples)
    }

    /// Stores `measurement`, keeping the other sizes' entries (a corrupt file is replaced).
    public func store(_ measurement: EncoderSpeedMeasurement) throws {
        var all = entries()
        all[key(width: measurement.width, height: measurement.height, rate: measurement.rate)] =
            measurement.samples.map { ["preset": $0.preset, "fps": $0.framesPerSecond] as [String: Any] }
        let data = try JSONSerialization.data(withJSONObject: ["version": 1, "entries": all],
                                              options: [.prettyPrinted, .sortedKeys])
        let directory = PathText.folder(of: path)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let temporary = path + ".\(getpid()).tmp"
            try data.write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else {
                let code = errno
                unlink(temporary)
                throw FileWriteError("rename", path: path, code: code)
            }
        } catch {
            throw WriteError(description: "the encoder speed cache \(path) could not be written (\(error)); "
                             + "check that \(directory) is writable, or set XDG_CACHE_HOME")
        }
    }

    /// The cache could not be written: what, where, and what to do.
    public struct WriteError: Error, CustomStringConvertible {
        public var description: String
    }

    private func entries() -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              object["version"] as? Int == 1,
              let entries = object["entries"] as? [String: Any] else { return [:] }
        return entries
    }
}
