import CFFmpeg

/// Allocation and release of `AVFrame`s for code that holds them as non-optional pointers.
enum FFmpegFrame {
    /// `av_frame_alloc`, as a Swift error when memory runs out; the caller owns the frame (`release`).
    static func allocate(_ purpose: String) throws -> UnsafeMutablePointer<AVFrame> {
        guard let frame = av_frame_alloc() else {
            throw FFmpegError("av_frame_alloc(\(purpose))", code: pausecam_averror(ENOMEM))
        }
        return frame
    }

    /// Frees `frame` and its buffers. The corresponding C function is `av_frame_free`.
    static func release(_ frame: UnsafeMutablePointer<AVFrame>) {
        var owned: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&owned)
    }
}
