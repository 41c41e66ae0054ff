// libudev for Swift.
#ifndef PAUSECAM_CUDEV_SHIM_H
#define PAUSECAM_CUDEV_SHIM_H
#include <libudev.h>
#include <poll.h>
#endif
