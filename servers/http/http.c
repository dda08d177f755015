/* http: the metrics server (init.run= `%http`, after ip): HTTP/1.0 on TCP port HTTP_PORT over
 * lib's sockets (<tacet/net.h>), serving /irqs (the shell's irqs table) and /metrics (the
 * Prometheus text) through lib/http.c (<tacet/http.h>), which also answers every refusal (400,
 * 404, 405, 414, 431, 505). One request a connection: the response, then the close.
 *
 * Several connections at once, none able to stop the others: one thread waits for whichever
 * socket has something (tacet_net_ready) and never for one connection. A connection has
 * REQUEST_TIMEOUT_NS from its accept to bring its request's head, else it is closed; at most
 * CONNS_MAX are open, and accepting the one that fills the table closes the oldest, so that
 * ip always has a socket of this session's quota free for the next connection (ip refuses a
 * connection, with a reset, when the quota or its accept queue is full). A response goes out
 * in one send, into transmit buffers that hold the largest body, so the thread never waits for
 * a client to read. But ip takes a session's messages in order, and lib asks ip to close a
 * socket once ip has taken what was sent on it: a client that stops reading (its window shut)
 * keeps its socket of the quota and delays the responses queued behind its own.
 *
 * The timing in /metrics and /irqs (the lines' top-half, wake-up and server times) needs the
 * trace authority (`%` in init.run=): the default boot gives it, its port being forwarded from
 * the host's loopback only; without it the tables show zeros and the Prometheus text leaves
 * the timing out (tacet_irq_timing_visible 0). No IPC protocol of its own; one thread, no
 * locks. Prints through the kernel's debug output. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/http.h>
#include <tacet/init_proto.h>
#include <tacet/metrics.h>
#include <tacet/net.h>

#define HTTP_PORT          80
#define NTFN_BIT           1ul
#define CONNS_MAX          (IP_SOCKETS_MAX - 1) /* the session's quota less the listener */
#define REQUEST_TIMEOUT_NS 5000000000ull
#define BODY_MAX           (128u << 10)
#define HEAD_MAX           512u /* the status line and headers lib/http.c writes */
#define TX_CAPACITY        64   /* buffers of 4 KiB: a whole response and more */

struct conn {
	long sock;          /* 0: free */
	uint64_t opened_ns; /* its accept */
	size_t len;         /* request bytes so far */
	char req[HTTP_REQUEST_MAX];
};

static struct tacet_net n;
static struct conn conns[CONNS_MAX];
static struct http_route routes[HTTP_METRICS_ROUTES];
static char body[BODY_MAX], response[BODY_MAX + HEAD_MAX];

static void fail(const char *what, long err)
{
	printf("http: %s: %s\n", what, tacet_strerror(err));
	tacet_exit(1);
}

static void conn_close(struct conn *c, const char *why)
{
	printf("http: connection %ld closed: %s\n", c->sock, why);
	tacet_net_sock_close(&n, c->sock);
	c->sock = 0;
}

static struct conn *conn_of(long sock)
{
	for (unsigned int i = 0; i < CONNS_MAX; i++)
		if (conns[i].sock == sock)
			return &conns[i];
	return NULL;
}

/* The open connection accepted first, or NULL if none is open. */
static struct conn *conn_oldest(void)
{
	struct conn *old = NULL;

	for (unsigned int i = 0; i < CONNS_MAX; i++)
		if (conns[i].sock && (!old || conns[i].opened_ns < old->opened_ns))
			old = &conns[i];
	return old;
}

static unsigned int conns_open(void)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < CONNS_MAX; i++)
		k += conns[i].sock != 0;
	return k;
}

