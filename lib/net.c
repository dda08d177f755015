/* net.c: lib's sockets over the IP stack's service "ip" (<tacet/net.h>, <tacet/ip_proto.h>, the
 * stubs generated from lib/proto/ip.proto): one frame this side allocates and grants to ip, its
 * four rings and two areas; calls for set-up, rings for data. Every descriptor and header ip
 * writes is checked (the ring checks indices and bounds; here, that a descriptor is one of this
 * side's buffers and a header's length fits its descriptor). Not thread-safe: one thread per
 * struct tacet_net. */
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/ip_client.h>
#include <tacet/net.h>

#define LOOKUP_TRIES 10000 /* ms for "ip" to be published */
#define OPEN_TRIES   1000  /* lookups that may still reach an ended instance's name, 10 ms apart */
#define HDR          sizeof(struct ip_msg)
#define SEND_WAIT_NS 10000000000ull /* a send waits up to 10 s for a buffer, then -TACET_EBUSY */

static size_t frame_bytes(uint32_t capacity, uint32_t buf_size)
{
	return IP_RINGS * ring_bytes(capacity) + 2 * (size_t)capacity * buf_size;
}

/* The header of the message in the buffer at offset (a multiple of buf_size, so 8-byte aligned:
 * the areas follow the rings, whose sizes are multiples of 8), read once: the peer may change
 * the buffer at any time. Two loads, not a call. */
static struct ip_msg hdr_at(const uint8_t *area, uint32_t offset)
{
	struct ip_msg m;

	__builtin_memcpy(&m, __builtin_assume_aligned(area + offset, 8), HDR);
	return m;
}

static void kick(struct tacet_net *n)
{
	tacet_signal(n->peer, 1); /* the capability's badge says which session */
}

/* The rings formatted and set up on this side, every receive buffer offered, every transmit
 * buffer free. */
static long rings_reset(struct tacet_net *n)
{
	size_t bytes = ring_bytes(n->capacity);
	uint32_t area = n->capacity * n->buf_size;
	uint8_t *m = n->mem.va;
	long err;

	for (unsigned int i = 0; i < IP_RINGS; i++)
		ring_format(m + i * bytes);
	n->tx_area = m + IP_RINGS * bytes;
	n->rx_area = n->tx_area + area;
	err = ring_producer_init(&n->tx_ready, m + IP_RING_TX_READY * bytes, bytes, n->capacity,
				 area);
	if (!err)
		err = ring_consumer_init(&n->tx_done, m + IP_RING_TX_DONE * bytes, bytes,
					 n->capacity, area);
	if (!err)
		err = ring_producer_init(&n->rx_free, m + IP_RING_RX_FREE * bytes, bytes,
					 n->capacity, area);
	if (!err)
		err = ring_consumer_init(&n->rx_used, m + IP_RING_RX_USED * bytes, bytes,
					 n->capacity, area);
	for (uint32_t i = 0; !err && i < n->capacity; i++)
		err = ring_put(&n->rx_free, &(struct ring_desc){ i * n->buf_size, n->buf_size });
	if (!err)
		ring_publish(&n->rx_free);
	for (uint32_t i = 0; i < n->capacity; i++)
		n->tx_free[i] = n->capacity - 1 - i;
	n->tx_nfree = n->capacity;
	n->nheld = n->held_first = 0;
	return err;
}

/* Into `copy` (a slot kept for one exchange): the capability in slot with only `rights`. */
static long copy_into(unsigned long copy, unsigned long slot, unsigned long rights)
{
	tacet_cap_delete(copy);
	return tacet_cap_copy(slot, copy, rights, 0);
}

static long session(struct tacet_net *n)
{
	long copy = tacet_slot_alloc(), err = copy < 0 ? copy : 0;
	unsigned long c = (unsigned long)copy;

	if (!err && !(err = copy_into(c, TACET_CHILD_SELF, 0)))
		err = ip_call_open(n->ep, c);
	if (!err && !(err = copy_into(c, n->mem.slot, TACET_RIGHT_READ | TACET_RIGHT_WRITE)))
		err = ip_call_attach(n->ep, n->capacity, n->buf_size, c);
	if (!err && !(err = copy_into(c, n->ntfn, TACET_RIGHT_WRITE)))
		err = ip_call_start(n->ep, n->bits, c, n->peer);
	if (copy >= 0)
		tacet_slot_free(c);
	return err;
}

