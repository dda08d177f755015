/* sock.c: the sockets ip serves (<tacet/ip_proto.h>): a session a client (lib's session table,
 * badged calls), each with four lib/ring.c rings and two buffer areas in one frame the client
 * granted, mapped here, and up to IP_SOCKETS_MAX sockets, each an lwIP PCB.
 *
 * Calls (ip_serve_*, from ip.c's handlers) set up: open, attach, start, socket, bind,
 * listen, connect, close. Data never comes by a call: sock_work, run by ip's loop at every
 * pass, takes the messages the client put in IP_RING_TX_READY (UDP datagrams sent at once, or
 * left there while net holds every transmit buffer, until it gives one back; TCP
 * bytes written as lwIP's send buffer takes them, the message kept until all are in, its
 * buffer given back then: the client's buffers are its flow control) and hands over, into the
 * receive buffers the client offers, what lwIP's callbacks recorded: TCP bytes kept as lwIP's
 * pbufs until a buffer takes them (tcp_recved only then: the peer's window is the flow control),
 * UDP datagrams at once, or held as lwIP's pbufs while no buffer is free (up to UDP_QUEUE a
 * socket; past that dropped and counted), and the events
 * (accepted, connected, closed). Everything read from the rings is checked; a bad message is
 * dropped and counted (refused), the session goes on. A session's end (closed, replaced, its
 * process gone) aborts its connections and frees its PCBs, pbufs and mapping.
 * One thread (ip's), no locks. */
#include <stdio.h>
#include <string.h>

#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/ip_server.h>
#include <tacet/ring.h>

#include "lwip/pbuf.h"
#include "lwip/tcp.h"
#include "lwip/udp.h"

#include "netif.h"
#include "sock.h"

#define ACCEPT_QUEUE 4 /* connections a listening socket holds before the client hears */
/* UDP datagrams a socket holds while its client offers no receive buffer (its receive queue, as
 * a socket's receive buffer elsewhere): a burst longer than the client's buffers is not lost,
 * one longer than both is dropped and counted. A power of two. */
#define UDP_QUEUE 256

/* A datagram held for the client: lwIP's pbuf (its payload the UDP data) and its sender. */
struct udp_held {
	struct pbuf *p;
	uint32_t addr;
	uint16_t port;
};

enum sock_type { SOCK_FREE, SOCK_UDP, SOCK_TCP, SOCK_LISTEN };

struct session;

struct sock {
	enum sock_type type;
	struct session *owner;
	union {
		struct udp_pcb *udp;
		struct tcp_pcb *tcp;
	};
	struct pbuf *pending;          /* TCP: received, not yet handed over */
	int connected, closed, reason; /* events to hand over (closed: once, then done) */
	int closed_sent;
	uint32_t accepted[ACCEPT_QUEUE];
	unsigned int naccepted;
	struct udp_held held[UDP_QUEUE]; /* UDP: received, not yet handed over, oldest first */
	uint32_t held_head, held_tail;   /* free-running; held_tail - held_head of them */
};

struct session {
	unsigned long badge; /* 0: free */
	unsigned long frame, va, pages;
	uint32_t capacity, buf_size;
	uint8_t *tx_area, *rx_area;
	struct ring tx_ready, tx_done, rx_free, rx_used;
	unsigned long peer, peer_bits;
	int started;
	int stopped;          /* its rings lied (an index or descriptor refused): no more work */
	struct ring_desc cur; /* the transmit message being written */
	uint32_t cur_done;    /* its payload bytes lwIP took so far */
	int have_cur;
	struct sock socks[IP_SOCKETS_MAX];
	unsigned long refused, rx_dropped;
};

/* Defined only by the test build ip_dying (servers/tests/ipdying.c): called with the count of
 * messages handed to clients so far; it faults, so that ip dies with sessions open. */
void ip_handed(unsigned long messages) __attribute__((weak));
static unsigned long handed;
unsigned long sock_udp_overflows; /* datagrams dropped: their socket's queue was full */
unsigned long sock_udp_stale;     /* datagrams dropped: held in net's buffer when net ended */

