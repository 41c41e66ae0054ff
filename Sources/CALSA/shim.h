// ALSA for Swift.
#ifndef PAUSECAM_CALSA_SHIM_H
#define PAUSECAM_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#endif
