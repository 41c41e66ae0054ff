import CFFmpeg

/// How much FFmpeg (and x264 through it) may print. The default, info, prints x264's statistics on every encoder
/// close and would spam the terminal the REPL draws in; warnings and errors still reach stderr.
enum FFmpegLogLevel {
    /// Sets `av_log_set_level(AV_LOG_ERROR)` once for the process (idempotent; the level is a process global).
    static func quiet() {
        av_log_set_level(AV_LOG_ERROR)
    }
}
