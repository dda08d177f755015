/* netdev.c: a network device's client (<tacet/netdev.h>) over the stubs generated from
 * lib/proto/net.proto: the rings' frame and the two areas allocated here and granted to the
 * service, every receive buffer offered at the session's start, transmit buffers lent from a
 * stack of free ones. Everything the service writes into the rings is checked before it is
 * used (the ring checks indices and bounds; this side that a descriptor is one of its buffers).
 * A service that ended is reached again on its next instance over the same areas. Not
 * thread-safe: one thread per struct netdev. */
#include <stdlib.h>
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/net_client.h>
#include <tacet/netdev.h>
#include <tacet/session.h>

#define LOOKUP_TRIES      10000 /* ms for the service to be published */
#define RECONNECT_TRIES   1000  /* lookups that may still reach the ended instance's name */
#define RECONNECT_WAIT_MS 10000 /* for init to publish the next instance's */

static uint32_t round_up_pow2(uint32_t n)
{
	uint32_t c = 2;

	while (c < n)
		c <<= 1;
	return c;
}

/* The ring `which` in the rings' frame. */
static void *ring_mem(struct netdev *nd, unsigned int which)
{
	return (uint8_t *)nd->rings_mem.va + which * ring_bytes(nd->capacity);
}

/* The rings formatted and set up on this side, every receive buffer in rx_free (published: the
 * service reads them at its start) and every transmit buffer free. */
static long rings_reset(struct netdev *nd)
{
	uint32_t rx = nd->nbufs * nd->buf_size, tx = rx;
	size_t bytes = ring_bytes(nd->capacity);
	long err = 0;

	for (unsigned int i = 0; i < NET_RINGS; i++)
		ring_format(ring_mem(nd, i));
	err = ring_producer_init(&nd->rx_free, ring_mem(nd, NET_RING_RX_FREE), bytes,
				 nd->capacity, rx);
	if (!err)
		err = ring_consumer_init(&nd->rx_used, ring_mem(nd, NET_RING_RX_USED), bytes,
					 nd->capacity, rx);
	if (!err)
		err = ring_producer_init(&nd->tx_ready, ring_mem(nd, NET_RING_TX_READY), bytes,
					 nd->capacity, tx);
	if (!err)
		err = ring_consumer_init(&nd->tx_done, ring_mem(nd, NET_RING_TX_DONE), bytes,
					 nd->capacity, tx);
	for (uint32_t i = 0; !err && i < nd->nbufs; i++)
		err = ring_put(&nd->rx_free,
			       &(struct ring_desc){ i * nd->buf_size + NETDEV_FRAME_OFFSET,
						    nd->buf_size - NETDEV_FRAME_OFFSET });
	if (!err)
		ring_publish(&nd->rx_free);
	for (uint32_t i = 0; i < nd->nbufs; i++)
		nd->tx_stack[i] = nd->nbufs - 1 - i;
	nd->tx_nfree = nd->nbufs;
	nd->epoch++; /* every buffer back on this side: one lent before is no longer lent */
	return err;
}

/* Into `copy` (a slot kept for one exchange): the capability in slot with only `rights`. */
static long copy_into(unsigned long copy, unsigned long slot, unsigned long rights)
{
	tacet_cap_delete(copy);
	return tacet_cap_copy(slot, copy, rights, 0);
}

/* The session on the service nd->ep reaches, over the areas as rings_reset left them. */
static long session(struct netdev *nd)
{
	const unsigned long rw = TACET_RIGHT_READ | TACET_RIGHT_WRITE;
	long copy = tacet_slot_alloc(), err = copy < 0 ? copy : 0;
	unsigned long c = (unsigned long)copy, area = nd->nbufs * nd->buf_size;

	if (!err && !(err = copy_into(c, TACET_CHILD_SELF, 0)))
		err = net_call_open(nd->ep, c);
	if (!err && !(err = copy_into(c, nd->rings_mem.slot, rw)))
		err = net_call_attach(nd->ep, NET_AREA_RINGS, nd->capacity, c);
	if (!err && !(err = copy_into(c, nd->rx_mem.slot, rw)))
		err = net_call_attach(nd->ep, NET_AREA_RX, area, c);
	if (!err && !(err = copy_into(c, nd->tx_mem.slot, rw)))
		err = net_call_attach(nd->ep, NET_AREA_TX, area, c);
	if (!err && !(err = copy_into(c, nd->ntfn, TACET_RIGHT_WRITE))) {
		tacet_cap_delete(nd->peer);
		err = net_call_start(nd->ep, nd->bits, c, nd->peer);
	}
	if (copy >= 0)
		tacet_slot_free(c);
	if (!err)
		err = tacet_endpoint_watch(nd->ep, nd->ntfn, nd->bits | NETDEV_WATCH_BIT);
	return err;
}