static struct tacet_sessions table;
static struct session sessions[IP_CLIENTS_MAX];
static struct session *clients[TACET_SESSIONS_MAX]; /* by badge - 1 */
static unsigned long ip_ntfn;
static struct netif *udp_netif; /* where a datagram's pbuf is a transmit buffer (netif.h) */

static struct session *session_of(struct tacet_service *svc)
{
	return tacet_session_is_open(&table, svc->badge) ? clients[svc->badge - 1] : NULL;
}

static unsigned long stopped_sessions; /* since ip started */

/* The client's rings hold an index or a descriptor the ring refused: the session does nothing
 * more (its calls say -TACET_EFAULT) until the client opens another. Its sockets stay until
 * then; what they receive waits in lwIP (TCP: the window closes) or is dropped (UDP). */
static void session_stop(struct session *s)
{
	if (!s->stopped)
		printf("ip: client %lu's session stopped: its rings lied (%lu stopped so far)\n",
		       s->badge, ++stopped_sessions);
	s->stopped = 1;
}

static struct sock *sock_of(struct session *s, uint64_t id)
{
	return s && id >= 1 && id <= IP_SOCKETS_MAX && s->socks[id - 1].type != SOCK_FREE ?
		       &s->socks[id - 1] : NULL;
}

static uint32_t sock_id(const struct sock *k)
{
	return (uint32_t)(k - k->owner->socks) + 1;
}

/* --- a socket's end ---------------------------------------------------------------------- */

static void sock_free(struct sock *k)
{
	if (k->type == SOCK_UDP && k->udp) {
		udp_remove(k->udp);
	} else if (k->type == SOCK_LISTEN) {
		tcp_close(k->tcp); /* a listening PCB closes at once */
	} else if (k->type == SOCK_TCP && k->tcp) {
		tcp_arg(k->tcp, NULL); /* what comes after the close is lwIP's alone */
		if (tcp_close(k->tcp) != ERR_OK)
			tcp_abort(k->tcp);
	}
	if (k->pending)
		pbuf_free(k->pending);
	for (; k->held_head != k->held_tail; k->held_head++)
		pbuf_free(k->held[k->held_head % UDP_QUEUE].p);
	for (unsigned int i = 0; i < k->naccepted; i++) /* accepted, never announced */
		sock_free(&k->owner->socks[k->accepted[i] - 1]);
	*k = (struct sock){ .type = SOCK_FREE, .owner = k->owner };
}

static void session_free(struct session *s)
{
	for (unsigned int i = 0; i < IP_SOCKETS_MAX; i++)
		if (s->socks[i].type != SOCK_FREE) {
			if (s->socks[i].type == SOCK_TCP && s->socks[i].tcp) {
				tcp_arg(s->socks[i].tcp, NULL);
				tcp_abort(s->socks[i].tcp); /* no orderly close: the client is gone */
				s->socks[i].tcp = NULL;
			}
			sock_free(&s->socks[i]);
		}
	if (s->va) {
		tacet_unmap(TACET_CHILD_SELF, s->va, s->pages);
		tacet_va_free(s->va, s->pages);
	}
	if (s->frame)
		tacet_slot_free(s->frame);
	if (s->peer)
		tacet_slot_free(s->peer);
	clients[s->badge - 1] = NULL;
	memset(s, 0, sizeof(*s));
}

static void session_ended(struct tacet_sessions *t, unsigned long badge, void *state)
{
	(void)t;
	(void)state;
	if (clients[badge - 1])
		session_free(clients[badge - 1]);
}

unsigned long sock_ended(unsigned long bits)
{
	return bits ? tacet_sessions_notified(&table, bits) : 0;
}

void sock_init(struct tacet_service *svc, unsigned long ntfn, struct netif *netif)
{
	ip_ntfn = ntfn;
	udp_netif = netif;
	tacet_sessions_init(&table, NULL, 0, session_ended, ntfn);
	svc->sessions = &table;
	for (unsigned int i = 0; i < IP_CLIENTS_MAX; i++)
		for (unsigned int j = 0; j < IP_SOCKETS_MAX; j++)
			sessions[i].socks[j].owner = &sessions[i];
}

/* --- lwIP's callbacks: they record, sock_work hands over -------------------------------- */

