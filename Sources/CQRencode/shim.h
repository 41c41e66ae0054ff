// libqrencode for Swift: its one header; every call PauseCam makes imports as it is.
#ifndef PAUSECAM_CQRENCODE_SHIM_H
#define PAUSECAM_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
