// liblo (Open Sound Control) for Swift: its low-level message calls, and the union member Swift cannot take the
// address of. PauseCam uses liblo to read and write OSC messages only; the UDP socket is its own, so it can listen
// on one address (loopback) and see each sender before a byte is parsed.
#ifndef PAUSECAM_CLIBLO_SHIM_H
#define PAUSECAM_CLIBLO_SHIM_H
#include <lo/lo.h>
#include <lo/lo_lowlevel.h>

/// The string of a string or symbol argument: liblo keeps its first byte in the union (`lo_arg.s`), the rest
/// after it, so the string is the member's address, which Swift's import of the union cannot give.
static inline const char *pausecam_lo_arg_string(lo_arg *argument) {
    return &argument->s;
}

/// The 32-bit integer of an `i` argument (a union member, read here so the layout stays C's).
static inline int32_t pausecam_lo_arg_int32(lo_arg *argument) { return argument->i; }
/// The 64-bit integer of an `h` argument.
static inline int64_t pausecam_lo_arg_int64(lo_arg *argument) { return argument->h; }
/// The float of an `f` argument.
static inline float pausecam_lo_arg_float(lo_arg *argument) { return argument->f; }
/// The double of a `d` argument.
static inline double pausecam_lo_arg_double(lo_arg *argument) { return argument->d; }
/// The character of a `c` argument (an int32 on the wire).
static inline int32_t pausecam_lo_arg_char(lo_arg *argument) { return argument->c; }
#endif