/* A new connection on the listener: into a free entry; the table full, the oldest closed. */
static void conn_accept(long listener)
{
	long s = tacet_net_accept(&n, listener, 0);
	struct conn *c;

	if (s < 0)
		fail("accept", s);
	c = conn_of(0);
	if (!c) { /* cannot happen while the table keeps one free; the newcomer goes */
		tacet_net_sock_close(&n, s);
		return;
	}
	*c = (struct conn){ .sock = s, .opened_ns = tacet_time_ns() };
	printf("http: connection %ld accepted (%u open)\n", s, conns_open());
	if (conns_open() == CONNS_MAX)
		conn_close(conn_oldest(), "the oldest, to keep room for a new connection");
}

/* The request so far answered if it is whole or refused: the response sent, the close. */
static void conn_answer(struct conn *c)
{
	struct tacet_buf b;
	struct tacet_sink out = tacet_buf_sink(&b, response, sizeof(response));
	int status = http_respond(c->req, c->len, routes, HTTP_METRICS_ROUTES, body, sizeof(body),
				  &out);
	char why[64];
	long err;

	if (!status)
		return;
	if (tacet_buf_cut(&b))
		fail("a response longer than its buffer", -TACET_ERANGE);
	if ((err = tacet_net_send(&n, c->sock, response, b.len, 0, 0)) < 0) {
		snprintf(why, sizeof(why), "its response not sent (%s)", tacet_strerror(err));
		conn_close(c, why);
		return;
	}
	snprintf(why, sizeof(why), "answered %d, %zu bytes", status, b.len);
	conn_close(c, why);
}

/* Bytes (or the end) on an open connection. */
static void conn_receive(struct conn *c)
{
	long got = tacet_net_recv(&n, c->sock, c->req + c->len, sizeof(c->req) - c->len, 0,
				  NULL, NULL);

	if (got == -TACET_EDEAD)
		fail("recv", got);
	if (got <= 0) {
		conn_close(c, got ? "receive failed" : "the client closed before a request");
		return;
	}
	c->len += (size_t)got;
	conn_answer(c);
}

/* Connections whose request has not come within REQUEST_TIMEOUT_NS closed; the time until the
 * next one is due (0: none open). */
static uint64_t conns_expire(void)
{
	uint64_t now = tacet_time_ns(), next = 0;

	for (unsigned int i = 0; i < CONNS_MAX; i++) {
		uint64_t due = conns[i].opened_ns + REQUEST_TIMEOUT_NS;

		if (!conns[i].sock)
			continue;
		if (due <= now)
			conn_close(&conns[i], "no whole request in time");
		else if (!next || due - now < next)
			next = due - now;
	}
	return next;
}

static long listen_on(uint16_t port)
{
	long s = tacet_net_socket(&n, IP_SOCK_TCP), err;

	if (s < 0)
		return s;
	if ((err = tacet_net_bind(&n, s, 0, port)) || (err = tacet_net_listen(&n, s)))
		return err;
	return s;
}

int main(void)
{
	long slot = tacet_slot_alloc(), err = slot < 0 ? slot : tacet_ntfn_new((unsigned long)slot);
	struct metrics_source src;
	long listener;

	metrics_kernel_source(&src, TACET_CHILD_TRACE);
	http_metrics_routes(routes, &src);
	if (!err)
		err = tacet_net_open(&n, TX_CAPACITY, IP_BUF_MAX, (unsigned long)slot, NTFN_BIT);
	if (err)
		fail("open a session with ip", err);
	if ((listener = listen_on(HTTP_PORT)) < 0)
		fail("listen", listener);
	printf("http: serving /irqs and /metrics on TCP port %d (timing %s)\n", HTTP_PORT,
	       src.timing ? "shown: trace authority held" : "withheld: no trace authority");
	for (;;) {
		long s = tacet_net_ready(&n, conns_expire());
		struct conn *c;

		if (s == -TACET_EBUSY)
			continue;
		if (s < 0)
			fail("wait", s);
		if (s == listener)
			conn_accept(listener);
		else if ((c = conn_of(s)))
			conn_receive(c);
		else /* what came for a connection closed here: dropped */
			tacet_net_sock_close(&n, s);
	}
}
