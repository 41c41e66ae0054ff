// libmosquitto (the Eclipse Mosquitto client library) for Swift: its header and the MQTT v5 reason codes.
// Every call PauseCam makes imports as it is; the reason codes are an enum in <mqtt_protocol.h>.
#ifndef PAUSECAM_CMOSQUITTO_SHIM_H
#define PAUSECAM_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
