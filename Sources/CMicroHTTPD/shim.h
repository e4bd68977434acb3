// Debian's libmicrohttpd-dev: microhttpd.h needs the socket and integer types declared first.
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

// Swift cannot call C variadic functions. These make the two variadic calls CloudSyncHTTPServer
// needs through a function pointer resolved with dlsym (so nothing here links libmicrohttpd).

/// MHD_start_daemon(flags, port, accept_policy, handler_cls, handler, handler_cls, MHD_OPTION_ARRAY, options,
/// MHD_OPTION_END).
static inline struct MHD_Daemon *cloudsync_mhd_start_daemon(void *start_daemon, unsigned int flags, uint16_t port,
                                                             MHD_AcceptPolicyCallback accept_policy,
                                                             MHD_AccessHandlerCallback handler, void *handler_cls,
                                                             struct MHD_OptionItem *options) {
    typedef struct MHD_Daemon *(*Start)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                        MHD_AccessHandlerCallback, void *, ...);
    return ((Start)start_daemon)(flags, port, accept_policy, handler_cls, handler, handler_cls,
                                 MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// MHD_get_connection_info(connection, kind) for the kinds that take no further argument.
static inline const union MHD_ConnectionInfo *cloudsync_mhd_connection_info(void *connection_info,
                                                                           struct MHD_Connection *connection,
                                                                           enum MHD_ConnectionInfoType kind) {
    typedef const union MHD_ConnectionInfo *(*Info)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...);
    return ((Info)connection_info)(connection, kind);
}
