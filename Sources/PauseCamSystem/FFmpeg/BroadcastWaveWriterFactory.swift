import CFFmpeg
import Foundation
import PauseCamCore

/// The composition root's `VoiceWaveSinkFactory`: each voice of a clip with ISOs as a Broadcast WAV
/// (`BroadcastWaveWriter`) in the clip's `NAME.iso` folder, its `bext` time reference the clip's start in the day
/// of `timeZone` (the machine's local zone unless a test gives one).
public final class BroadcastWaveWriterFactory: VoiceWaveSinkFactory {
    let timeZone: TimeZone

    public init(timeZone: TimeZone = .current) {
        self.timeZone = timeZone
        FFmpegLogLevel.quiet()
    }

    public func makeVoiceSink(directory: String, voice: String, sampleRate: Int32, startedAt: Date,
                              blockWhenBehind: Bool) throws -> any VoiceWaveSink {
        // The name is a file name inside the clip's folder: nothing that leaves it or hides the file.
        guard !voice.isEmpty, !voice.contains("/"), !voice.hasPrefix("."), !voice.utf8.contains(0) else {
            throw FFmpegError("voice \"\(voice)\" cannot name a file", code: pausecam_averror(EINVAL))
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + voice + ".wav"
        // A file already there is never overwritten (nor one appearing meanwhile: `O_EXCL`).
        try FileSystemCalls.close(try FileSystemCalls.createNew(path), path: path)
        do {
            return try BroadcastWaveWriter(voice: voice, path: path, sampleRate: sampleRate,
                                           description: description(voice: voice, startedAt: startedAt,
                                                                    sampleRate: sampleRate),
                                           blockWhenBehind: blockWhenBehind)
        } catch {
            FileSystemCalls.remove(path)
            throw error
        }
    }

    /// The `bext` fields of a voice whose first sample is at `startedAt`.
    func description(voice: String, startedAt: Date, sampleRate: Int32) -> BroadcastWaveMuxer.Description {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd"
        let date = formatter.string(from: startedAt)
        formatter.dateFormat = "HH:mm:ss"
        let time = formatter.string(from: startedAt)
        return BroadcastWaveMuxer.Description(
            text: voice, timeReference: VoiceWaveLayout.timeReference(of: startedAt, timeZone: timeZone,
                                                                       sampleRate: sampleRate),
            date: date, time: time)
    }
}
