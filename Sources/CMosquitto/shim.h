// libmosquitto (the Eclipse Mosquitto client library) for Swift: its header and the MQTT v5 reason codes.
// Every call PauseCam makes imports as it is; the reason codes are an enum in <mqtt_protocol.h>.
#ifndef PAUSECAM_CMOSQUITTO_SHIM_H
#define PAUSECAM_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>
#include <sys/socket.h>

/// Ends both directions of the client's TCP connection without an MQTT goodbye (libmosquitto keeps the descriptor
/// and sees the end). Here rather than in Swift because `SHUT_RDWR` comes from an anonymous enum that Clang may
/// attribute to whichever module included <sys/socket.h> first, so Swift found it in one build and not the next.
/// The tests use it to play a client that vanishes. The corresponding C functions are `mosquitto_socket` and
/// `shutdown`.
static inline int pausecam_mosquitto_cut_connection(struct mosquitto *client) {
    int socket = mosquitto_socket(client);
    return socket < 0 ? -1 : shutdown(socket, SHUT_RDWR);
}
#endif
