// glibc's allocator introspection and tuning (<malloc.h>), which Swift's Glibc module does not map. Part of libc:
// nothing to link. Only PauseCamSystem's Memory/ folder uses it.
#ifndef PAUSECAM_CMALLOC_SHIM_H
#define PAUSECAM_CMALLOC_SHIM_H
#include <malloc.h>
#endif