static err_t tcp_recv_cb(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
	struct sock *k = arg;

	(void)pcb;
	if (!k) {
		if (p)
			pbuf_free(p);
		return ERR_OK;
	}
	if (!p || err != ERR_OK) {
		if (p)
			pbuf_free(p);
		k->closed = 1;
	} else if (k->pending) {
		pbuf_cat(k->pending, p);
	} else {
		k->pending = p;
	}
	return ERR_OK;
}

static err_t tcp_sent_cb(void *arg, struct tcp_pcb *pcb, u16_t len)
{
	(void)arg;
	(void)pcb;
	(void)len;
	return ERR_OK; /* sock_work's next pass writes what waits */
}

/* The connection is gone (reset, aborted by lwIP): its PCB is freed already. */
static void tcp_err_cb(void *arg, err_t err)
{
	struct sock *k = arg;

	if (!k)
		return;
	k->tcp = NULL;
	k->closed = 1;
	k->reason = err;
}

static void tcp_callbacks(struct sock *k, struct tcp_pcb *pcb)
{
	tcp_arg(pcb, k);
	tcp_recv(pcb, tcp_recv_cb);
	tcp_sent(pcb, tcp_sent_cb);
	tcp_err(pcb, tcp_err_cb);
}

static struct sock *sock_alloc(struct session *s)
{
	for (unsigned int i = 0; i < IP_SOCKETS_MAX; i++)
		if (s->socks[i].type == SOCK_FREE)
			return &s->socks[i];
	return NULL;
}

static err_t tcp_accept_cb(void *arg, struct tcp_pcb *pcb, err_t err)
{
	struct sock *l = arg, *k;

	if (!l || err != ERR_OK || !pcb || l->naccepted == ACCEPT_QUEUE ||
	    !(k = sock_alloc(l->owner)))
		return ERR_MEM; /* lwIP aborts it: the client's quota, or its queue, is full */
	k->type = SOCK_TCP;
	k->tcp = pcb;
	tcp_callbacks(k, pcb);
	l->accepted[l->naccepted++] = sock_id(k);
	return ERR_OK;
}

static err_t tcp_connected_cb(void *arg, struct tcp_pcb *pcb, err_t err)
{
	struct sock *k = arg;

	(void)pcb;
	if (k)
		k->connected = err == ERR_OK;
	return ERR_OK;
}

/* --- handing over: ip -> client ---------------------------------------------------------- */

static void kick(struct session *s)
{
	tacet_signal(s->peer, s->peer_bits);
}

/* What ip put into the client's rings made visible, the client woken if it sleeps. The slots
 * ip took from tx_ready and rx_free are released first: the client has exactly a ring's
 * capacity of buffers of each kind, so a buffer it gets back through tx_done or rx_used and
 * puts in again must find its slot free (ring.h, "Buffers handed back"). */
static void session_publish(struct session *s)
{
	int wake = ring_release(&s->tx_ready);

	wake |= ring_release(&s->rx_free);
	wake |= ring_publish(&s->rx_used);
	wake |= ring_publish(&s->tx_done);
	if (wake)
		kick(s);
}

/* A free receive buffer with room for the header and at least one byte: its descriptor, or 0. */
static inline __attribute__((always_inline)) int rx_buffer(struct session *s,
							    struct ring_desc *d)
{
	int r = s->stopped ? 0 : ring_get(&s->rx_free, d);

	if (r < 0)
		session_stop(s);
	if (r != 1)
		return 0;
	if (d->offset % s->buf_size || d->len != s->buf_size) { /* not one of its buffers */
		s->refused++;
		return 0;
	}
	return 1;
}

/* A buffer's start is 8-byte aligned (the areas follow the rings, whose sizes are multiples of 8;
 * buf_size is one too, attach checks): its header is moved by two stores or loads. */
static inline __attribute__((always_inline)) void rx_put(struct session *s, struct ring_desc *d,
							  const struct ip_msg *m)
{
	__builtin_memcpy(__builtin_assume_aligned(s->rx_area + d->offset, 8), m, sizeof(*m));
	d->len = sizeof(*m) + m->len;
	ring_put(&s->rx_used, d); /* never full: a slot a buffer, each taken from rx_free */
	if (ip_handed)
		ip_handed(++handed);
}

