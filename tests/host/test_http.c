/* test_http.c: host unit tests of lib/http.c (<tacet/http.h>), linked as it is with the
 * metrics renderer: requests decoded (GET, HEAD, HTTP/1.0 and 1.1, CRLF or LF, blank lines
 * before, a query set aside), every prefix of a request asking for more, each malformed
 * request refused with its status, the limits; random requests, cut and corrupted, under
 * ASan: a prefix's answer is "more" or the whole request's; responses: status line, headers,
 * Content-Length, the body (none for HEAD), 404, 500 for a body that does not fit; the
 * metrics server's /irqs and /metrics as the renderer writes them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <tacet/http.h>
#include "host_rng.h"

static long parse(const char *s, struct http_request *req)
{
	return http_parse(s, strlen(s), req);
}

/* Well-formed requests: the whole head taken, the method, version and path. */
static void test_parse_good(void **state)
{
	static const struct {
		const char *text;
		enum http_method method;
		unsigned int minor;
		const char *path;
	} good[] = {
		{ "GET /metrics HTTP/1.0\r\n\r\n", HTTP_GET, 0, "/metrics" },
		{ "HEAD /irqs HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: curl/7.88.1\r\n"
		  "Accept: */*\r\n\r\n", HTTP_HEAD, 1, "/irqs" },
		{ "GET /metrics?name[]=x&y=1 HTTP/1.0\n\n", HTTP_GET, 0, "/metrics" },
		{ "\r\n\nGET / HTTP/1.1\nX-Empty:\nX-Tab:\tv a\xe9\n\r\n", HTTP_GET, 1, "/" },
		{ "GET /a%20b HTTP/1.0\r\nAccept-Encoding: gzip\r\n\r\n", HTTP_GET, 0, "/a%20b" },
	};
	struct http_request req;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		size_t n = strlen(good[i].text);

		memset(&req, 0xa5, sizeof(req));
		assert_int_equal(parse(good[i].text, &req), n);
		assert_int_equal(req.method, good[i].method);
		assert_int_equal(req.minor, good[i].minor);
		assert_string_equal(req.path, good[i].path);
		/* every prefix wants more */
		for (size_t k = 0; k < n; k++)
			assert_int_equal(http_parse(good[i].text, k, &req), 0);
	}
	/* a body after the head is not taken */
	assert_int_equal(parse("GET / HTTP/1.0\r\n\r\nbody", &req), 18);
}