/* "ip" looked up and the session opened on it; a name that still reaches an ended instance
 * (init has not withdrawn it yet, or restarts ip) is looked up again. */
static long connect(struct tacet_net *n)
{
	long err = -TACET_EDEAD;

	for (int tries = 0; err == -TACET_EDEAD && tries < OPEN_TRIES; tries++) {
		if (tries)
			tacet_sleep_ns(10000000);
		tacet_cap_delete(n->ep);
		err = tacet_lookup("ip", n->ep, LOOKUP_TRIES);
		if (!err)
			err = session(n);
	}
	return err;
}

long tacet_net_open(struct tacet_net *n, unsigned int capacity, unsigned int buf_size,
		    unsigned long ntfn, unsigned long bits)
{
	long ep, peer, err = 0;

	memset(n, 0, sizeof(*n));
	if (capacity < 2 || capacity > IP_CAPACITY_MAX || (capacity & (capacity - 1)) ||
	    buf_size < IP_BUF_MIN || buf_size > IP_BUF_MAX || buf_size % 8 || !bits ||
	    (bits & TACET_NTFN_BIT_RESERVED))
		return -TACET_EINVAL;
	n->ntfn = ntfn, n->bits = bits, n->capacity = capacity, n->buf_size = buf_size;
	ep = tacet_slot_alloc();
	peer = tacet_slot_alloc();
	n->ep = ep < 0 ? 0 : (unsigned long)ep;
	n->peer = peer < 0 ? 0 : (unsigned long)peer;
	if (ep < 0 || peer < 0)
		err = -TACET_ENOMEM;
	if (!err)
		err = tacet_dma_alloc(frame_bytes(capacity, buf_size), &n->mem);
	if (!err)
		err = rings_reset(n);
	if (!err)
		err = connect(n);
	if (!err)
		err = tacet_endpoint_watch(n->ep, n->ntfn, n->bits);
	if (err)
		tacet_net_close(n);
	return err;
}

void tacet_net_close(struct tacet_net *n)
{
	if (n->ep) {
		tacet_endpoint_watch(n->ep, n->ntfn, 0);
		tacet_slot_free(n->ep);
	}
	if (n->peer)
		tacet_slot_free(n->peer);
	tacet_dma_free(&n->mem); /* ip keeps its mapping until the session ends */
	memset(n, 0, sizeof(*n));
}

/* --- the rings ----------------------------------------------------------------------------- */

/* A transmit buffer back: its socket has one message fewer out; a socket closed here with
 * none left is closed at ip. */
static void sent_back(struct tacet_net *n, uint32_t b)
{
	struct ip_msg m = hdr_at(n->tx_area, b * n->buf_size); /* the header we wrote */

	if (m.sock < 1 || m.sock > IP_SOCKETS_MAX || !n->out[m.sock] || --n->out[m.sock] ||
	    !n->closing[m.sock])
		return;
	n->closing[m.sock] = 0;
	n->nclosing--;
	ip_call_close(n->ep, m.sock);
}

/* Transmit buffers ip gave back. 0, or -TACET_EFAULT. */
static long reclaim(struct tacet_net *n)
{
	struct ring_desc d;
	int r;

	while ((r = ring_get(&n->tx_done, &d)) == 1) {
		if (d.offset % n->buf_size || d.offset / n->buf_size >= n->capacity ||
		    n->tx_nfree == n->capacity)
			return -TACET_EFAULT;
		n->tx_free[n->tx_nfree++] = d.offset / n->buf_size;
		sent_back(n, d.offset / n->buf_size);
	}
	if (ring_release(&n->tx_done))
		kick(n);
	return r < 0 ? -TACET_EFAULT : 0;
}

/* The i-th oldest held message (i < nheld). */
static struct tacet_net_held *held_at(struct tacet_net *n, uint32_t i)
{
	return &n->held[(n->held_first + i) % IP_CAPACITY_MAX];
}

/* A received buffer offered to ip again. 0, or -TACET_EFAULT: rx_free has no slot for it,
 * which ip's side makes impossible (it releases a slot before it hands its buffer over, and
 * there are as many buffers as slots) unless it lies; the buffer is not offered. */