/* One event message (no payload) for socket k, if a buffer is free. 1 if handed over. */
static int hand_event(struct session *s, struct sock *k, uint16_t kind, uint32_t addr)
{
	struct ring_desc d;
	struct ip_msg m = { .sock = sock_id(k), .kind = kind, .addr = addr };

	if (!rx_buffer(s, &d))
		return 0;
	rx_put(s, &d, &m);
	return 1;
}

/* TCP bytes k holds, into one buffer. 1 if handed over. */
static int hand_data(struct session *s, struct sock *k)
{
	struct ring_desc d;
	struct ip_msg m = { .sock = sock_id(k), .kind = IP_MSG_DATA };
	uint32_t room = s->buf_size - sizeof(m);

	if (!rx_buffer(s, &d))
		return 0;
	m.len = pbuf_copy_partial(k->pending, s->rx_area + d.offset + sizeof(m),
				  (u16_t)LWIP_MIN(room, k->pending->tot_len), 0);
	k->pending = pbuf_free_header(k->pending, (u16_t)m.len);
	if (k->tcp)
		tcp_recved(k->tcp, (u16_t)m.len);
	rx_put(s, &d, &m);
	return 1;
}

typedef uint32_t __attribute__((may_alias)) word32_t;

/* n bytes of a datagram's payload from src to dst. In net's buffers a UDP payload starts 4
 * bytes past an 8-byte boundary (the IP header 8-aligned, NETDEV_FRAME_OFFSET), in a client's
 * buffer at an 8-aligned one (after struct ip_msg): lib's memcpy would build each word from two
 * loads and shifts; two ends that are both 4-aligned but not alike are copied by 32-bit words
 * instead, 16 bytes a round. */
__attribute__((optimize("no-tree-loop-distribute-patterns"))) static void
payload_copy(uint8_t *dst, const uint8_t *src, uint32_t n)
{
	if (((uintptr_t)dst | (uintptr_t)src) & 3 || !(((uintptr_t)dst ^ (uintptr_t)src) & 7)) {
		memcpy(dst, src, n); /* unaligned, or aligned alike: memcpy's words are faster */
		return;
	}
	for (const uint8_t *end = src + (n & ~15u); src != end; dst += 16, src += 16) {
		const word32_t *s = (const word32_t *)src;
		word32_t *d = (word32_t *)dst, a = s[0], b = s[1], c = s[2], e = s[3];

		d[0] = a, d[1] = b, d[2] = c, d[3] = e;
	}
	for (n &= 15; n >= 4; n -= 4, dst += 4, src += 4)
		*(word32_t *)dst = *(const word32_t *)src;
	while (n--)
		*dst++ = *src++;
}

/* p's bytes into dst: one copy for a single pbuf (a datagram usually), else lwIP's walk. */
static uint32_t pbuf_copy_out(struct pbuf *p, uint8_t *dst)
{
	if (p->len == p->tot_len) {
		payload_copy(dst, p->payload, p->len);
		return p->len;
	}
	return pbuf_copy_partial(p, dst, p->tot_len, 0);
}

/* Datagram h for socket k into one buffer, its pbuf freed. 1 if handed over (or dropped: its
 * data went with net's end), 0 if no buffer. */
static int hand_one(struct session *s, struct sock *k, const struct udp_held *h)
{
	struct ring_desc d;
	struct ip_msg m = { .sock = sock_id(k), .kind = IP_MSG_DATA, .port = h->port,
			    .addr = h->addr };

	if (ip_netif_rx_stale(h->p)) { /* net died since: its data may be a new frame's */
		s->rx_dropped++;
		sock_udp_stale++;
		pbuf_free(h->p);
		return 1;
	}
	if (!rx_buffer(s, &d))
		return 0;
	m.len = pbuf_copy_out(h->p, s->rx_area + d.offset + sizeof(m));
	pbuf_free(h->p);
	rx_put(s, &d, &m);
	return 1;
}

/* The datagram k has held longest, into one buffer. 1 if handed over. */
static int hand_datagram(struct session *s, struct sock *k)
{
	if (!hand_one(s, k, &k->held[k->held_head % UDP_QUEUE]))
		return 0;
	k->held_head++;
	return 1;
}