long netdev_info(struct netdev *nd)
{
	uint64_t mac = 0, link = 0, mtu = 0;
	long err = net_call_info(nd->ep, &mac, &link, &mtu);

	if (err)
		return err;
	for (unsigned int i = 0; i < ETH_ALEN; i++)
		nd->mac[i] = (uint8_t)(mac >> (8 * i));
	nd->link = link != 0;
	nd->mtu = (unsigned int)mtu;
	return 0;
}

long netdev_open(struct netdev *nd, const char *name, unsigned int nbufs, unsigned int buf_size,
		 unsigned long ntfn, unsigned long bits)
{
	long ep, peer, err = 0;
	unsigned long area = (unsigned long)nbufs * buf_size;

	memset(nd, 0, sizeof(*nd));
	if (!nbufs || nbufs > NET_CAPACITY_MAX || buf_size < NETDEV_BUF_MIN || buf_size % 8 ||
	    !bits || (bits & TACET_NTFN_BIT_RESERVED) || strlen(name) >= NETDEV_NAME_MAX ||
	    area > TACET_FRAME_MAX_PAGES * TACET_PAGE_SIZE)
		return -TACET_EINVAL;
	strcpy(nd->name, name);
	nd->ntfn = ntfn, nd->bits = bits, nd->nbufs = nbufs, nd->buf_size = buf_size;
	nd->capacity = round_up_pow2(nbufs);
	ep = tacet_slot_alloc();
	peer = tacet_slot_alloc();
	nd->ep = ep < 0 ? 0 : (unsigned long)ep;
	nd->peer = peer < 0 ? 0 : (unsigned long)peer;
	nd->tx_stack = malloc(nbufs * sizeof(*nd->tx_stack));
	if (ep < 0 || peer < 0 || !nd->tx_stack)
		err = -TACET_ENOMEM;
	if (!err) /* the notification reconnect's pauses sleep on, made now: not at a reconnect */
		err = tacet_sleep_ns(0);
	if (!err)
		err = tacet_lookup_instance(name, nd->ep, LOOKUP_TRIES, &nd->instance);
	if (!err)
		err = netdev_info(nd);
	if (!err)
		err = tacet_dma_alloc(NET_RINGS * ring_bytes(nd->capacity), &nd->rings_mem);
	if (!err)
		err = tacet_dma_alloc(area, &nd->rx_mem);
	if (!err)
		err = tacet_dma_alloc(area, &nd->tx_mem);
	if (!err)
		err = rings_reset(nd);
	if (!err)
		err = session(nd);
	if (err)
		netdev_close(nd);
	return err;
}

void netdev_close(struct netdev *nd)
{
	if (nd->ep) {
		tacet_endpoint_watch(nd->ep, nd->ntfn, 0);
		net_call_close(nd->ep); /* net keeps the areas until its device is done with them */
		tacet_slot_free(nd->ep);
	}
	if (nd->peer)
		tacet_slot_free(nd->peer);
	tacet_dma_free(&nd->rings_mem);
	tacet_dma_free(&nd->rx_mem);
	tacet_dma_free(&nd->tx_mem);
	free(nd->tx_stack);
	memset(nd, 0, sizeof(*nd));
}

/* The instance nd->ep reaches refused the session (err, not its end): watched all the same, so
 * that its end wakes the caller, whose next netdev_poll then reaches the instance after it. A
 * faulty instance may refuse every session while it answers everything else; only its end
 * (its supervisor's, on a client's report) brings the next one. err, or -TACET_EDEAD if it has
 * ended already. */
static long refused(struct netdev *nd, long err)
{
	long w = tacet_endpoint_watch(nd->ep, nd->ntfn, nd->bits | NETDEV_WATCH_BIT);

	return w == -TACET_EDEAD ? -TACET_EDEAD : err;
}

/* The service ended: reach its next instance (init restarts it once the device is reset) and
 * open the session again over the same areas, everything offered again. 0, or why not (an
 * instance that refused the session stays watched: refused). */
