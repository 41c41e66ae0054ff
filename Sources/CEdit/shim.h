// libedit (readline interface) for Swift.
#ifndef PAUSECAM_CEDIT_SHIM_H
#define PAUSECAM_CEDIT_SHIM_H
#include <stdio.h>
#include <editline/readline.h>
#endif