/* Everything socket k has for the client, while buffers last. */
static void hand_over(struct session *s, struct sock *k)
{
	while (k->naccepted && hand_event(s, k, IP_MSG_ACCEPTED, k->accepted[0]))
		memmove(k->accepted, k->accepted + 1, --k->naccepted * sizeof(k->accepted[0]));
	if (k->connected && hand_event(s, k, IP_MSG_CONNECTED, 0))
		k->connected = 0;
	while (k->pending && hand_data(s, k))
		;
	while (k->held_head != k->held_tail && hand_datagram(s, k))
		;
	if (k->closed && !k->closed_sent && !k->pending &&
	    hand_event(s, k, IP_MSG_CLOSED, (uint32_t)-k->reason))
		k->closed_sent = 1;
}

/* A datagram for socket k: into a receive buffer of its client's (published to the client by
 * the same pass of ip's loop, sock_work), or held behind those it holds already (UDP_QUEUE),
 * else dropped and counted. p may be one of net's receive buffers
 * (netif.h): held as it is while netif says sockets may keep more, else copied into lwIP's
 * pool. */
static void udp_recv_cb(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *addr,
			u16_t port)
{
	struct sock *k = arg;
	struct session *s = k->owner;
	struct udp_held h = { .p = p, .port = port,
			      .addr = lwip_ntohl(ip4_addr_get_u32(ip_2_ip4(addr))) };

	(void)pcb;
	if (p->tot_len > s->buf_size - sizeof(struct ip_msg) ||
	    k->held_tail - k->held_head == UDP_QUEUE) {
		s->rx_dropped++;
		sock_udp_overflows++;
		pbuf_free(p);
		return;
	}
	if (k->held_tail == k->held_head && hand_one(s, k, &h))
		return; /* published by the pass's sock_work, with the rest of the batch */
	if (!ip_netif_rx_may_keep(p)) {
		h.p = pbuf_clone(PBUF_RAW, PBUF_POOL, p);
		pbuf_free(p);
		if (!h.p) {
			s->rx_dropped++;
			sock_udp_overflows++;
			return;
		}
	}
	k->held[k->held_tail++ % UDP_QUEUE] = h;
}

/* --- taking: client -> ip ---------------------------------------------------------------- */

/* The message at d checked: its header copied into *m (the client may change the buffer any
 * time: what is used is read once). 0, or -1 (refused). */
static int tx_decode(struct session *s, const struct ring_desc *d, struct ip_msg *m,
		     struct sock **k)
{
	if (d->offset % s->buf_size || d->len < sizeof(*m) || d->len > s->buf_size)
		return -1;
	__builtin_memcpy(m, __builtin_assume_aligned(s->tx_area + d->offset, 8), sizeof(*m));
	*k = sock_of(s, m->sock);
	if (m->kind != IP_MSG_DATA || m->len != d->len - sizeof(*m) || !*k ||
	    (*k)->type == SOCK_LISTEN)
		return -1;
	return 0;
}

static void udp_send_msg(struct session *s, struct sock *k, const struct ip_msg *m,
			 const uint8_t *data)
{
	struct pbuf *p = ip_netif_udp_pbuf(udp_netif, (u16_t)m->len);
	ip_addr_t to = IPADDR4_INIT(lwip_htonl(m->addr));

	if (!p)
		p = pbuf_alloc(PBUF_TRANSPORT, (u16_t)m->len, PBUF_RAM);
	if (!p) {
		s->refused++;
		return;
	}
	if (p->len == p->tot_len)
		payload_copy(p->payload, data, m->len);
	else
		pbuf_take(p, data, (u16_t)m->len);
	if ((m->port ? udp_sendto(k->udp, p, &to, m->port) : udp_send(k->udp, p)) != ERR_OK)
		s->refused++;
	pbuf_free(p);
}

/* TCP: as much of the current message as lwIP's send buffer takes. 1 when all is in. */
static int tcp_send_msg(struct session *s, struct sock *k, const struct ip_msg *m,
			const uint8_t *data)
{
	while (s->cur_done < m->len && k->tcp) {
		u16_t n = (u16_t)LWIP_MIN(m->len - s->cur_done, tcp_sndbuf(k->tcp));

		if (!n || tcp_write(k->tcp, data + s->cur_done, n, TCP_WRITE_FLAG_COPY) != ERR_OK)
			break;
		s->cur_done += n;
	}
	if (k->tcp)
		tcp_output(k->tcp);
	return s->cur_done == m->len || !k->tcp; /* a connection gone takes nothing more */
}

