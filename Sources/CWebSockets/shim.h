#ifndef UIBUS_CWEBSOCKETS_SHIM_H
#define UIBUS_CWEBSOCKETS_SHIM_H
#include <stdlib.h>
#include <string.h>
#include <libwebsockets.h>

/// LWS_PRE is a macro Swift cannot see: the bytes lws_write needs in front of a payload.
static const size_t CWS_PRE = LWS_PRE;

/// Creates a server context on `iface`:`port` (0: any free port) with two protocols, plain HTTP
/// first and the WebSocket protocol `ws_protocol`, both handled by `callback`; `user` is the
/// context's user pointer (lws_context_user). `*protocols_out` receives the protocol array (for
/// lws_callback_on_writable_all_protocol; free it after lws_context_destroy). Returns NULL if the
/// port cannot be bound.
static inline struct lws_context *cws_create_server(
    const char *iface, int port, const char *ws_protocol, lws_callback_function *callback, void *user,
    size_t rx_buffer_size, struct lws_protocols **protocols_out)
{
    // Lives as long as the context; the caller frees it after lws_context_destroy.
    struct lws_protocols *protocols = calloc(3, sizeof(struct lws_protocols));
    if (protocols == NULL) return NULL;
    *protocols_out = protocols;
    protocols[0].name = "http";
    protocols[0].callback = callback;
    // lws keeps these pointers; the caller's strings may be temporaries. They live as long as
    // the process (one server per process), so they are never freed.
    protocols[1].name = strdup(ws_protocol);
    protocols[1].callback = callback;
    protocols[1].rx_buffer_size = rx_buffer_size;
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = port;
    info.iface = strdup(iface);
    info.protocols = protocols;
    info.user = user;
    info.vhost_name = "uibus-view";
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6 | LWS_SERVER_OPTION_VALIDATE_UTF8;
    struct lws_context *context = lws_create_context(&info);
    if (context == NULL) {
        free(protocols);
        *protocols_out = NULL;
    }
    return context;
}

/// The port the context's vhost listens on (the chosen one when asked for 0).
static inline int cws_port(struct lws_context *context) {
    return lws_get_vhost_listen_port(lws_get_vhost_by_name(context, "uibus-view"));
}

/// Copies header `token` (a WSI_TOKEN_*) into `buffer`; returns its length or -1 if absent or too long.
static inline int cws_header(struct lws *wsi, int token, char *buffer, int length) {
    if (lws_hdr_total_length(wsi, (enum lws_token_indexes)token) >= length) return -1;
    return lws_hdr_copy(wsi, buffer, length, (enum lws_token_indexes)token);
}

static const int CWS_TOKEN_ORIGIN = WSI_TOKEN_ORIGIN;
static const int CWS_TOKEN_HOST = WSI_TOKEN_HOST;
static const int CWS_TOKEN_GET_URI = WSI_TOKEN_GET_URI;

/// Answers an HTTP request with `status` and a short plain-text body, then ends the transaction.
static inline int cws_http_status(struct lws *wsi, unsigned int status, const char *text) {
    return lws_return_http_status(wsi, status, text);
}

/// Serves a file with `mime`, adding a Set-Cookie header when `cookie` is not NULL
/// (`name=value; attributes`). Returns lws_serve_http_file's result.
static inline int cws_serve_file(struct lws *wsi, const char *path, const char *mime, const char *cookie) {
    unsigned char headers[512];
    unsigned char *p = headers, *end = headers + sizeof headers;
    if (cookie != NULL &&
        lws_add_http_header_by_name(wsi, (const unsigned char *)"set-cookie:", (const unsigned char *)cookie,
                                    (int)strlen(cookie), &p, end))
        return -1;
    if (lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:", (const unsigned char *)"no-store",
                                    8, &p, end))
        return -1;
    return lws_serve_http_file(wsi, path, mime, (const char *)headers, (int)(p - headers));
}

/// Sets the close status and reason a connection sends when its callback returns -1.
static inline void cws_close_reason(struct lws *wsi, const char *reason) {
    lws_close_reason(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, (unsigned char *)reason, strlen(reason));
}

/// Ends an HTTP transaction after a file was served: nonzero means close the connection.
static inline int cws_transaction_completed(struct lws *wsi) { return lws_http_transaction_completed(wsi); }

#endif
