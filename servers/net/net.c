/* net: the virtio-net driver (device ID 1: a virtio-mmio transport, init.run=
 * `net=net0:virtio-net#0`, else a virtio-net-pci function claimed from the "pci" server; the
 * kit's virtio_probe picks) and the network device service it publishes under its entry's
 * first name (<tacet/net_proto.h>, decoded by the dispatch generated from lib/proto/net.proto;
 * docs/net.md explains the design). This file is the service: its start and its calls, but
 * the three that report the data path's counts (NET_STATS, NET_ERRORS, NET_QUEUE: pass.c's).
 *
 * Owns the device's queue pairs (a receive and a transmit queue each, QUEUE_SIZE one-descriptor
 * chains a queue: a client's buffer, its NET_HEADROOM bytes of virtio-net header first) and the
 * sessions (lib's <tacet/session.h> table; a session's four rings are in a frame the client
 * granted, mapped here; its two data areas are pinned to the device and never mapped: no frame
 * is copied or read). The receive queue is stocked from one session, the receiver: of the live
 * sessions, one whose client's init.run= entry grants it `[NAME=receive]` (asked with
 * INIT_GRANT), else the earliest started; every session sends. A session whose rings lie is
 * stopped (nothing more taken from it or given to it); an ended or stopped session's areas are
 * unpinned once the device holds none of its buffers (the receiver's receive buffers are taken
 * back at once by a device reset, after which the device holds nothing).
 *
 * The other files: device.c, the device (bring-up, negotiation, the queue pairs and their
 * vectors, the control queue, the reset); pass.c, the data path (a pass over a queue pair,
 * interrupt mitigation, the threads that run passes, the counts); session.c, the sessions'
 * slots and ends; net.h, what they share.
 *
 * Locking (net.h's rule): every call is the main thread's; each takes the lock over what it
 * reads or changes of the sessions, queues and counts. Outside it: NET_INFO (the MAC, set
 * before the loop, and the device's link status), NET_OPEN's question to init and lib's
 * session table (NET_OPEN, NET_CLOSE; ended takes the lock). */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/net_server.h>
#include "net.h"

int busy; /* the lock's word */
static struct tacet_service svc;
static struct tacet_sessions table;
static signed char may_receive[MAX_CLIENTS]; /* badge b's `[NAME=receive]`: 1, 0, -1 not asked */
static uint64_t seqs; /* NET_STARTs so far: a session's seq */

/* --- the calls ------------------------------------------------------------------------------- */

static struct session *session_of(struct tacet_service *s)
{
	return s->badge - 1 < MAX_CLIENTS ? clients[s->badge - 1] : NULL;
}

long net_serve_info(struct tacet_service *s, uint64_t *mac_word, uint64_t *link, uint64_t *mtu)
{
	(void)s;
	*mac_word = 0;
	for (unsigned int i = 0; i < ETH_ALEN; i++)
		*mac_word |= (uint64_t)mac[i] << (8 * i);
	*link = (uint64_t)link_up();
	*mtu = ETH_MTU;
	return 0;
}

long net_serve_open(struct tacet_service *svc, unsigned long process)
{
	struct session *s = NULL;
	long err = tacet_session_open(&table, svc->badge, process); /* may end one: ended() */

	if (err)
		return err;
	if (may_receive[svc->badge - 1] < 0) { /* once a badge: init answers below the drivers */
		char arg[32] = ""; /* tacet_grant: 24 bytes and a NUL */

		may_receive[svc->badge - 1] =
			tacet_grant(tacet_service_name(), svc->badge, arg, sizeof(arg)) == 0 &&
			!strcmp(arg, "receive");
	}
	lock();
	for (unsigned int i = 0; i < MAX_SESSIONS && !s; i++)
		if (!sessions[i].badge)
			s = &sessions[i];
	if (s) {
		*s = (struct session){ .badge = svc->badge, .open = 1,
				       .granted = may_receive[svc->badge - 1] };
		clients[svc->badge - 1] = s;
	}
	unlock();
	if (!s) {
		tacet_session_close(&table, svc->badge);
		return -TACET_ENOMEM;
	}
	return 0;
}

long net_serve_close(struct tacet_service *svc)
{
	return tacet_session_close(&table, svc->badge);
}

/* NET_ATTACH's checks: the frame in `what` may be a session's area of kind `kind` (arg as
 * NET_ATTACH says); its pages into *pages. Changes nothing. */
