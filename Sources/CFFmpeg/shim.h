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
#endif
