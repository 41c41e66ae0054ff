// libgpiod 1.6 (the v1 API) for Swift: its one header; the calls PauseCam makes (chip open, line request, set
// value, release) import as they are.
#ifndef PAUSECAM_CGPIOD_SHIM_H
#define PAUSECAM_CGPIOD_SHIM_H
#include <gpiod.h>
#endif
