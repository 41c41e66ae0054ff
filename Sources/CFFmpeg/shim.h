// FFmpeg for Swift: the headers PauseCam uses, plus the macros Swift cannot import re-exposed as inline functions.
#ifndef PAUSECAM_CFFMPEG_SHIM_H
#define PAUSECAM_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/opt.h>
#include <libavutil/imgutils.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/mathematics.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/mem.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <errno.h>

/// AVERROR(EAGAIN): "try again", a flow result of the send/receive API.
static inline int pausecam_averror_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EOF: end of stream, a flow result.
static inline int pausecam_averror_eof(void) { return AVERROR_EOF; }
/// AV_NOPTS_VALUE: "no timestamp".
static inline int64_t pausecam_av_nopts_value(void) { return AV_NOPTS_VALUE; }
/// AVERROR(e) for any errno value.
static inline int pausecam_averror(int e) { return AVERROR(e); }
/// Appends `chapter` (allocated with av_mallocz) to `ctx`'s chapter list, which then owns it: the public
/// av_dynarray_add takes a `void *` to the array, which Swift cannot form from the typed field.
static inline int pausecam_add_chapter(AVFormatContext *ctx, AVChapter *chapter) {
    return av_dynarray_add_nofree(&ctx->chapters, (int *)&ctx->nb_chapters, chapter);
}
/// Reads `nb_samples` from `fifo` into `frame`'s sample planes (the AVFrame's extended_data), hiding the cast.
static inline int pausecam_audio_fifo_read_frame(AVAudioFifo *fifo, AVFrame *frame, int nb_samples) {
    return av_audio_fifo_read(fifo, (void **)frame->extended_data, nb_samples);
}
/// Writes `frame`'s samples into `fifo`.
static inline int pausecam_audio_fifo_write_frame(AVAudioFifo *fifo, const AVFrame *frame) {
    return av_audio_fifo_write(fifo, (void **)frame->extended_data, frame->nb_samples);
}
#endif