static long reconnect(struct netdev *nd)
{
	unsigned long was = nd->instance;
	long err = -TACET_EDEAD;

	for (int tries = 0; err == -TACET_EDEAD && tries < RECONNECT_TRIES; tries++) {
		err = tacet_reconnect_instance(nd->name, nd->ep, RECONNECT_WAIT_MS, &nd->instance);
		if (!err && nd->instance == was) { /* its name not withdrawn yet */
			err = -TACET_EDEAD;
			tacet_sleep_ns(1000000);
			continue;
		}
		if (!err)
			err = rings_reset(nd);
		if (!err && (err = session(nd)) && err != -TACET_EDEAD)
			err = refused(nd, err);
	}
	nd->reconnects += !err;
	return err;
}

/* Signal net (its notification, badged for the session). */
static void kick(struct netdev *nd)
{
	tacet_signal(nd->peer, 1);
}

/* Buffer number of the frame at `offset` of an area, or -1 if it is no buffer's frame. */
static long buffer_of(const struct netdev *nd, uint32_t offset)
{
	if (offset < NETDEV_FRAME_OFFSET || (offset - NETDEV_FRAME_OFFSET) % nd->buf_size)
		return -1;
	offset = (offset - NETDEV_FRAME_OFFSET) / nd->buf_size;
	return offset < nd->nbufs ? (long)offset : -1;
}

typedef uint16_t __attribute__((may_alias)) word16_t;
typedef uint64_t __attribute__((may_alias)) word64_t;
_Static_assert(NETDEV_FRAME_OFFSET == 18 && NET_HEADROOM == 12,
	       "headroom_clear: the header at bytes 6..17 of an 8-aligned buffer");

/* The virtio-net header in a transmit frame's headroom zeroed: no offload asked (net reads no
 * frame data). A buffer is 8-aligned (the area is page-aligned, buf_size a multiple of 8), so
 * the header's 12 bytes are three aligned stores, where memset's alignment-blind bytes took 12. */
static void headroom_clear(void *frame)
{
	uint8_t *buf = (uint8_t *)frame - NETDEV_FRAME_OFFSET;

	*(word16_t *)(buf + 6) = 0;
	*(word64_t *)(buf + 8) = 0;
	*(word16_t *)(buf + 16) = 0;
}

void *netdev_tx_buf(struct netdev *nd)
{
	if (!nd->tx_nfree)
		return NULL;
	return (uint8_t *)nd->tx_mem.va + nd->tx_stack[--nd->tx_nfree] * nd->buf_size +
	       NETDEV_FRAME_OFFSET;
}

long netdev_tx_send(struct netdev *nd, void *frame, unsigned int len)
{
	unsigned long off = (unsigned long)((uint8_t *)frame - (uint8_t *)nd->tx_mem.va);
	int r;

	if ((uint8_t *)frame < (uint8_t *)nd->tx_mem.va || buffer_of(nd, (uint32_t)off) < 0 ||
	    off > UINT32_MAX || len < NET_FRAME_MIN || len > NET_FRAME_MAX ||
	    len > NETDEV_FRAME_ROOM(nd))
		return -TACET_EINVAL;
	headroom_clear(frame);
	r = ring_put(&nd->tx_ready, &(struct ring_desc){ (uint32_t)off, len });
	if (r < 0)
		return -TACET_EFAULT; /* net's head is garbage (never full: a slot a buffer) */
	if (ring_publish(&nd->tx_ready))
		kick(nd);
	nd->tx_frames++;
	return 0;
}

long netdev_tx_unused(struct netdev *nd, void *frame)
{
	unsigned long off = (unsigned long)((uint8_t *)frame - (uint8_t *)nd->tx_mem.va);
	long b = (uint8_t *)frame < (uint8_t *)nd->tx_mem.va || off > UINT32_MAX ? -1 :
		 buffer_of(nd, (uint32_t)off);

	if (b < 0 || nd->tx_nfree == nd->nbufs)
		return -TACET_EINVAL;
	nd->tx_stack[nd->tx_nfree++] = (uint32_t)b;
	return 0;
}

long netdev_tx(struct netdev *nd, const void *data, unsigned int len)
{
	void *frame;
	long err;

	if (len < NET_FRAME_MIN || len > NET_FRAME_MAX || len > NETDEV_FRAME_ROOM(nd))
		return -TACET_EINVAL;
	frame = netdev_tx_buf(nd);
	if (!frame)
		return -TACET_EBUSY;
	memcpy(frame, data, len);
	err = netdev_tx_send(nd, frame, len);
	if (err)
		netdev_tx_unused(nd, frame);
	return err;
}