static void tx_done(struct session *s, const struct ring_desc *d)
{
	ring_put(&s->tx_done, &(struct ring_desc){ d->offset, s->buf_size });
	s->have_cur = 0;
}

/* The client's messages, in order, until one must wait for lwIP. */
static void take_messages(struct session *s)
{
	for (;;) {
		struct ip_msg m;
		struct sock *k;
		int r;

		if (!s->have_cur) {
			if ((r = ring_get(&s->tx_ready, &s->cur)) != 1) {
				if (r < 0)
					session_stop(s);
				return;
			}
			s->have_cur = 1;
			s->cur_done = 0;
		}
		if (tx_decode(s, &s->cur, &m, &k)) {
			s->refused++;
			tx_done(s, &s->cur);
			continue;
		}
		if (k->type == SOCK_UDP) {
			if (!ip_netif_tx_free(udp_netif))
				return; /* net holds every transmit buffer: the message waits */
			udp_send_msg(s, k, &m, s->tx_area + s->cur.offset + sizeof(m));
		} else if (!tcp_send_msg(s, k, &m, s->tx_area + s->cur.offset + sizeof(m))) {
			return; /* waits for acknowledgements: the next pass goes on */
		}
		tx_done(s, &s->cur);
	}
}

static void session_work(struct session *s)
{
	take_messages(s);
	for (unsigned int i = 0; i < IP_SOCKETS_MAX && !s->stopped; i++)
		if (s->socks[i].type != SOCK_FREE)
			hand_over(s, &s->socks[i]);
	if (!s->stopped)
		session_publish(s);
}

void sock_work(void)
{
	for (unsigned int i = 0; i < IP_CLIENTS_MAX; i++)
		if (sessions[i].started && !sessions[i].stopped)
			session_work(&sessions[i]);
}

/* A session may sleep when its client has nothing more queued for ip and, if ip holds
 * something for it, no buffer to put it in (the client signals when it offers one). */
static int session_sleep_ok(struct session *s)
{
	int waiting = 0;

	for (unsigned int i = 0; i < IP_SOCKETS_MAX; i++) {
		struct sock *k = &s->socks[i];

		waiting |= k->pending || k->naccepted || k->connected ||
			   (k->closed && !k->closed_sent) || k->held_head != k->held_tail;
	}
	if (!s->have_cur && !ring_consumer_sleep(&s->tx_ready))
		return 0;
	return !waiting || ring_consumer_sleep(&s->rx_free);
}

int sock_sleep_ok(void)
{
	int ok = 1;

	for (unsigned int i = 0; i < IP_CLIENTS_MAX; i++)
		if (sessions[i].started && !sessions[i].stopped)
			ok &= session_sleep_ok(&sessions[i]);
	return ok;
}

/* --- the calls ----------------------------------------------------------------------------- */

long ip_serve_open(struct tacet_service *svc, unsigned long process)
{
	struct session *s = NULL;
	long err;

	if (svc->badge < 1 || svc->badge > TACET_SESSIONS_MAX)
		return -TACET_EPERM;
	for (unsigned int i = 0; i < IP_CLIENTS_MAX && !s; i++)
		if (!sessions[i].badge || sessions[i].badge == svc->badge)
			s = &sessions[i];
	if (!s)
		return -TACET_ENOMEM;
	err = tacet_session_open(&table, svc->badge, process); /* ends (frees) the one it had */
	if (err)
		return err;
	memset(s, 0, sizeof(*s));
	for (unsigned int j = 0; j < IP_SOCKETS_MAX; j++)
		s->socks[j].owner = s;
	s->badge = svc->badge;
	clients[svc->badge - 1] = s;
	return 0;
}

static size_t frame_bytes(uint64_t capacity, uint64_t buf_size)
{
	return IP_RINGS * ring_bytes((uint32_t)capacity) + 2 * capacity * buf_size;
}

