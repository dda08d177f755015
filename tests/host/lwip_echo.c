/* lwip_echo.c: an echo service on lwIP's raw API (lwip_echo.h), the host test's peer: every UDP
 * datagram to port 7 is sent back to its sender; every TCP connection to port 7 gets its bytes
 * back, in order, until it closes. (Tacet's echo service is servers/echo, over ip's sockets.)
 *
 * TCP flow control without copies or buffers of our own: received data is kept as lwIP's
 * pbufs on the connection (pending) and acknowledged to the peer's window (tcp_recved) only
 * as it is written to the send buffer, so a peer sending faster than it reads is slowed by its
 * own window, never by a drop. Writes resume from the sent callback, when acknowledgements free
 * send buffer. Portable C over lwIP alone; everything runs in the thread that runs lwIP, so
 * nothing is locked. A connection's state comes from lwIP's heap. */
#include "lwip_echo.h"

#include "lwip/mem.h"
#include "lwip/pbuf.h"
#include "lwip/tcp.h"
#include "lwip/udp.h"

struct echo_stats echo_stats;

struct echo_conn {
	struct tcp_pcb *pcb;
	struct pbuf *pending; /* received, not yet written back */
	int closing;          /* the peer closed its side: close ours once pending is written */
};

static void udp_echo(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *addr,
		     u16_t port)
{
	(void)arg;
	if (udp_sendto(pcb, p, addr, port) == ERR_OK)
		echo_stats.datagrams++;
	pbuf_free(p);
}

static void conn_free(struct echo_conn *c)
{
	if (c->pending)
		pbuf_free(c->pending);
	mem_free(c);
}

/* Detach the first pbuf of the pending chain (it was written whole, or is empty). */
static void pending_drop_first(struct echo_conn *c)
{
	struct pbuf *q = c->pending;

	c->pending = q->next; /* the chain's reference to next passes to c->pending */
	q->next = NULL;
	pbuf_free(q);
}

/* Write as much of pending as the send buffer takes; open the window by as much. Closes the
 * connection (0 returned) when the peer has closed and everything was written; ERR_ABRT if
 * the connection was aborted here (c is gone). */
static err_t conn_flush(struct echo_conn *c)
{
	struct tcp_pcb *pcb = c->pcb;

	while (c->pending) {
		struct pbuf *q = c->pending;
		u16_t n = LWIP_MIN(q->len, tcp_sndbuf(pcb));

		if (q->len == 0) {
			pending_drop_first(c);
			continue;
		}
		if (n == 0 || tcp_write(pcb, q->payload, n, TCP_WRITE_FLAG_COPY) != ERR_OK)
			break;
		tcp_recved(pcb, n);
		echo_stats.tcp_bytes += n;
		if (n == q->len)
			pending_drop_first(c);
		else
			pbuf_remove_header(q, n);
	}
	tcp_output(pcb);
	if (c->closing && !c->pending) {
		tcp_arg(pcb, NULL);
		conn_free(c);
		if (tcp_close(pcb) != ERR_OK) {
			tcp_abort(pcb);
			return ERR_ABRT;
		}
	}
	return ERR_OK;
}

static err_t tcp_echo_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
	struct echo_conn *c = arg;

	(void)pcb;
	if (!c) { /* closing already: nothing more is echoed */
		if (p)
			pbuf_free(p);
		return ERR_OK;
	}
	if (!p || err != ERR_OK) {
		if (p)
			pbuf_free(p);
		c->closing = 1;
	} else if (c->pending) {
		pbuf_cat(c->pending, p);
	} else {
		c->pending = p;
	}
	return conn_flush(c);
}

static err_t tcp_echo_sent(void *arg, struct tcp_pcb *pcb, u16_t len)
{
	(void)pcb;
	(void)len;
	return arg ? conn_flush(arg) : ERR_OK;
}

/* The connection is gone (reset, or aborted by lwIP): its pcb is already freed. */
static void tcp_echo_err(void *arg, err_t err)
{
	(void)err;
	if (arg)
		conn_free(arg);
}

static err_t tcp_echo_accept(void *arg, struct tcp_pcb *pcb, err_t err)
{
	struct echo_conn *c;

	(void)arg;
	if (err != ERR_OK || !pcb)
		return ERR_VAL;
	c = mem_malloc(sizeof(*c));
	if (!c)
		return ERR_MEM; /* lwIP aborts the new connection */
	c->pcb = pcb;
	c->pending = NULL;
	c->closing = 0;
	tcp_arg(pcb, c);
	tcp_recv(pcb, tcp_echo_recv);
	tcp_sent(pcb, tcp_echo_sent);
	tcp_err(pcb, tcp_echo_err);
	echo_stats.connections++;
	return ERR_OK;
}

int echo_start(const ip_addr_t *addr)
{
	struct udp_pcb *u = udp_new();
	struct tcp_pcb *t = tcp_new(), *l;
	err_t err = ERR_MEM;

	if (!u || !t)
		goto fail;
	err = udp_bind(u, addr, ECHO_PORT);
	if (err == ERR_OK)
		err = tcp_bind(t, addr, ECHO_PORT);
	if (err != ERR_OK)
		goto fail;
	l = tcp_listen(t); /* frees t on success */
	if (!l) {
		err = ERR_MEM;
		goto fail;
	}
	udp_recv(u, udp_echo, NULL);
	tcp_accept(l, tcp_echo_accept);
	return 0;
fail:
	if (u)
		udp_remove(u);
	if (t)
		tcp_close(t);
	return err;
}