static long give_back(struct tacet_net *n, uint32_t offset)
{
	if (ring_put(&n->rx_free, &(struct ring_desc){ offset, n->buf_size }))
		return -TACET_EFAULT;
	if (ring_publish(&n->rx_free))
		kick(n);
	return 0;
}

/* Received messages into held[], but for no socket of ours (one closed here, which ip sent
 * before it heard of the close; the id may be ip's next connection's by now, announced later
 * in the ring): given back at once. A connection's socket is ours from its announcement. 0,
 * or -TACET_EFAULT. */
static long pull(struct tacet_net *n)
{
	struct ring_desc d;
	int r = 0;

	while (n->nheld < n->capacity && (r = ring_get(&n->rx_used, &d)) == 1) {
		struct ip_msg m;

		if (d.offset % n->buf_size || d.len < HDR || d.len > n->buf_size)
			return -TACET_EFAULT;
		m = hdr_at(n->rx_area, d.offset);
		if (m.len != d.len - HDR)
			return -TACET_EFAULT;
		if (m.sock < 1 || m.sock > IP_SOCKETS_MAX || !n->type[m.sock]) {
			/* ip sent it before the socket's close: given back, its slot released
			 * first (ring.h, "Buffers handed back") */
			if (ring_release(&n->rx_used))
				kick(n);
			if (give_back(n, d.offset))
				return -TACET_EFAULT;
			continue;
		}
		*held_at(n, n->nheld++) = (struct tacet_net_held){ .d = d, .m = m };
		if (m.kind == IP_MSG_ACCEPTED && m.addr >= 1 && m.addr <= IP_SOCKETS_MAX)
			n->type[m.addr] = IP_SOCK_TCP; /* what comes for it next is its own */
	}
	if (ring_release(&n->rx_used))
		kick(n);
	return r < 0 ? -TACET_EFAULT : 0;
}

/* The i-th oldest held message's header (the copy pull took and checked: the buffer is
 * shared, ip may write it any time). */
static struct ip_msg held_msg(struct tacet_net *n, uint32_t i)
{
	return held_at(n, i)->m;
}

/* The i-th oldest held message done: its buffer offered to ip again; the older ones move up a
 * place (none when it is the oldest, the usual case). 0, or give_back's -TACET_EFAULT. */
static long drop_held(struct tacet_net *n, uint32_t i)
{
	uint32_t offset = held_at(n, i)->d.offset;

	for (; i > 0; i--)
		*held_at(n, i) = *held_at(n, i - 1);
	n->held_first = (n->held_first + 1) % IP_CAPACITY_MAX;
	n->nheld--;
	return give_back(n, offset);
}

/* The oldest held message of sock whose kind is in `kinds` (bits 1 << kind), or -1. */
static long find(struct tacet_net *n, long sock, unsigned int kinds)
{
	for (uint32_t i = 0; i < n->nheld; i++) {
		struct ip_msg m = held_msg(n, i);

		if (m.sock == (uint32_t)sock && (kinds & (1u << m.kind)))
			return i;
	}
	return -1;
}

static uint64_t deadline_of(uint64_t timeout_ns)
{
	return timeout_ns ? tacet_time() + tacet_ns_to_ticks(timeout_ns) : 0;
}

/* Sleep until ip signals or the deadline (ticks; 0: none) passes: 0 (look again),
 * -TACET_EBUSY (the deadline passed). tx_only: a free transmit buffer alone is awaited (a send,
 * which takes nothing received: messages waiting in rx_used must not keep it awake, or it
 * spins while ip waits for net); else a received message (and, while sockets wait to be
 * closed, a transmit buffer's return). */
static long wait(struct tacet_net *n, uint64_t deadline, int tx_only)
{
	int rx = tx_only ? 1 : ring_consumer_sleep(&n->rx_used);
	int tx = tx_only || n->nclosing ? ring_consumer_sleep(&n->tx_done) : 1;
	long got;

	if (!rx || !tx)
		return 0; /* something came meanwhile */
	if (deadline) {
		if (tacet_time() >= deadline)
			return -TACET_EBUSY;
		tacet_timer_set(n->ntfn, n->bits, deadline);
	}
	got = tacet_wait(n->ntfn);
	return got < 0 ? got : 0;
}

