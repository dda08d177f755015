/* tacet/http.h: an HTTP/1.0 server's request parser and responder, with no network code
 * (lib/http.c): a server feeds it the bytes a connection has brought so far and sends what it
 * writes to the sink, then closes the connection (HTTP/1.0: one request a connection, the
 * response ends with it; Content-Length says its length anyway).
 *
 * Requests: a request line "METHOD SP /path[?query] SP HTTP/1.x", header lines "name: value",
 * an empty line; lines end with CRLF or a bare LF; blank lines before the request line are
 * skipped. GET and HEAD are served; anything malformed is refused with a status, never read
 * past: a request line without exactly two single spaces, a target not starting with '/', a
 * byte outside visible ASCII in the method, target or version, a bare CR, a header name that is
 * no token or is followed by a space, a folded header line, a NUL anywhere -> 400; another
 * method -> 405 (Allow: GET, HEAD); a version other than HTTP/1.0 and HTTP/1.1 -> 505 (400 if
 * not HTTP/digit.digit); a target longer than HTTP_PATH_MAX - 1 -> 414; a request whose head
 * has not ended within HTTP_REQUEST_MAX bytes -> 414 if the request line has not either, else
 * 431. A body is not read (the response does not depend on it).
 *
 * Portable C, no system call, no allocation, no state but the caller's: host-tested
 * (tests/host/test_http.c). Any thread; one call per request at a time per buffer. */
#ifndef TACET_HTTP_H
#define TACET_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <tacet/metrics.h>
#include <tacet/sink.h>

#define HTTP_REQUEST_MAX 2048 /* a request's head, request line and headers */
#define HTTP_PATH_MAX    256  /* a target, with its query, and its NUL */

enum http_status {
	HTTP_OK = 200,
	HTTP_BAD_REQUEST = 400,
	HTTP_NOT_FOUND = 404,
	HTTP_METHOD_NOT_ALLOWED = 405,
	HTTP_URI_TOO_LONG = 414,
	HTTP_HEADERS_TOO_LARGE = 431,
	HTTP_INTERNAL_ERROR = 500,
	HTTP_VERSION_NOT_SUPPORTED = 505,
};

enum http_method { HTTP_GET, HTTP_HEAD };

struct http_request {
	enum http_method method;
	unsigned int minor;      /* HTTP/1.minor: 0 or 1 */
	char path[HTTP_PATH_MAX]; /* the target without its query, NUL-terminated */
};

/* Decode the head of a request from the len bytes at buf (changes nothing but *req): the bytes
 * the head took (through its empty line) when it is whole and well-formed, 0 if more bytes may
 * make it whole, or a negative enum http_status (-HTTP_BAD_REQUEST ...) for a request refused.
 * A refusal depends only on the bytes it found wrong: more bytes never undo it. */
long http_parse(const char *buf, size_t len, struct http_request *req);

/* What a server serves: at path, a body of content_type that render(ctx, out) writes. */
struct http_route {
	const char *path;
	const char *content_type;
	void (*render)(void *ctx, const struct tacet_sink *out);
	void *ctx;
};

/* Answer the request in buf (len bytes so far): 0 if it is not whole yet (call again with
 * more; nothing written), else the status answered, the whole response (status line,
 * Content-Type, Content-Length, Connection: close, the body unless HEAD) written to out: the
 * route's body, rendered first into body (body_size bytes of the caller's: a body that does
 * not fit is a 500), 404 for a path no route has, the refusals of http_parse. */
int http_respond(const char *buf, size_t len, const struct http_route *routes, size_t nroutes,
		 char *body, size_t body_size, const struct tacet_sink *out);

/* The two routes of a metrics server, over src (which must outlive them): /irqs, the shell's
 * irqs table (text/plain), and /metrics, the Prometheus text (text/plain; version=0.0.4). */
#define HTTP_METRICS_ROUTES 2
void http_metrics_routes(struct http_route routes[HTTP_METRICS_ROUTES],
			 const struct metrics_source *src);

#endif