static void test_parse_bad(void **state)
{
	static const struct {
		const char *text;
		int status;
	} bad[] = {
		{ "GET /metrics\r\n\r\n", HTTP_BAD_REQUEST },          /* HTTP/0.9 */
		{ "GET  /metrics HTTP/1.0\r\n\r\n", HTTP_BAD_REQUEST }, /* two spaces */
		{ "GET /metrics  HTTP/1.0\r\n\r\n", HTTP_BAD_REQUEST },
		{ "GET /metrics HTTP/1.0 \r\n\r\n", HTTP_BAD_REQUEST },
		{ " GET /metrics HTTP/1.0\r\n\r\n", HTTP_BAD_REQUEST },
		{ "GET\t/metrics HTTP/1.0\r\n\r\n", HTTP_BAD_REQUEST },
		{ "GET metrics HTTP/1.0\r\n\r\n", HTTP_BAD_REQUEST },  /* not /path */
		{ "GET http://host/metrics HTTP/1.0\r\n\r\n", HTTP_BAD_REQUEST },
		{ "GET /m\x01 HTTP/1.0\r\n\r\n", HTTP_BAD_REQUEST },
		{ "GET /m\xc3\xa9 HTTP/1.0\r\n\r\n", HTTP_BAD_REQUEST },
		{ "G(T / HTTP/1.0\r\n\r\n", HTTP_BAD_REQUEST },        /* not a token */
		{ "GET / HTTP/1.0\rX\n\r\n", HTTP_BAD_REQUEST },       /* a bare CR */
		{ "GET / HTTP/1.0\r\nHost 1\r\n\r\n", HTTP_BAD_REQUEST },
		{ "GET / HTTP/1.0\r\nHost : 1\r\n\r\n", HTTP_BAD_REQUEST },
		{ "GET / HTTP/1.0\r\n: 1\r\n\r\n", HTTP_BAD_REQUEST },
		{ "GET / HTTP/1.0\r\nA: 1\r\n folded\r\n\r\n", HTTP_BAD_REQUEST },
		{ "GET / HTTP/1.0\r\nA: \x7f\r\n\r\n", HTTP_BAD_REQUEST },
		{ "GET / HTTP/1.0\r\nA: \x1b[2J\r\n\r\n", HTTP_BAD_REQUEST },
		{ "GET / HTTP/1.x\r\n\r\n", HTTP_BAD_REQUEST },
		{ "GET / HTTP/10\r\n\r\n", HTTP_BAD_REQUEST },
		{ "GET / http/1.0\r\n\r\n", HTTP_BAD_REQUEST },
		{ "GET / HTTP/1.10\r\n\r\n", HTTP_BAD_REQUEST },
		{ "GET / HTTP/2.0\r\n\r\n", HTTP_VERSION_NOT_SUPPORTED },
		{ "GET / HTTP/1.2\r\n\r\n", HTTP_VERSION_NOT_SUPPORTED },
		{ "GET / HTTP/0.9\r\n\r\n", HTTP_VERSION_NOT_SUPPORTED },
		{ "POST /metrics HTTP/1.0\r\n\r\n", HTTP_METHOD_NOT_ALLOWED },
		{ "get /metrics HTTP/1.0\r\n\r\n", HTTP_METHOD_NOT_ALLOWED }, /* case matters */
		{ "BREW /pot HTTP/1.0\r\n\r\n", HTTP_METHOD_NOT_ALLOWED },
		/* refused at once, before the head ends */
		{ "GET /metrics HTTP/3.0\r\n", HTTP_VERSION_NOT_SUPPORTED },
		{ "GET / HTTP/1.0\r\nBad header\r\n", HTTP_BAD_REQUEST },
		{ "GET / HTTP/1.0\r\r", HTTP_BAD_REQUEST },
	};
	struct http_request req;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		long got = parse(bad[i].text, &req);

		if (got != -bad[i].status)
			fail_msg("\"%s\": %ld, not -%d", bad[i].text, got, bad[i].status);
	}
	/* a NUL anywhere */
	assert_int_equal(http_parse("GET /\0 HTTP/1.0\r\n\r\n", 20, &req), -HTTP_BAD_REQUEST);
	assert_int_equal(http_parse("GET / HTTP/1.0\r\nA: \0\r\n\r\n", 24, &req),
			 -HTTP_BAD_REQUEST);
	assert_int_equal(http_parse("GE\0", 3, &req), -HTTP_BAD_REQUEST);
}

/* A target of HTTP_PATH_MAX - 1 bytes is served, one more is 414; a request line that does
 * not end within HTTP_REQUEST_MAX is 414, headers that do not, 431. */
static void test_parse_limits(void **state)
{
	static char text[3 * HTTP_REQUEST_MAX];
	struct http_request req;
	char target[HTTP_PATH_MAX + 1];

	(void)state;
	memset(target, 'a', sizeof(target));
	target[0] = '/';
	target[HTTP_PATH_MAX - 1] = '\0';
	snprintf(text, sizeof(text), "GET %s HTTP/1.0\r\n\r\n", target);
	assert_int_equal(parse(text, &req), strlen(text));
	assert_string_equal(req.path, target);
	target[HTTP_PATH_MAX - 1] = 'a';
	target[HTTP_PATH_MAX] = '\0';
	snprintf(text, sizeof(text), "GET %s HTTP/1.0\r\n\r\n", target);
	assert_int_equal(parse(text, &req), -HTTP_URI_TOO_LONG);

	memset(text, 'a', sizeof(text));
	memcpy(text, "GET /", 5);
	assert_int_equal(http_parse(text, HTTP_REQUEST_MAX - 1, &req), 0);
	assert_int_equal(http_parse(text, HTTP_REQUEST_MAX, &req), -HTTP_URI_TOO_LONG);
	assert_int_equal(http_parse(text, sizeof(text), &req), -HTTP_URI_TOO_LONG);

	strcpy(text, "GET / HTTP/1.0\r\n");
	while (strlen(text) < HTTP_REQUEST_MAX + 100)
		strcat(text, "X-Filler: 0123456789\r\n");
	assert_int_equal(http_parse(text, HTTP_REQUEST_MAX - 1, &req), 0);
	assert_int_equal(parse(text, &req), -HTTP_HEADERS_TOO_LARGE);
	strcat(text, "\r\n"); /* whole, but longer than the limit */
	assert_int_equal(parse(text, &req), -HTTP_HEADERS_TOO_LARGE);
	/* blank lines before the request line count */
	memset(text, '\n', HTTP_REQUEST_MAX);
	assert_int_equal(http_parse(text, HTTP_REQUEST_MAX, &req), -HTTP_URI_TOO_LONG);
}

