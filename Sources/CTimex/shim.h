// glibc's <sys/timex.h> (adjtimex: the kernel's clock discipline status), which Swift's Glibc module leaves out.
// Part of libc: nothing to link.
#ifndef PAUSECAM_CTIMEX_SHIM_H
#define PAUSECAM_CTIMEX_SHIM_H
#include <sys/timex.h>

/// `STA_UNSYNC`: the clock is not synchronised.
static const int pausecam_sta_unsync = STA_UNSYNC;
/// `STA_NANO`: `offset` is in nanoseconds, not microseconds.
static const int pausecam_sta_nano = STA_NANO;
/// `TIME_ERROR`: the clock state `adjtimex` returns for an unsynchronised clock.
static const int pausecam_time_error = TIME_ERROR;
#endif
