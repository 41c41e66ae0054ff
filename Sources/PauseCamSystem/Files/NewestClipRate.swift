import Foundation
import PauseCamCore

/// The rate the newest finished clip of a folder filled the disk at (`ClipRate`): its sidecar's duration and the
/// sizes of the files it names (the movie, its ISOs, its voices' WAVs). For `doctor`'s recording time left and for
/// the idle rig's before its first clip.
public enum NewestClipRate {
    /// The sidecars looked at, newest first: the first that names an existing movie and lasted a second or more
    /// wins. A folder of thousands of clips costs one `stat` each, and at most this many sidecars read.
    static let sidecarsTried = 5
    /// The largest sidecar read (a clip of thousands of scenes is a few megabytes).
    static let largestSidecar = 64 << 20

    /// The newest clip of `folder` (of rig `rig` when given) and its rate; `nil` when there is none.
    public static func find(in folder: String, rig: String? = nil) -> ClipRate? {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder) else { return nil }
        let probe = FileSystemStorageProbe()
        let sidecars = names.filter { $0.hasSuffix(".json") }.compactMap { name -> (path: String, date: Date)? in
            let path = folder + "/" + name
            guard let date = (try? manager.attributesOfItem(atPath: path))?[.modificationDate] as? Date else { return nil }
            return (path, date)
        }.sorted { $0.date > $1.date }
        for sidecarPath in sidecars.prefix(sidecarsTried).map(\.path) {
            guard let size = probe.fileSize(at: sidecarPath), size <= largestSidecar,
                  let data = manager.contents(atPath: sidecarPath), let sidecar = try? Sidecar.decode(data),
                  sidecar.complete, rig.map({ $0 == sidecar.rig }) ?? true,
                  !sidecar.movie.contains("/"), let movieBytes = probe.fileSize(at: folder + "/" + sidecar.movie)
            else { continue }
            let companions = (sidecar.iso ?? []).map(\.file) + (sidecar.audio?.tracks ?? []).compactMap(\.file)
            let bytes = companions.filter { !$0.hasPrefix("/") && !$0.contains("..") }
                .reduce(movieBytes) { total, file in
                    let size = probe.fileSize(at: folder + "/" + file) ?? 0
                    return total.addingReportingOverflow(size).overflow ? Int64.max : total + size
                }
            if let rate = ClipRate.measured(movie: sidecar.movie, bytes: bytes, duration: sidecar.duration) { return rate }
        }
        return nil
    }
}