/* Random requests (a good one, cut, with bytes changed, or bytes at random), each prefix
 * against the whole: a prefix that is not "more" answers as the whole does. */
static void test_parse_random(void **state)
{
	static const char *const seeds[] = {
		"GET /metrics HTTP/1.0\r\nHost: x\r\n\r\n",
		"HEAD /irqs?x=1 HTTP/1.1\nA: b\n\n",
		"\r\nGET / HTTP/1.1\r\nUser-Agent: Prometheus/2.42.0\r\nAccept: text/plain\r\n\r\n",
	};
	static const char alphabet[] = "GETHAD /?:\r\n\t HTTP/1.01\x00\x7f\xff";
	char text[160];
	struct http_request req;

	(void)state;
	rng_state = 0x68747470ull;
	for (int round = 0; round < 20000; round++) {
		size_t n;
		long whole;

		if (round % 4 == 3) {
			n = rng_below(sizeof(text));
			for (size_t i = 0; i < n; i++)
				text[i] = alphabet[rng_below(sizeof(alphabet) - 1)];
		} else {
			const char *s = seeds[rng_below(3)];

			n = strlen(s);
			memcpy(text, s, n);
			for (unsigned int m = rng_below(3); m; m--)
				text[rng_below(n)] = rng_below(2) ? alphabet[rng_below(
								     sizeof(alphabet) - 1)]
								   : (char)rng_below(256);
		}
		whole = http_parse(text, n, &req);
		assert_true(whole >= -HTTP_VERSION_NOT_SUPPORTED && whole <= (long)n);
		for (size_t k = 0; k < n; k++) {
			long part = http_parse(text, k, &req);

			if (part && part != whole)
				fail_msg("round %d: %zu of %zu bytes: %ld, the whole %ld", round, k, n,
					 part, whole);
		}
	}
}

/* --- responses ------------------------------------------------------------------------------ */

static void render_hello(void *ctx, const struct tacet_sink *out)
{
	tacet_sink_printf(out, "hello %s\n", (const char *)ctx);
}

static const struct http_route routes[] = {
	{ "/hello", "text/plain; version=0.0.4", render_hello, "world" },
	{ "/other", "text/plain", render_hello, "other" },
};

static char response[1 << 20];
static char body[1 << 20];

static int answer(const char *request, size_t body_size)
{
	struct tacet_buf b;
	struct tacet_sink out = tacet_buf_sink(&b, response, sizeof(response));

	return http_respond(request, strlen(request), routes, 2, body, body_size, &out);
}

static void test_respond(void **state)
{
	(void)state;
	assert_int_equal(answer("GET /hello?x HTTP/1.1\r\nHost: h\r\n\r\n", sizeof(body)), 200);
	assert_string_equal(response, "HTTP/1.0 200 OK\r\n"
				      "Content-Type: text/plain; version=0.0.4\r\n"
				      "Content-Length: 12\r\n"
				      "Connection: close\r\n"
				      "\r\n"
				      "hello world\n");
	assert_int_equal(answer("HEAD /other HTTP/1.0\r\n\r\n", sizeof(body)), 200);
	assert_string_equal(response, "HTTP/1.0 200 OK\r\n"
				      "Content-Type: text/plain\r\n"
				      "Content-Length: 12\r\n"
				      "Connection: close\r\n"
				      "\r\n");
	/* not whole yet: nothing written */
	assert_int_equal(answer("GET /hello HTTP/1.0\r\n", sizeof(body)), 0);
	assert_string_equal(response, "");
}

