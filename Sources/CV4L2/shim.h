// libv4l2 and the V4L2 UAPI for Swift. Variadic calls and the VIDIOC_* ioctl numbers do not import into Swift,
// so they are re-exposed here as plain functions and constants.
#ifndef PAUSECAM_CV4L2_SHIM_H
#define PAUSECAM_CV4L2_SHIM_H
#include <linux/videodev2.h>
#include <libv4l2.h>
#include <fcntl.h>
#include <poll.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <errno.h>

/// v4l2_open(path, flags) without the variadic mode argument (never needed for a device node).
static inline int pausecam_v4l2_open(const char *path, int flags) { return v4l2_open(path, flags); }
/// v4l2_ioctl with one pointer argument: every VIDIOC_* request takes exactly one.
static inline int pausecam_v4l2_ioctl(int fd, unsigned long request, void *argument) {
    return v4l2_ioctl(fd, request, argument);
}
/// open(2) without libv4l2, for probing a node (libv4l2 issues raw syscalls that umockdev cannot intercept).
static inline int pausecam_open(const char *path, int flags) { return open(path, flags); }
/// ioctl(2) with one pointer argument, without libv4l2.
static inline int pausecam_ioctl(int fd, unsigned long request, void *argument) { return ioctl(fd, request, argument); }
/// MAP_FAILED, which is a cast macro Swift does not import.
static inline void *pausecam_map_failed(void) { return MAP_FAILED; }

// The ioctl request numbers PauseCam uses (_IOR/_IOW/_IOWR macros do not import).
static inline unsigned long pausecam_vidioc_querycap(void) { return VIDIOC_QUERYCAP; }
static inline unsigned long pausecam_vidioc_enum_fmt(void) { return VIDIOC_ENUM_FMT; }
static inline unsigned long pausecam_vidioc_enum_framesizes(void) { return VIDIOC_ENUM_FRAMESIZES; }
static inline unsigned long pausecam_vidioc_enum_frameintervals(void) { return VIDIOC_ENUM_FRAMEINTERVALS; }
static inline unsigned long pausecam_vidioc_s_fmt(void) { return VIDIOC_S_FMT; }
static inline unsigned long pausecam_vidioc_s_parm(void) { return VIDIOC_S_PARM; }
static inline unsigned long pausecam_vidioc_queryctrl(void) { return VIDIOC_QUERYCTRL; }
static inline unsigned long pausecam_vidioc_querymenu(void) { return VIDIOC_QUERYMENU; }
static inline unsigned long pausecam_vidioc_g_ctrl(void) { return VIDIOC_G_CTRL; }
static inline unsigned long pausecam_vidioc_s_ctrl(void) { return VIDIOC_S_CTRL; }
static inline unsigned long pausecam_vidioc_query_ext_ctrl(void) { return VIDIOC_QUERY_EXT_CTRL; }
static inline unsigned long pausecam_vidioc_s_ext_ctrls(void) { return VIDIOC_S_EXT_CTRLS; }
static inline unsigned long pausecam_vidioc_reqbufs(void) { return VIDIOC_REQBUFS; }
static inline unsigned long pausecam_vidioc_querybuf(void) { return VIDIOC_QUERYBUF; }
static inline unsigned long pausecam_vidioc_qbuf(void) { return VIDIOC_QBUF; }
static inline unsigned long pausecam_vidioc_dqbuf(void) { return VIDIOC_DQBUF; }
static inline unsigned long pausecam_vidioc_streamon(void) { return VIDIOC_STREAMON; }
static inline unsigned long pausecam_vidioc_streamoff(void) { return VIDIOC_STREAMOFF; }

// Pixel formats (v4l2_fourcc is a function-like macro).
static inline uint32_t pausecam_v4l2_pix_fmt_mjpeg(void) { return V4L2_PIX_FMT_MJPEG; }
static inline uint32_t pausecam_v4l2_pix_fmt_jpeg(void) { return V4L2_PIX_FMT_JPEG; }
static inline uint32_t pausecam_v4l2_pix_fmt_yuyv(void) { return V4L2_PIX_FMT_YUYV; }
static inline uint32_t pausecam_v4l2_pix_fmt_yuv420(void) { return V4L2_PIX_FMT_YUV420; }

// Control IDs (built from class-base macros).
static inline uint32_t pausecam_v4l2_cid_zoom_absolute(void) { return V4L2_CID_ZOOM_ABSOLUTE; }
static inline uint32_t pausecam_v4l2_cid_pan_absolute(void) { return V4L2_CID_PAN_ABSOLUTE; }
static inline uint32_t pausecam_v4l2_cid_tilt_absolute(void) { return V4L2_CID_TILT_ABSOLUTE; }
static inline uint32_t pausecam_v4l2_cid_exposure_auto(void) { return V4L2_CID_EXPOSURE_AUTO; }
static inline uint32_t pausecam_v4l2_cid_exposure_absolute(void) { return V4L2_CID_EXPOSURE_ABSOLUTE; }
static inline uint32_t pausecam_v4l2_cid_auto_exposure_bias(void) { return V4L2_CID_AUTO_EXPOSURE_BIAS; }
static inline uint32_t pausecam_v4l2_cid_gain(void) { return V4L2_CID_GAIN; }
static inline uint32_t pausecam_v4l2_cid_focus_auto(void) { return V4L2_CID_FOCUS_AUTO; }
static inline uint32_t pausecam_v4l2_cid_focus_absolute(void) { return V4L2_CID_FOCUS_ABSOLUTE; }
static inline uint32_t pausecam_v4l2_cid_power_line_frequency(void) { return V4L2_CID_POWER_LINE_FREQUENCY; }
static inline uint32_t pausecam_v4l2_cid_exposure_auto_priority(void) { return V4L2_CID_EXPOSURE_AUTO_PRIORITY; }
static inline uint32_t pausecam_v4l2_cid_auto_focus_start(void) { return V4L2_CID_AUTO_FOCUS_START; }

// UVC 1.5's region of interest (the "Digital Region of Interest" camera control), newer than Debian 12's kernel
// headers, so defined here with upstream Linux's values: V4L2_CID_USER_UVC_BASE is V4L2_CID_USER_BASE + 0x11e0 in
// include/uapi/linux/v4l2-controls.h; V4L2_CID_UVC_REGION_OF_INTEREST_RECT (+1), _AUTO (+2) and the
// V4L2_UVC_REGION_OF_INTEREST_AUTO_* bits are in include/uapi/linux/uvcvideo.h; V4L2_CTRL_TYPE_RECT (0x0107, a
// compound control holding one struct v4l2_rect) is in include/uapi/linux/videodev2.h.
static inline uint32_t pausecam_v4l2_cid_uvc_region_of_interest_rect(void) { return V4L2_CID_USER_BASE + 0x11e0 + 1; }
static inline uint32_t pausecam_v4l2_cid_uvc_region_of_interest_auto(void) { return V4L2_CID_USER_BASE + 0x11e0 + 2; }
static inline uint32_t pausecam_v4l2_uvc_region_of_interest_auto_exposure(void) { return 1u << 0; }
static inline uint32_t pausecam_v4l2_uvc_region_of_interest_auto_focus(void) { return 1u << 3; }
static inline uint32_t pausecam_v4l2_ctrl_type_rect(void) { return 0x0107; }
#endif
