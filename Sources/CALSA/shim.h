// ALSA for Swift. ALSA's error-handler type is variadic, which Swift cannot implement, so a no-op handler written
// in C is installed from here: errors reach PauseCam as return codes turned into Swift errors, not as stderr noise.
#ifndef PAUSECAM_CALSA_SHIM_H
#define PAUSECAM_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#include <time.h>

static inline void pausecam_alsa_silent_error_handler(const char *file, int line, const char *function, int err,
                                                      const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
/// Replaces ALSA's default handler (which prints to stderr) with a silent one.
static inline void pausecam_alsa_install_silent_error_handler(void) {
    snd_lib_error_set_handler(pausecam_alsa_silent_error_handler);
}
#endif
