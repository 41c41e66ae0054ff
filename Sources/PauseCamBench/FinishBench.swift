import Foundation
import PauseCamCore
@_spi(Bench) import PauseCamSystem

/// Finishing a long clip in place: `finish_seconds_per_recorded_hour` (the wall time of turning an hour's
/// fragmented `.partial` into the final movie) and `finish_extra_disk_ratio` (the bytes finishing adds over the
/// movie's bytes), for the program alone.
///
/// The hour is synthesised cheaply: ffmpeg encodes 10 s of 1280x720 `testsrc2` at 4 Mbit/s (x264 ultrafast with
/// B-frames, 2 s keyframes, AAC 48 kHz), then copies it in a loop (`-stream_loop`, no re-encode) into one fragmented
/// `.mov` of `seconds` with PauseCam's fragment options, so it has the sample count and the size of a real hour.
enum FinishBench {
    static func run(seconds: Int = 3600, folder: URL) throws -> (secondsPerHour: Double, extraDiskRatio: Double)? {
        let short = folder.appendingPathComponent("finish-short.mov").path
        let partial = folder.appendingPathComponent("finish-hour.mov.partial").path
        let movie = folder.appendingPathComponent("finish-hour.mov").path
        defer { for path in [short, partial, movie] { unlink(path) } }
        guard ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-f", "lavfi", "-i",
                      "sine=frequency=1000:sample_rate=48000", "-t", "10", "-c:v", "libx264", "-preset", "ultrafast",
                      "-bf", "3", "-b:v", "4M", "-g", "60", "-c:a", "aac", short]),
              ffmpeg(["-stream_loop", "-1", "-i", short, "-t", "\(seconds)", "-c", "copy", "-movflags",
                      "+frag_keyframe+empty_moov+default_base_moof+skip_trailer", "-frag_duration", "500000",
                      "-f", "mov", partial])
        else {
            print("finish: skipped, /usr/bin/ffmpeg could not make the long .partial")
            return nil
        }
        var chapters: [Chapter] = []
        for minute in 0..<Int64(seconds / 60) {
            let start = MediaTime.seconds(minute * 60)
            chapters.append(Chapter(title: "Scene \(minute + 1)", start: start, end: start + .seconds(60)))
        }
        let figures = try InPlaceFinishTiming.finish(partialPath: partial, moviePath: movie, chapters: chapters)
        let perHour = figures.seconds * 3600 / Double(seconds)
        let ratio = Double(figures.appendedBytes) / Double(figures.movieBytes)
        print(String(format: "finish in place, %d s clip of %.0f MB: %.3f s (finish_seconds_per_recorded_hour %.3f), "
                     + "%d bytes added (finish_extra_disk_ratio %.5f)", seconds, Double(figures.movieBytes) / 1e6,
                     figures.seconds, perHour, figures.appendedBytes, ratio))
        return (perHour, ratio)
    }

    static func ffmpeg(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-y"] + arguments
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