long netdev_rx(struct netdev *nd, void **frame, unsigned int *len)
{
	struct ring_desc d;
	int r;

	while ((r = ring_get(&nd->rx_used, &d)) == 1) {
		if (buffer_of(nd, d.offset) < 0 || d.len > nd->buf_size - NETDEV_FRAME_OFFSET)
			return -TACET_EFAULT; /* net's side is garbage */
		if (ring_release(&nd->rx_used))
			kick(nd); /* net waited for room to hand frames over */
		*frame = (uint8_t *)nd->rx_mem.va + d.offset;
		if (!d.len) { /* a buffer given back empty: offered again */
			r = (int)netdev_rx_done(nd, *frame);
			if (r < 0)
				return r;
			continue;
		}
		*len = d.len;
		nd->rx_frames++;
		return 1;
	}
	return r < 0 ? -TACET_EFAULT : 0; /* a refused index or descriptor: counted by the ring */
}

long netdev_rx_done(struct netdev *nd, void *frame)
{
	unsigned long off = (unsigned long)((uint8_t *)frame - (uint8_t *)nd->rx_mem.va);

	if ((uint8_t *)frame < (uint8_t *)nd->rx_mem.va || off > UINT32_MAX ||
	    buffer_of(nd, (uint32_t)off) < 0)
		return -TACET_EINVAL;
	if (ring_put(&nd->rx_free, &(struct ring_desc){ (uint32_t)off,
							nd->buf_size - NETDEV_FRAME_OFFSET }) < 0)
		return -TACET_EFAULT;
	if (ring_publish(&nd->rx_free))
		kick(nd);
	return 0;
}

/* Has net published frames not yet taken (the tail, bytes 0..3 of the ring's header, read
 * once; <tacet/ring.h>)? */
static int rx_waiting(const struct netdev *nd)
{
	return *(volatile uint32_t *)nd->rx_used.shared != nd->rx_used.own;
}

_Static_assert(!(NETDEV_WATCH_BIT & (TACET_SESSION_BITS | TACET_NTFN_BIT_RESERVED)),
	       "the watch's bit is none of the session table's, nor the kernel's");

long netdev_poll(struct netdev *nd, unsigned long bits)
{
	struct ring_desc d;
	long n = 0, b, err;
	int r;

	while ((r = ring_get(&nd->tx_done, &d)) == 1) {
		b = buffer_of(nd, d.offset);
		if (b < 0 || nd->tx_nfree == nd->nbufs)
			return -TACET_EFAULT;
		nd->tx_stack[nd->tx_nfree++] = (uint32_t)b;
		n++;
	}
	if (r < 0)
		return -TACET_EFAULT;
	if (n && ring_release(&nd->tx_done))
		kick(nd);
	if (!(bits & NETDEV_WATCH_BIT) && (!(bits & nd->bits) || n || rx_waiting(nd)))
		return n;
	/* the watch's bit (whatever else came with it), or woken with nothing new: the service's
	 * end, a timeout, or a signal of no consequence; one call tells */
	err = netdev_info(nd);
	if (err == -TACET_EDEAD)
		err = reconnect(nd);
	return err < 0 ? err : n;
}

int netdev_sleep_ok(struct netdev *nd)
{
	int rx = ring_consumer_sleep(&nd->rx_used);
	int tx = nd->tx_nfree ? 1 : ring_consumer_sleep(&nd->tx_done);

	return rx && tx;
}

int netdev_tx_sleep_ok(struct netdev *nd)
{
	return !nd->tx_nfree && ring_consumer_sleep(&nd->tx_done);
}

long netdev_wait_ready(struct netdev *nd, int want_tx, uint64_t timeout_ns)
{
	uint64_t deadline = timeout_ns ? tacet_time() + tacet_ns_to_ticks(timeout_ns) : 0;
	long bits, err;

	for (;;) {
		err = netdev_poll(nd, 0);
		if (err < 0)
			return err;
		if (rx_waiting(nd) || (want_tx && nd->tx_nfree))
			return 1;
		if (deadline && tacet_time() >= deadline)
			return 0;
		if (!netdev_sleep_ok(nd))
			continue;
		if (deadline)
			tacet_timer_set(nd->ntfn, nd->bits, deadline);
		bits = tacet_wait(nd->ntfn);
		if (bits < 0)
			return bits;
		err = netdev_poll(nd, (unsigned long)bits);
		if (err < 0)
			return err;
	}
}