static long attach_decode(struct session *s, uint64_t kind, uint64_t arg, unsigned long what,
			  unsigned long *pages)
{
	unsigned long rights = 0, pa = 0;
	long type = tacet_cap_info(what, &rights, NULL), err;
	uint64_t bytes;

	if (!s || kind > NET_AREA_TX)
		return -TACET_EINVAL;
	if (type != TACET_CAP_FRAME)
		return type < 0 ? type : -TACET_ETYPE;
	if (s->started)
		return -TACET_EBUSY;
	if ((rights & (TACET_RIGHT_READ | TACET_RIGHT_WRITE)) !=
	    (TACET_RIGHT_READ | TACET_RIGHT_WRITE))
		return -TACET_EPERM;
	if ((err = tacet_frame_info(what, &pa, pages)))
		return err;
	if (tacet_frame_is_ram(what) != 1)
		return -TACET_ETYPE; /* a device's registers (or boot memory): never a buffer */
	bytes = (uint64_t)*pages * TACET_PAGE_SIZE;
	if (kind == NET_AREA_RINGS)
		return arg < 2 || arg > NET_CAPACITY_MAX || (arg & (arg - 1)) ||
		       NET_RINGS * ring_bytes((uint32_t)arg) > bytes ? -TACET_ERANGE : 0;
	return !arg || arg > bytes || arg > UINT32_MAX ? -TACET_ERANGE : 0;
}