long ip_serve_attach(struct tacet_service *svc, uint64_t capacity, uint64_t buf_size,
		       unsigned long area)
{
	struct session *s = session_of(svc);
	unsigned long rights = 0, pa = 0, pages = 0, va, slot;
	long type = tacet_cap_info(area, &rights, NULL), err;

	if (!s || capacity < 2 || capacity > IP_CAPACITY_MAX || (capacity & (capacity - 1)) ||
	    buf_size < IP_BUF_MIN || buf_size > IP_BUF_MAX || buf_size % 8)
		return s ? -TACET_ERANGE : -TACET_EINVAL;
	if (type != TACET_CAP_FRAME)
		return type < 0 ? type : -TACET_ETYPE;
	if ((rights & (TACET_RIGHT_READ | TACET_RIGHT_WRITE)) !=
	    (TACET_RIGHT_READ | TACET_RIGHT_WRITE))
		return -TACET_EPERM;
	if (s->started || s->va)
		return -TACET_EBUSY;
	if ((err = tacet_frame_info(area, &pa, &pages)))
		return err;
	if (tacet_frame_is_ram(area) != 1)
		return -TACET_ETYPE;
	if (frame_bytes(capacity, buf_size) > pages * TACET_PAGE_SIZE)
		return -TACET_ERANGE;
	/* decoded: now map it */
	if ((err = tacet_service_take_cap(svc)) < 0)
		return err;
	slot = (unsigned long)err;
	va = tacet_va_alloc(pages);
	err = va ? tacet_map(TACET_CHILD_SELF, slot, va, TACET_RIGHT_READ | TACET_RIGHT_WRITE) :
		   -TACET_ENOMEM;
	if (err) {
		if (va)
			tacet_va_free(va, pages);
		tacet_slot_free(slot);
		return err;
	}
	s->frame = slot, s->va = va, s->pages = pages;
	s->capacity = (uint32_t)capacity, s->buf_size = (uint32_t)buf_size;
	return 0;
}

/* The rings set up on this side over the mapped frame, with the sizes agreed at attach. */
static long rings_init(struct session *s)
{
	size_t bytes = ring_bytes(s->capacity);
	uint32_t area = s->capacity * s->buf_size;
	uint8_t *m = (uint8_t *)s->va;
	long err;

	s->tx_area = m + IP_RINGS * bytes;
	s->rx_area = s->tx_area + area;
	err = ring_consumer_init(&s->tx_ready, m + IP_RING_TX_READY * bytes, bytes, s->capacity,
				 area);
	if (!err)
		err = ring_producer_init(&s->tx_done, m + IP_RING_TX_DONE * bytes, bytes,
					 s->capacity, area);
	if (!err)
		err = ring_consumer_init(&s->rx_free, m + IP_RING_RX_FREE * bytes, bytes,
					 s->capacity, area);
	if (!err)
		err = ring_producer_init(&s->rx_used, m + IP_RING_RX_USED * bytes, bytes,
					 s->capacity, area);
	return err;
}

long ip_serve_start(struct tacet_service *svc, uint64_t bits, unsigned long ntfn,
		      unsigned long *peer)
{
	struct session *s = session_of(svc);
	unsigned long info[5]; /* rights first */
	long err = tacet_cap_info_of(ntfn, TACET_CAP_NOTIFICATION, info), reply, slot;

	if (!s || !s->va || !bits || (bits & TACET_NTFN_BIT_RESERVED))
		return -TACET_EINVAL;
	if (err)
		return err; /* not a notification (-TACET_ETYPE), or no capability */
	if (!(info[0] & TACET_RIGHT_WRITE))
		return -TACET_EPERM;
	if (s->started)
		return -TACET_EBUSY;
	if ((reply = tacet_service_reply_slot(svc)) < 0 || (slot = tacet_slot_alloc()) < 0)
		return -TACET_ENOMEM;
	if ((err = rings_init(s)) || (err = tacet_cap_copy(ntfn, (unsigned long)slot,
							     TACET_RIGHT_WRITE, 0))) {
		tacet_slot_free((unsigned long)slot);
		return err;
	}
	err = tacet_cap_copy(ip_ntfn, (unsigned long)reply, TACET_RIGHT_WRITE,
			     SOCK_KICK_BIT(s - sessions));
	if (err) {
		tacet_slot_free((unsigned long)slot);
		return err;
	}
	s->peer = (unsigned long)slot, s->peer_bits = bits;
	s->started = 1;
	*peer = (unsigned long)reply;
	return 0;
}