static void test_respond_refusals(void **state)
{
	(void)state;
	assert_int_equal(answer("GET /nope HTTP/1.0\r\n\r\n", sizeof(body)), 404);
	assert_string_equal(response, "HTTP/1.0 404 Not Found\r\n"
				      "Content-Type: text/plain\r\n"
				      "Content-Length: 14\r\n"
				      "Connection: close\r\n"
				      "\r\n"
				      "404 Not Found\n");
	assert_int_equal(answer("GET /hello/ HTTP/1.0\r\n\r\n", sizeof(body)), 404);
	assert_int_equal(answer("GET hello HTTP/1.0\r\n\r\n", sizeof(body)), 400);
	assert_non_null(strstr(response, "HTTP/1.0 400 Bad Request\r\n"));
	assert_non_null(strstr(response, "\r\n\r\n400 Bad Request\n"));
	assert_int_equal(answer("DELETE /hello HTTP/1.0\r\n\r\n", sizeof(body)), 405);
	assert_non_null(strstr(response, "HTTP/1.0 405 Method Not Allowed\r\n"));
	assert_non_null(strstr(response, "\r\nAllow: GET, HEAD\r\n"));
	assert_int_equal(answer("GET / HTTP/2.0\r\n\r\n", sizeof(body)), 505);
	assert_non_null(strstr(response, "HTTP/1.0 505 HTTP Version Not Supported\r\n"));
	/* a body that does not fit the caller's buffer (12 bytes and the NUL) */
	assert_int_equal(answer("GET /hello HTTP/1.0\r\n\r\n", 12), 500);
	assert_non_null(strstr(response, "HTTP/1.0 500 Internal Server Error\r\n"));
	assert_int_equal(answer("GET /hello HTTP/1.0\r\n\r\n", 13), 200);
}

/* --- the metrics server's routes ---------------------------------------------------------- */

/* One line, 4, bound, taken 6 times; one hart; a clock. */
static long fake_info(void *ctx, unsigned long kind, unsigned long index, void *buf,
		      unsigned long len)
{
	(void)ctx;
	if (kind == TACET_INFO_IRQ && index && index < 8 && len >= sizeof(struct tacet_irq_info)) {
		struct tacet_irq_info *ii = buf;

		ii->irq = (unsigned int)index;
		ii->bound = ii->state = index == 4;
		ii->count = ii->per_hart[0] = index == 4 ? 6 : 0;
		return sizeof(*ii);
	}
	if (kind == TACET_INFO_IRQ_HIST && index && index < 8 &&
	    len >= sizeof(struct tacet_irq_hist)) {
		struct tacet_irq_hist *ih = buf;

		ih->irq = (unsigned int)index;
		ih->bound = ih->state = index == 4;
		ih->count = ih->top[5] = index == 4 ? 6 : 0;
		ih->top_max = ih->top_sum = index == 4 ? 31 : 0;
		return sizeof(*ih);
	}
	if (kind == TACET_INFO_HART && index == 0 && len >= sizeof(struct tacet_hart_info))
		return sizeof(struct tacet_hart_info);
	if (kind == TACET_INFO_CLOCK && index == 0 && len >= sizeof(struct tacet_clock_info))
		return sizeof(struct tacet_clock_info);
	return -TACET_ENOENT;
}

/* The response's body for path, after checking its headers name type and its length. */
static const char *served(const struct http_route *r, const char *path, const char *type)
{
	struct tacet_buf b;
	struct tacet_sink out = tacet_buf_sink(&b, response, sizeof(response));
	char request[64], want[128];
	const char *at;

	snprintf(request, sizeof(request), "GET %s HTTP/1.0\r\n\r\n", path);
	assert_int_equal(http_respond(request, strlen(request), r, HTTP_METRICS_ROUTES, body,
				      sizeof(body), &out), 200);
	snprintf(want, sizeof(want), "\r\nContent-Type: %s\r\n", type);
	assert_non_null(strstr(response, want));
	at = strstr(response, "\r\n\r\n") + 4;
	snprintf(want, sizeof(want), "\r\nContent-Length: %zu\r\n", strlen(at));
	assert_non_null(strstr(response, want));
	return at;
}

static void test_metrics_routes(void **state)
{
	const struct metrics_source src = { .info = fake_info, .timing = true };
	struct http_route r[HTTP_METRICS_ROUTES];
	static char want[1 << 16];
	struct tacet_buf b;
	struct tacet_sink out = tacet_buf_sink(&b, want, sizeof(want));

	(void)state;
	http_metrics_routes(r, &src);
	metrics_prometheus(&src, &out);
	assert_string_equal(served(r, "/metrics", "text/plain; version=0.0.4"), want);
	assert_non_null(strstr(want, "\ntacet_irq_top_half_cycles_count{irq=\"4\"} 6\n"));
	out = tacet_buf_sink(&b, want, sizeof(want));
	metrics_irqs(&src, &out, NULL, false);
	assert_string_equal(served(r, "/irqs", "text/plain"), want);
	assert_non_null(strstr(want, "\n   4 idle        0          6        6\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_parse_limits),
		cmocka_unit_test(test_parse_random),
		cmocka_unit_test(test_respond),
		cmocka_unit_test(test_respond_refusals),
		cmocka_unit_test(test_metrics_routes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
