import Foundation
import PauseCamCore
@_spi(Bench) import PauseCamSystem

/// Finishing a clip with three ISOs in place: the program and three ISO movies of `seconds` each, finished one after
/// another as a clip's finish job does, timed together (`finish_seconds_per_recorded_hour_3_isos`) and with the bytes
/// they add over the four movies' bytes (`finish_extra_disk_ratio_3_isos`).
///
/// Each movie is synthesised as `FinishBench` makes the program's (10 s of `testsrc2` with AAC, looped by stream
/// copy into a fragmented `.mov` with PauseCam's fragment options), at the program's 1280x720 and 4 Mbit/s and at
/// three lens sizes and rates. One movie is on disk at a time (each is about 2 GB for an hour).
enum FinishIsoBench {
    /// The program's size and bit rate, then the three ISO lenses'.
    static let movies: [(name: String, size: String, bitrate: String)] = [
        ("program", "1280x720", "4M"), ("wide", "1920x1080", "6M"), ("main", "1280x720", "4M"),
        ("tele", "640x360", "1.5M"),
    ]

    static func run(seconds: Int = 3600, folder: URL) throws -> (secondsPerHour: Double, extraDiskRatio: Double)? {
        var chapters: [Chapter] = []
        for minute in 0..<Int64(seconds / 60) {
            let start = MediaTime.seconds(minute * 60)
            chapters.append(Chapter(title: "Scene \(minute + 1)", start: start, end: start + .seconds(60)))
        }
        var elapsed = 0.0
        var appended: Int64 = 0, movieBytes: Int64 = 0
        for movie in movies {
            let short = folder.appendingPathComponent("iso-\(movie.name)-short.mov").path
            let partial = folder.appendingPathComponent("iso-\(movie.name).mov.partial").path
            let final = folder.appendingPathComponent("iso-\(movie.name).mov").path
            defer { for path in [short, partial, final] { unlink(path) } }
            guard FinishBench.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(movie.size):rate=30", "-f", "lavfi", "-i",
                                      "sine=frequency=1000:sample_rate=48000", "-t", "10", "-c:v", "libx264",
                                      "-preset", "ultrafast", "-bf", "3", "-b:v", movie.bitrate, "-g", "60",
                                      "-c:a", "aac", short]),
                  FinishBench.ffmpeg(["-stream_loop", "-1", "-i", short, "-t", "\(seconds)", "-c", "copy", "-movflags",
                                      "+frag_keyframe+empty_moov+default_base_moof+skip_trailer", "-frag_duration",
                                      "500000", "-f", "mov", partial])
            else {
                print("finish with 3 ISOs: skipped, /usr/bin/ffmpeg could not make the long .partial")
                return nil
            }
            let figures = try InPlaceFinishTiming.finish(partialPath: partial, moviePath: final, chapters: chapters)
            elapsed += figures.seconds
            appended += figures.appendedBytes
            movieBytes += figures.movieBytes
        }
        let perHour = elapsed * 3600 / Double(seconds)
        let ratio = Double(appended) / Double(movieBytes)
        print(String(format: "finish in place with 3 ISOs, 4 movies of %d s, %.0f MB: %.3f s "
                     + "(finish_seconds_per_recorded_hour_3_isos %.3f), %d bytes added "
                     + "(finish_extra_disk_ratio_3_isos %.5f)", seconds, Double(movieBytes) / 1e6, elapsed, perHour,
                     appended, ratio))
        return (perHour, ratio)
    }
}
