/* http.c: an HTTP/1.0 request parser and responder (<tacet/http.h>): the request's head decoded
 * (validated, nothing changed but the caller's struct http_request), then answered onto a sink
 * from a table of routes; the metrics server's two routes. No state, no system call, no
 * allocation: a server's connection code calls it with the bytes it has (none here reads a
 * socket). Host-tested (tests/host/test_http.c). */
#include <string.h>
#include <tacet/http.h>

/* --- decode --------------------------------------------------------------------------------- */

/* A token's character (RFC 9110, tchar). */
static bool tchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

static bool token(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!tchar(s[i]))
			return false;
	return n > 0;
}

/* Visible ASCII only (no space, no control, nothing above 0x7e). */
static bool visible(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			return false;
	return n > 0;
}

/* A header value's bytes: visible, space, tab, and bytes from 0x80 (obs-text). */
static bool field_value(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return false;
	}
	return true;
}

/* The next line from *pos (at most up to end): its bytes [*at, *at + *n), *pos past its line
 * end (CRLF or LF). 1: a line; 0: no line end yet; -HTTP_BAD_REQUEST: a NUL, or a CR not
 * followed by LF. */
static int next_line(const char *buf, size_t end, size_t *pos, size_t *at, size_t *n)
{
	for (size_t i = *pos; i < end; i++) {
		if (buf[i] == '\0' || (buf[i] == '\r' && i + 1 < end && buf[i + 1] != '\n'))
			return -HTTP_BAD_REQUEST;
		if (buf[i] == '\r' && i + 1 == end)
			return 0;
		if (buf[i] == '\n' || buf[i] == '\r') {
			*at = *pos;
			*n = i - *pos;
			*pos = i + (buf[i] == '\r' ? 2 : 1);
			return 1;
		}
	}
	return 0;
}

/* "HTTP/1.0" or "HTTP/1.1" -> its minor; HTTP/d.d of another version -> -505; else -400. */
static int version(const char *s, size_t n)
{
	if (n != 8 || memcmp(s, "HTTP/", 5) || s[6] != '.' || s[5] < '0' || s[5] > '9' ||
	    s[7] < '0' || s[7] > '9')
		return -HTTP_BAD_REQUEST;
	if (s[5] != '1' || s[7] > '1')
		return -HTTP_VERSION_NOT_SUPPORTED;
	return s[7] - '0';
}

/* "METHOD SP target SP version": its three parts checked, the method and the target's path
 * into req. 0 or a negative status. */
static int request_line(const char *s, size_t n, struct http_request *req)
{
	const char *sp1 = memchr(s, ' ', n), *sp2, *query;
	size_t target_len, path_len;
	int minor;

	if (!sp1)
		return -HTTP_BAD_REQUEST;
	sp2 = memchr(sp1 + 1, ' ', n - (size_t)(sp1 + 1 - s));
	if (!sp2 || !token(s, (size_t)(sp1 - s)) || !visible(sp1 + 1, (size_t)(sp2 - sp1 - 1)) ||
	    !visible(sp2 + 1, n - (size_t)(sp2 + 1 - s)))
		return -HTTP_BAD_REQUEST;
	minor = version(sp2 + 1, n - (size_t)(sp2 + 1 - s));
	if (minor < 0)
		return minor;
	if (sp1 - s == 3 && !memcmp(s, "GET", 3))
		req->method = HTTP_GET;
	else if (sp1 - s == 4 && !memcmp(s, "HEAD", 4))
		req->method = HTTP_HEAD;
	else
		return -HTTP_METHOD_NOT_ALLOWED;
	target_len = (size_t)(sp2 - sp1 - 1);
	if (sp1[1] != '/')
		return -HTTP_BAD_REQUEST;
	if (target_len >= HTTP_PATH_MAX)
		return -HTTP_URI_TOO_LONG;
	query = memchr(sp1 + 1, '?', target_len);
	path_len = query ? (size_t)(query - sp1 - 1) : target_len;
	memcpy(req->path, sp1 + 1, path_len);
	req->path[path_len] = '\0';
	req->minor = (unsigned int)minor;
	return 0;
}

/* "name: value", the name a token right before the colon. */
static int header_line(const char *s, size_t n)
{
	const char *colon = memchr(s, ':', n);

	if (!colon || !token(s, (size_t)(colon - s)) ||
	    !field_value(colon + 1, n - (size_t)(colon + 1 - s)))
		return -HTTP_BAD_REQUEST;
	return 0;
}

