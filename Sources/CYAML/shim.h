// libyaml for Swift.
#ifndef PAUSECAM_CYAML_SHIM_H
#define PAUSECAM_CYAML_SHIM_H
#include <yaml.h>
#endif