/* The rings' frame, mapped here. */
static long attach_rings(struct session *s, uint64_t capacity, unsigned long what,
			 unsigned long pages)
{
	unsigned long slot = 0, va = tacet_va_alloc(pages);
	long err = va ? slot_copy(what, TACET_RIGHT_READ | TACET_RIGHT_WRITE, &slot) :
			-TACET_ENOMEM;

	if (!err)
		err = tacet_map(TACET_CHILD_SELF, slot, va, TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (err) {
		slot_free(&slot);
		if (va)
			tacet_va_free(va, pages);
		return err;
	}
	rings_unmap(s);
	s->rings_slot = slot, s->rings_va = va, s->rings_pages = pages;
	s->capacity = (uint32_t)capacity;
	return 0;
}

/* A data area, pinned to the device for its address: if net ends while the device may write
 * it, it waits in quarantine (docs/drivers.md, "DMA and a driver's death"); unpinned once the
 * device holds none of its buffers (session_free). */
static long attach_area(struct area *a, uint64_t size, unsigned long what)
{
	unsigned long slot = 0, pa = 0, pages = 0;
	long err = slot_copy(what, TACET_RIGHT_READ | TACET_RIGHT_WRITE, &slot);

	if (!err && (err = tacet_frame_pin(slot, dev.frame_slot, &pa, &pages)))
		slot_free(&slot);
	if (err)
		return err;
	area_free(a);
	*a = (struct area){ .slot = slot, .pa = pa, .size = (uint32_t)size };
	return 0;
}

static long attach_locked(struct tacet_service *svc, uint64_t kind, uint64_t arg,
			  unsigned long what)
{
	struct session *s = session_of(svc);
	unsigned long pages = 0;
	long err = attach_decode(s, kind, arg, what, &pages);

	if (err)
		return err;
	if (kind == NET_AREA_RINGS)
		return attach_rings(s, arg, what, pages);
	return attach_area(kind == NET_AREA_RX ? &s->rx : &s->tx, arg, what);
}

long net_serve_attach(struct tacet_service *svc, uint64_t kind, uint64_t arg, unsigned long what)
{
	long err;

	lock();
	err = attach_locked(svc, kind, arg, what);
	unlock();
	return err;
}

/* The four rings set up on this side over the client's frame, with the sizes agreed here. */
static long rings_init(struct session *s)
{
	size_t bytes = ring_bytes(s->capacity);
	uint8_t *m = (uint8_t *)s->rings_va;
	long err = ring_consumer_init(&s->rx_free, m + NET_RING_RX_FREE * bytes, bytes,
				      s->capacity, s->rx.size);

	if (!err)
		err = ring_producer_init(&s->rx_used, m + NET_RING_RX_USED * bytes, bytes,
					 s->capacity, s->rx.size);
	if (!err)
		err = ring_consumer_init(&s->tx_ready, m + NET_RING_TX_READY * bytes, bytes,
					 s->capacity, s->tx.size);
	if (!err)
		err = ring_producer_init(&s->tx_done, m + NET_RING_TX_DONE * bytes, bytes,
					 s->capacity, s->tx.size);
	return err;
}

/* s has just started: if it is now the receiver where another live session's buffers stock the
 * receive queue (s is granted, the other not), the device gives those back (a reset) before
 * the client hears it started, so that no frame sent after that lands in the other's. */
static void displace(struct session *s)
{
	for (unsigned int i = 0; i < MAX_SESSIONS; i++)
		if (&sessions[i] != s && live(&sessions[i]) && sessions[i].at_rx &&
		    receiver() == s) {
			device_reset("a session granted the receiving started");
			return;
		}
}

static long start_locked(struct tacet_service *svc, uint64_t bits, unsigned long ntfn,
			 unsigned long *peer)
{
	struct session *s = session_of(svc);
	unsigned long info[5]; /* rights first */
	long err = tacet_cap_info_of(ntfn, TACET_CAP_NOTIFICATION, info), reply;

	if (!s || !s->rings_va || !s->rx.slot || !s->tx.slot || !bits ||
	    (bits & TACET_NTFN_BIT_RESERVED))
		return -TACET_EINVAL;
	if (err)
		return err; /* not a notification (-TACET_ETYPE), or no capability */
	if (!(info[0] & TACET_RIGHT_WRITE))
		return -TACET_EPERM;
	if (s->started)
		return -TACET_EBUSY;
	if ((reply = tacet_service_reply_slot(svc)) < 0)
		return -TACET_ENOMEM;
	if ((err = rings_init(s)))
		return err;
	if ((err = slot_copy(ntfn, TACET_RIGHT_WRITE, &s->ntfn)))
		return err;
	err = tacet_cap_copy(dev.ntfn_slot, (unsigned long)reply, TACET_RIGHT_WRITE,
			     SESSION_BIT(s - sessions));
	if (err) {
		slot_free(&s->ntfn);
		return err;
	}
	s->bits = bits;
	s->started = 1;
	s->seq = ++seqs;
	*peer = (unsigned long)reply;
	displace(s);
	tacet_signal(dev.ntfn_slot, POLL_BIT); /* a pass takes its receive buffers */
	return 0;
}

/* Defined only by the test build net_refusing (servers/tests/netrefuse.c): an error to answer
 * a NET_START with instead of starting the session (as a faulty instance may), or 0. */
long net_start_refused(void) __attribute__((weak));

long net_serve_start(struct tacet_service *svc, uint64_t bits, unsigned long ntfn,
		     unsigned long *peer)
{
	long err;

	if (net_start_refused && (err = net_start_refused()))
		return err;
	lock();
	err = start_locked(svc, bits, ntfn, peer);
	unlock();
	return err;
}

/* NET_USAGE: after every end signalled before the call (taken first). */
long net_serve_usage(struct tacet_service *s, uint64_t *open, uint64_t *ended_held,
		     uint64_t *slots, uint64_t *nresets)
{
	unsigned int nopen = 0, held = 0;

	tacet_service_drain(s);
	lock();
	if (sweep_due)
		sweep();
	for (unsigned int i = 0; i < MAX_SESSIONS; i++) {
		nopen += sessions[i].badge && sessions[i].open;
		held += sessions[i].badge && !sessions[i].open;
	}
	*open = nopen, *ended_held = held, *slots = client_slots, *nresets = resets;
	unlock();
	return 0;
}

/* --- start ----------------------------------------------------------------------------------- */

int main(void)
{
	const char *step = "", *name = tacet_service_name();
	long err = setup(&step);

	if (err) {
		printf("net: cannot %s: %s%s%s\n", step, tacet_strerror(err), vdev.why ? ": " : "",
		       vdev.why ? vdev.why : "");
		if (vdev.device_id == VIRTIO_ID_NET)
			virtio_fail(&vdev, step);
		return 1;
	}
	memset(may_receive, -1, sizeof(may_receive));
	tacet_slot_pool_add(TACET_CHILD_FIRST_FREE,
			    TACET_CHILD_DEVICE_SLOTS - TACET_CHILD_FIRST_FREE);
	err = tacet_service_open(&svc, *name ? name : "net", TACET_RIGHT_WRITE | TACET_RIGHT_GRANT |
				 INIT_BADGE_CLIENTS, &dev);
	if (!err)
		err = tacet_service_sessions(&svc, &table, NULL, 0, ended);
	if (!err)
		err = tacet_service_run(&svc, net_dispatch, event);
	printf("net: serving failed: %s\n", tacet_strerror(err));
	return 1;
}