long http_parse(const char *buf, size_t len, struct http_request *req)
{
	size_t end = len < HTTP_REQUEST_MAX ? len : HTTP_REQUEST_MAX, pos = 0, at, n;
	bool have_request_line = false;
	int got, err;

	while ((got = next_line(buf, end, &pos, &at, &n)) > 0) {
		if (!have_request_line && !n)
			continue; /* a blank line before the request line */
		if (!have_request_line) {
			err = request_line(buf + at, n, req);
			have_request_line = true;
		} else if (!n) {
			return (long)pos; /* the empty line: the head is whole */
		} else {
			err = buf[at] == ' ' || buf[at] == '\t' ? -HTTP_BAD_REQUEST /* folded */
								: header_line(buf + at, n);
		}
		if (err)
			return err;
	}
	if (got < 0)
		return got;
	if (len < HTTP_REQUEST_MAX)
		return 0;
	return have_request_line ? -HTTP_HEADERS_TOO_LARGE : -HTTP_URI_TOO_LONG;
}

/* --- respond -------------------------------------------------------------------------------- */

static const char *reason(int status)
{
	switch (status) {
	case HTTP_OK:
		return "OK";
	case HTTP_BAD_REQUEST:
		return "Bad Request";
	case HTTP_NOT_FOUND:
		return "Not Found";
	case HTTP_METHOD_NOT_ALLOWED:
		return "Method Not Allowed";
	case HTTP_URI_TOO_LONG:
		return "URI Too Long";
	case HTTP_HEADERS_TOO_LARGE:
		return "Request Header Fields Too Large";
	case HTTP_VERSION_NOT_SUPPORTED:
		return "HTTP Version Not Supported";
	default:
		return "Internal Server Error";
	}
}

/* The status line and headers, then the body (none for HEAD). */
static void respond(const struct tacet_sink *out, int status, const char *type,
		    const char *body, size_t len, bool head)
{
	tacet_sink_printf(out, "HTTP/1.0 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s"
			       "Connection: close\r\n\r\n", status, reason(status), type, len,
			  status == HTTP_METHOD_NOT_ALLOWED ? "Allow: GET, HEAD\r\n" : "");
	if (!head)
		tacet_sink_write(out, body, len);
}

/* A refusal, its status and reason as the body. */
static int refuse(const struct tacet_sink *out, int status, bool head)
{
	char body[64];
	struct tacet_buf b;
	struct tacet_sink s = tacet_buf_sink(&b, body, sizeof(body));

	tacet_sink_printf(&s, "%d %s\n", status, reason(status));
	respond(out, status, "text/plain", body, b.len, head);
	return status;
}

int http_respond(const char *buf, size_t len, const struct http_route *routes, size_t nroutes,
		 char *body, size_t body_size, const struct tacet_sink *out)
{
	struct http_request req;
	long got = http_parse(buf, len, &req);
	struct tacet_buf b;
	struct tacet_sink s;
	size_t r = 0;

	if (!got)
		return 0;
	if (got < 0)
		return refuse(out, (int)-got, false);
	while (r < nroutes && strcmp(routes[r].path, req.path))
		r++;
	if (r == nroutes)
		return refuse(out, HTTP_NOT_FOUND, req.method == HTTP_HEAD);
	s = tacet_buf_sink(&b, body, body_size);
	routes[r].render(routes[r].ctx, &s);
	if (tacet_buf_cut(&b))
		return refuse(out, HTTP_INTERNAL_ERROR, req.method == HTTP_HEAD);
	respond(out, HTTP_OK, routes[r].content_type, body, b.len, req.method == HTTP_HEAD);
	return HTTP_OK;
}

/* --- the metrics server's routes ------------------------------------------------------------ */

static void render_irqs(void *ctx, const struct tacet_sink *out)
{
	metrics_irqs(ctx, out, NULL, false);
}

static void render_metrics(void *ctx, const struct tacet_sink *out)
{
	metrics_prometheus(ctx, out);
}

void http_metrics_routes(struct http_route routes[HTTP_METRICS_ROUTES],
			 const struct metrics_source *src)
{
	routes[0] = (struct http_route){ "/irqs", "text/plain", render_irqs, (void *)src };
	routes[1] = (struct http_route){ "/metrics", "text/plain; version=0.0.4", render_metrics,
					 (void *)src };
}