/* Until a message of sock (0: any socket) of one of `kinds` is held: its index, or an error.
 * A wake-up that brings nothing new may be ip's end (its endpoint's watch): one call tells
 * (-TACET_EDEAD: the session is gone with it; open another). */
static long await(struct tacet_net *n, long sock, unsigned int kinds, uint64_t timeout_ns)
{
	uint64_t deadline = deadline_of(timeout_ns);
	uint32_t had = n->nheld, free = n->tx_nfree;
	uint64_t w[3];
	long i, err;

	/* What is held already answers without a look at the rings (the next call with nothing
	 * held takes the rest): the oldest match stays the oldest whatever comes behind it. Not
	 * while sockets wait to be closed at ip: their buffers' return is what closes them. */
	if (!n->nclosing && (i = sock ? find(n, sock, kinds) : n->nheld ? 0 : -1) >= 0)
		return i;
	for (int woken = 0;; woken = 1) {
		if ((err = pull(n)) || (err = reclaim(n)))
			return err;
		if ((i = sock ? find(n, sock, kinds) : n->nheld ? 0 : -1) >= 0)
			return i;
		if (woken && n->nheld == had && n->tx_nfree == free &&
		    ip_call_info(n->ep, &w[0], &w[1], &w[2]) == -TACET_EDEAD)
			return -TACET_EDEAD;
		had = n->nheld, free = n->tx_nfree;
		if ((err = wait(n, deadline, 0)))
			return err;
	}
}

long tacet_net_ready(struct tacet_net *n, uint64_t timeout_ns)
{
	long i = await(n, 0, ~0u, timeout_ns);

	return i < 0 ? i : (long)held_msg(n, (uint32_t)i).sock;
}

/* --- sockets ------------------------------------------------------------------------------- */

long tacet_net_socket(struct tacet_net *n, int type)
{
	uint64_t id = 0;
	long err = ip_call_socket(n->ep, (uint64_t)type, &id);

	if (err)
		return err;
	if (id < 1 || id > IP_SOCKETS_MAX)
		return -TACET_EFAULT;
	n->type[id] = (uint8_t)type;
	return (long)id;
}

long tacet_net_bind(struct tacet_net *n, long sock, uint32_t addr, uint16_t port)
{
	return ip_call_bind(n->ep, (uint64_t)sock, addr, port);
}

long tacet_net_listen(struct tacet_net *n, long sock)
{
	return ip_call_listen(n->ep, (uint64_t)sock);
}

long tacet_net_accept(struct tacet_net *n, long sock, uint64_t timeout_ns)
{
	long i = await(n, sock, 1u << IP_MSG_ACCEPTED, timeout_ns);
	struct ip_msg m;

	if (i < 0)
		return i;
	m = held_msg(n, (uint32_t)i);
	if (drop_held(n, (uint32_t)i) || m.addr < 1 || m.addr > IP_SOCKETS_MAX)
		return -TACET_EFAULT;
	n->type[m.addr] = IP_SOCK_TCP;
	return (long)m.addr;
}

long tacet_net_connect(struct tacet_net *n, long sock, uint32_t addr, uint16_t port,
		       uint64_t timeout_ns)
{
	long err, i;
	struct ip_msg m;

	if (sock < 1 || sock > IP_SOCKETS_MAX || !n->type[sock])
		return -TACET_EINVAL;
	err = ip_call_connect(n->ep, (uint64_t)sock, addr, port);
	if (err || n->type[sock] == IP_SOCK_UDP) /* UDP: done, no event comes */
		return err;
	i = await(n, sock, 1u << IP_MSG_CONNECTED | 1u << IP_MSG_CLOSED, timeout_ns);
	if (i < 0)
		return i;
	m = held_msg(n, (uint32_t)i);
	if (m.kind == IP_MSG_CLOSED)
		return -TACET_EDEAD; /* kept: a recv says 0 */
	return drop_held(n, (uint32_t)i);
}

long tacet_net_sock_close(struct tacet_net *n, long sock)
{
	long i;

	if (sock < 1 || sock > IP_SOCKETS_MAX || !n->type[sock])
		return ip_call_close(n->ep, (uint64_t)sock); /* ip's answer for no socket */
	while ((i = find(n, sock, ~0u)) >= 0)
		if (drop_held(n, (uint32_t)i))
			return -TACET_EFAULT;
	n->type[sock] = 0;
	if ((i = reclaim(n)))
		return i;
	if (!n->out[sock])
		return ip_call_close(n->ep, (uint64_t)sock);
	n->closing[sock] = 1;
	n->nclosing++;
	return 0;
}

