import CFFmpeg

/// Where FFmpeg's (and x264's, through it) own log lines go. Left alone, FFmpeg prints to standard error at info
/// level: x264's statistics on every encoder close (`[libx264 @ 0x…] frame I:1 Avg QP…`), a screenful per
/// measurement, over the terminal the shell draws in. Routed here, FFmpeg's errors reach standard error as
/// PauseCam's own lines (`pausecam: ffmpeg: …`, one write each) and everything less is dropped. Warnings are
/// dropped too: on every clip FFmpeg warns about choices PauseCam makes on purpose (the fragmented `.partial`'s
/// `empty_moov` and its edit list, the thumbnail's full-range `yuvj` input), and a warning on every run teaches
/// users to ignore the line that matters.
enum FFmpegLogLevel {
    /// Installs the routing for the process (idempotent; FFmpeg's log callback and level are process globals).
    /// Called before anything opens a codec: the encoder-speed meter, the movie writer, the file lens.
    static func quiet() {
        av_log_set_level(AV_LOG_ERROR)
        // The callback formats one message as FFmpeg would (with its `[name @ 0x…]` context) and writes it when it
        // is an error or worse. A message split over several calls gets a line each.
        av_log_set_callback { context, level, format, arguments in
            guard level <= AV_LOG_ERROR, let format, let arguments else { return }
            FFmpegLogLevel.write(context: context, level: level, format: format, arguments: arguments)
        }
    }

    private static func write(context: UnsafeMutableRawPointer?, level: Int32, format: UnsafePointer<CChar>,
                              arguments: CVaListPointer) {
        var buffer = [CChar](repeating: 0, count: 1024)
        var printPrefix: Int32 = 1
        let length = av_log_format_line2(context, level, format, arguments, &buffer, Int32(buffer.count), &printPrefix)
        guard length > 0 else { return }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let trimmed = text.hasSuffix("\n") ? String(text.dropLast()) : text
        guard !trimmed.isEmpty else { return }
        StandardStreamWriter.error.write("pausecam: ffmpeg: \(trimmed)\n")
    }
}