long ip_serve_socket(struct tacet_service *svc, uint64_t type, uint64_t *id)
{
	struct session *s = session_of(svc);
	struct sock *k;

	if (s && s->stopped)
		return -TACET_EFAULT;
	if (!s || !s->started || (type != IP_SOCK_UDP && type != IP_SOCK_TCP))
		return -TACET_EINVAL;
	if (!(k = sock_alloc(s)))
		return -TACET_ENOMEM;
	if (type == IP_SOCK_UDP) {
		if (!(k->udp = udp_new()))
			return -TACET_ENOMEM;
		k->type = SOCK_UDP;
		udp_recv(k->udp, udp_recv_cb, k);
	} else {
		if (!(k->tcp = tcp_new()))
			return -TACET_ENOMEM;
		k->type = SOCK_TCP;
		tcp_callbacks(k, k->tcp);
	}
	*id = sock_id(k);
	return 0;
}

static long lwip_err(err_t e)
{
	return e == ERR_OK ? 0 : e == ERR_USE ? -TACET_EEXIST : e == ERR_MEM ? -TACET_ENOMEM :
	       e == ERR_RTE ? -TACET_EBUSY : -TACET_EINVAL;
}

long ip_serve_bind(struct tacet_service *svc, uint64_t id, uint64_t addr, uint64_t port)
{
	struct session *s = session_of(svc);
	struct sock *k = sock_of(s, id);
	ip_addr_t a = IPADDR4_INIT(lwip_htonl((u32_t)addr));

	if (s && s->stopped)
		return -TACET_EFAULT;
	if (!k || k->type == SOCK_LISTEN || addr > UINT32_MAX || port > 0xffff)
		return -TACET_EINVAL;
	return lwip_err(k->type == SOCK_UDP ? udp_bind(k->udp, &a, (u16_t)port) :
			k->tcp ? tcp_bind(k->tcp, &a, (u16_t)port) : ERR_CLSD);
}

long ip_serve_listen(struct tacet_service *svc, uint64_t id)
{
	struct session *s = session_of(svc);
	struct sock *k = sock_of(s, id);
	struct tcp_pcb *l;

	if (s && s->stopped)
		return -TACET_EFAULT;
	if (!k || k->type != SOCK_TCP || !k->tcp || k->tcp->state != CLOSED)
		return -TACET_EINVAL;
	if (!(l = tcp_listen(k->tcp))) /* frees the old PCB only on success */
		return -TACET_ENOMEM;
	k->tcp = l;
	k->type = SOCK_LISTEN;
	tcp_arg(l, k);
	tcp_accept(l, tcp_accept_cb);
	return 0;
}

long ip_serve_connect(struct tacet_service *svc, uint64_t id, uint64_t addr, uint64_t port)
{
	struct session *s = session_of(svc);
	struct sock *k = sock_of(s, id);
	ip_addr_t a = IPADDR4_INIT(lwip_htonl((u32_t)addr));

	if (s && s->stopped)
		return -TACET_EFAULT;
	if (!k || k->type == SOCK_LISTEN || !addr || addr > UINT32_MAX || !port || port > 0xffff)
		return -TACET_EINVAL;
	if (k->type == SOCK_UDP)
		return lwip_err(udp_connect(k->udp, &a, (u16_t)port));
	if (!k->tcp || k->tcp->state != CLOSED)
		return -TACET_EINVAL;
	return lwip_err(tcp_connect(k->tcp, &a, (u16_t)port, tcp_connected_cb));
}

long ip_serve_close(struct tacet_service *svc, uint64_t id)
{
	struct session *s = session_of(svc);
	struct sock *k = sock_of(s, id);

	if (s && s->stopped)
		return -TACET_EFAULT;
	if (!k)
		return -TACET_EINVAL;
	if (s->have_cur && s->cur.offset % s->buf_size == 0) { /* a message of it waits: dropped */
		struct ip_msg m;

		memcpy(&m, s->tx_area + s->cur.offset, sizeof(m));
		if (m.sock == id)
			tx_done(s, &s->cur);
	}
	sock_free(k);
	return 0;
}