/* Until a transmit buffer is free: 0, or an error. *deadline (ticks) is set from SEND_WAIT_NS
 * at the send's first wait (0 until then). Apart from the send's common case, which finds one. */
static __attribute__((noinline)) long tx_wait(struct tacet_net *n, uint64_t *deadline)
{
	long err;

	while (!n->tx_nfree) {
		if ((err = reclaim(n)))
			return err;
		if (n->tx_nfree)
			break;
		if (!*deadline)
			*deadline = deadline_of(SEND_WAIT_NS);
		if ((err = wait(n, *deadline, 1)))
			return err;
	}
	return 0;
}

/* One message of len payload bytes to sock, in a free transmit buffer. 0, tx_wait's error, or
 * -TACET_EFAULT: tx_ready has no slot for it (ip released too few: it lies). */
static long send_one(struct tacet_net *n, long sock, const void *buf, uint32_t len,
		     uint32_t addr, uint16_t port, uint64_t *deadline)
{
	struct ip_msg m = { .sock = (uint32_t)sock, .kind = IP_MSG_DATA, .port = port,
			    .addr = addr, .len = len };
	uint32_t b;
	long err;

	if (!n->tx_nfree && (err = tx_wait(n, deadline)))
		return err;
	b = n->tx_free[--n->tx_nfree];
	__builtin_memcpy(__builtin_assume_aligned(n->tx_area + b * n->buf_size, 8), &m, HDR);
	memcpy(n->tx_area + b * n->buf_size + HDR, buf, len);
	if (ring_put(&n->tx_ready, &(struct ring_desc){ b * n->buf_size, HDR + len })) {
		n->tx_free[n->tx_nfree++] = b;
		return -TACET_EFAULT;
	}
	n->out[sock]++;
	if (ring_publish(&n->tx_ready))
		kick(n);
	return 0;
}

long tacet_net_send(struct tacet_net *n, long sock, const void *buf, size_t len, uint32_t addr,
		    uint16_t port)
{
	uint64_t deadline = 0;
	uint32_t room = n->buf_size - HDR;
	size_t done = 0;
	long err;

	if (sock < 1 || sock > IP_SOCKETS_MAX || !n->type[sock])
		return -TACET_EINVAL;
	if (n->type[sock] == IP_SOCK_UDP && len > room)
		return -TACET_ERANGE; /* a datagram is one message */
	do {
		uint32_t chunk = (uint32_t)(len - done < room ? len - done : room);

		if ((err = send_one(n, sock, (const uint8_t *)buf + done, chunk, addr, port,
				    &deadline)))
			return err;
		done += chunk;
	} while (done < len);
	return (long)len;
}

long tacet_net_recv(struct tacet_net *n, long sock, void *buf, size_t len, uint64_t timeout_ns,
		    uint32_t *addr, uint16_t *port)
{
	long i;
	struct tacet_net_held *h;
	struct ip_msg m;
	size_t copy;

	if (sock < 1 || sock > IP_SOCKETS_MAX || !n->type[sock])
		return -TACET_EINVAL;
	i = await(n, sock, 1u << IP_MSG_DATA | 1u << IP_MSG_CLOSED, timeout_ns);
	if (i < 0)
		return i;
	h = held_at(n, (uint32_t)i);
	m = held_msg(n, (uint32_t)i);
	if (m.kind == IP_MSG_CLOSED)
		return 0; /* kept, so that every later recv says so too */
	copy = m.len - h->taken < len ? m.len - h->taken : len;
	memcpy(buf, n->rx_area + h->d.offset + HDR + h->taken, copy);
	if (addr)
		*addr = m.addr;
	if (port)
		*port = m.port;
	h->taken += (uint32_t)copy;
	if ((n->type[sock] == IP_SOCK_UDP || h->taken == m.len) && /* a datagram: whole or cut */
	    drop_held(n, (uint32_t)i))
		return -TACET_EFAULT;
	return (long)copy;
}
