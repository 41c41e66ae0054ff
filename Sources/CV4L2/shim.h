// libv4l2 and the V4L2 UAPI for Swift. Variadic calls and the VIDIOC_* ioctl numbers do not import into Swift,
// so they are re-exposed here as plain functions and constants.
#ifndef PAUSECAM_CV4L2_SHIM_H
#define PAUSECAM_CV4L2_SHIM_H
#include <linux/videodev2.h>
#include <libv4l2.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <errno.h>
#endif
