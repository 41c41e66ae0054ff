// libmicrohttpd for Swift: the variadic calls PauseCam needs, as fixed-argument functions.
#ifndef PAUSECAM_CMICROHTTPD_SHIM_H
#define PAUSECAM_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/// `MHD_start_daemon` with the options PauseCam sets: the listen address (`address`, IPv4 or IPv6 by its family),
/// the completed-request notifier, a connection limit, a limit per client address (`MHD_OPTION_PER_IP_CONNECTION_LIMIT`:
/// one client's connections beyond it are closed at once, so one host cannot take every place), an idle timeout in
/// seconds, the memory one connection may use for its request line, headers and read buffer (a request that does
/// not fit gets 414 or 431 and the connection is closed), and the connection notifier (`MHD_OPTION_NOTIFY_CONNECTION`:
/// told when each connection opens and closes). NULL when it cannot listen.
static inline struct MHD_Daemon *pausecam_mhd_start(unsigned int flags, const struct sockaddr *address,
                                                    MHD_AccessHandlerCallback handler, void *handlerContext,
                                                    MHD_RequestCompletedCallback completed, void *completedContext,
                                                    MHD_NotifyConnectionCallback connectionNotifier,
                                                    void *connectionContext,
                                                    unsigned int connectionLimit, unsigned int perAddressLimit,
                                                    unsigned int timeoutSeconds, size_t connectionMemoryLimit) {
    uint16_t port = 0;
    if (address->sa_family == AF_INET) {
        port = ntohs(((const struct sockaddr_in *)address)->sin_port);
    } else if (address->sa_family == AF_INET6) {
        port = ntohs(((const struct sockaddr_in6 *)address)->sin6_port);
        flags |= MHD_USE_IPv6;
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handlerContext,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completedContext,
                            MHD_OPTION_CONNECTION_LIMIT, connectionLimit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, perAddressLimit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeoutSeconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connectionMemoryLimit,
                            MHD_OPTION_NOTIFY_CONNECTION, connectionNotifier, connectionContext,
                            MHD_OPTION_END);
}

/// Ends both directions of a connection's socket without closing it (libmicrohttpd owns the descriptor). In the
/// shim because Swift's sight of `SHUT_RDWR` depends on which module Clang credits with <sys/socket.h>.
/// The corresponding C function is `shutdown`.
static inline int pausecam_shutdown_both(int socket) {
    return shutdown(socket, SHUT_RDWR);
}

/// The connection's socket; -1 when unknown. The corresponding C function is `MHD_get_connection_info` with
/// `MHD_CONNECTION_INFO_CONNECTION_FD`.
static inline int pausecam_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The client's IP address as text (`inet_ntop`) into `buffer`; 0 on success, -1 when unknown. The corresponding C
/// function is `MHD_get_connection_info` with `MHD_CONNECTION_INFO_CLIENT_ADDRESS`.
static inline int pausecam_mhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    const struct sockaddr *address = info->client_addr;
    const void *bytes;
    if (address->sa_family == AF_INET) {
        bytes = &((const struct sockaddr_in *)address)->sin_addr;
    } else if (address->sa_family == AF_INET6) {
        bytes = &((const struct sockaddr_in6 *)address)->sin6_addr;
    } else {
        return -1;
    }
    return inet_ntop(address->sa_family, bytes, buffer, size) == NULL ? -1 : 0;
}

/// Gives one connection its own idle timeout in seconds (0: none), replacing the daemon's, and restarts its timer.
/// The corresponding C function is `MHD_set_connection_option` with `MHD_CONNECTION_OPTION_TIMEOUT`.
static inline enum MHD_Result pausecam_mhd_set_connection_timeout(struct MHD_Connection *connection,
                                                                  unsigned int timeoutSeconds) {
    return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, timeoutSeconds);
}

/// The port the daemon listens on (the kernel's choice when it was started on port 0); 0 when unknown.
static inline uint16_t pausecam_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// `MHD_CONTENT_READER_END_OF_STREAM`, which Swift does not import (a cast macro).
static inline ssize_t pausecam_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
/// `MHD_CONTENT_READER_END_WITH_ERROR`.
static inline ssize_t pausecam_mhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }
/// `MHD_SIZE_UNKNOWN`, a streaming body's length.
static inline uint64_t pausecam_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }
#endif
