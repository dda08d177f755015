/* blk: the virtio-blk driver (device ID 2: init.run= `blk:virtio-blk` over virtio-mmio, or `blk`
 * alone beside the pci server for a virtio-blk-pci function: virtio_probe) and the "blk" service
 * (<tacet/blk_proto.h>, its decoding generated from lib/proto/blk.proto: blk_dispatch calls
 * blk_serve_*; docs/virtio.md, "The block service", explains the design). Owns the device's one
 * virtqueue (QUEUE_SIZE descriptors; a request is a chain of three: the header in this server's
 * DMA page, the data and the status byte in the client's frame), MAX_REQS request slots shared
 * fairly among the sessions, and the sessions (lib's <tacet/session.h>: one ends with its
 * client's process, a BLK_CLOSE or a new BLK_OPEN; its frame is kept until the device is done
 * with it). A call queues its request and is answered at once; the interrupt (the transport's
 * interrupt status cleared, used ring drained, then the line acknowledged) completes requests,
 * each as its id's bit on its session's notification. A failing device (NEEDS_RESET, a used ring
 * it broke, a request in flight REQ_TIMEOUT_NS: the watchdog) is reset, and every request in
 * flight completes with its status byte as the client left it (an I/O error). Only RAM frames
 * are DMA buffers (tacet_frame_is_ram). Locking: none; one thread does everything (the kit's
 * loop takes the calls and the interrupts). Prints only through the kernel's debug output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tacet.h>
#include <tacet/blk_server.h>
#include <tacet/init_proto.h>
#include <tacet/virtio.h>

#define QUEUE_SIZE   128 /* the most one page takes */
#define MAX_REQS     BLK_MAX_REQS /* in flight, all clients: three descriptors each */
#define MAX_CLIENTS  TACET_SESSIONS_MAX /* badges 1..32: init's server number + 1 */
/* open ones (one a client) and ended ones the device still holds (one request each at least) */
#define MAX_SESSIONS (MAX_CLIENTS + MAX_REQS)
#define REQ_TIMEOUT_NS 5000000000ull /* a request in flight this long: the device is stuck */
#define WATCHDOG_BIT     (1ul << 62) /* above the sessions' bits */
#define FEATURES (VIRTIO_FEATURE(VIRTIO_F_EVENT_IDX) | VIRTIO_FEATURE(VIRTIO_BLK_F_RO) | \
		  VIRTIO_FEATURE(VIRTIO_BLK_F_FLUSH))

/* virtio-blk (virtio 1.x, "Block Device"). */
#define VIRTIO_BLK_F_RO    5
#define VIRTIO_BLK_F_FLUSH 9
#define VIRTIO_BLK_T_IN    0
#define VIRTIO_BLK_T_OUT   1
#define VIRTIO_BLK_T_FLUSH 4
#define CONFIG_CAPACITY    0 /* u64, in 512-byte sectors */

struct blk_header {
	uint32_t type, reserved;
	uint64_t sector;
};

/* Defined only by the test build blk_trusting (servers/tests/blktrusting.c), which takes any
 * frame, so that the blk-device-reset case can break the device and see it reset. */
int blk_trusts_any_frame(void) __attribute__((weak));
/* Defined only by the test build blk_dying (servers/tests/blkdying.c): told how many requests
 * the device holds after each submission, it faults at 16, so that the driver dies with DMA in
 * flight. */
void blk_in_flight(unsigned int n) __attribute__((weak));

struct client { /* one a badge */
	struct session *open;   /* its session, NULL if none is open (lib's table's open one) */
	unsigned int in_flight; /* its requests at the device, every session of it */
	int retry;              /* refused with nothing in flight: BLK_RETRY_BIT at a completion */
	int granted;            /* first and sectors hold its grant (asked once) */
	uint64_t first, sectors; /* the sectors it may read and write */
};

struct session {
	struct client *c;          /* NULL: free */
	int open;                  /* 0: ended, its requests still at the device */
	unsigned long frame, ntfn; /* slots (0: none given) */
	uint64_t pa, bytes, status; /* the frame; the offset of its status area */
	unsigned int shift;        /* request id i completes as bit shift + i */
	uint32_t busy;             /* ids in flight */
	unsigned int in_flight;
};

struct request {
	struct session *s; /* NULL: free */
	unsigned int id;
	uint64_t since;    /* timebase ticks at submission (the watchdog) */
};

static struct tacet_device dev;
static struct tacet_service svc;
static struct tacet_sessions table; /* no state: a badge's is its struct client */
static struct virtio_device vdev;
static struct virtq queue;
static void *rings_va; /* the queue's memory, laid out again after a reset */
static uint64_t rings_pa;
static struct tacet_dma headers; /* MAX_REQS headers */
static struct request reqs[MAX_REQS];
static struct client clients[MAX_CLIENTS];
static struct session sessions[MAX_SESSIONS];
static unsigned int client_slots, nopen, in_flight, resets;
static int watchdog_armed;
static uint64_t capacity, completed, irqs, most; /* most: in flight at once */

#define has(bit) (!!(vdev.features & VIRTIO_FEATURE(bit)))

/* --- capability slots for what clients give: lib's pool, counted (BLK_USAGE) ------------- */

static long slot_alloc(void)
{
	long slot = tacet_slot_alloc();

	client_slots += slot >= 0;
	return slot;
}

static void slot_free(unsigned long *slot)
{
	if (!*slot)
		return;
	client_slots--;
	tacet_slot_free(*slot);
	*slot = 0;
}

/* --- sessions -------------------------------------------------------------------------------- */

/* A client's data frame, nothing of it in flight: the disk is done with it (unpinned), then
 * the slot goes. */
static void frame_free(unsigned long *slot)
{
	if (*slot)
		tacet_frame_unpin(*slot, tacet_dma_device_slot());
	slot_free(slot);
}

/* A session with nothing in flight and no client any more: everything back. */
static void session_free(struct session *s)
{
	frame_free(&s->frame);
	slot_free(&s->ntfn);
	*s = (struct session){ 0 };
}

/* End s: no more bits for it (its notification goes now), its frame once the device is done
 * with what it still holds there. */
static void session_end(struct session *s)
{
	struct client *c = s->c;

	c->open = NULL;
	nopen--;
	s->open = 0;
	slot_free(&s->ntfn);
	if (!s->in_flight)
		session_free(s);
}

/* A request of s is off the device: its id free, its client told (if the session is open),
 * a client waiting for room told it may try again. */
static void request_done(struct request *r)
{
	struct session *s = r->s;
	struct client *c = s->c;

	s->busy &= ~(1u << r->id); /* free before the client hears: it may reuse it */
	s->in_flight--, c->in_flight--, in_flight--;
	completed++;
	if (s->open)
		tacet_signal(s->ntfn, 1ul << (s->shift + r->id));
	else if (!s->in_flight)
		session_free(s);
	r->s = NULL;
	for (unsigned int i = 0; i < MAX_CLIENTS; i++) {
		if (!clients[i].retry)
			continue;
		clients[i].retry = 0;
		if (clients[i].open && clients[i].open->ntfn)
			tacet_signal(clients[i].open->ntfn, BLK_RETRY_BIT(clients[i].open->shift));
	}
}

/* --- the device ------------------------------------------------------------------------------ */

/* Reset the device and set it up again as setup() did; every request in flight completes,
 * its status byte as the device left it (or, if it wrote none, as the client did: an I/O
 * error to lib), and its frame goes back to its session: the device holds nothing after a
 * reset. Gives up (exit: init may restart blk) if the device will not come back. */
static void device_reset(const char *why)
{
	long err;

	printf("blk: the device %s; resetting it, and answering the %u requests in flight\n", why,
	       in_flight);
	resets++;
	err = virtio_negotiate(&vdev, FEATURES);
	if (!err)
		err = virtq_init(&queue, QUEUE_SIZE, rings_va, rings_pa, has(VIRTIO_F_EVENT_IDX));
	if (!err)
		err = virtio_queue_attach(&vdev, 0, &queue);
	if (err) {
		printf("blk: the device did not come back from its reset: %s%s%s; stopping\n",
		       tacet_strerror(err), vdev.why ? ": " : "", vdev.why ? vdev.why : "");
		virtio_fail(&vdev, "reset failed");
		exit(1);
	}
	virtio_driver_ok(&vdev);
	for (unsigned int r = 0; r < MAX_REQS; r++)
		if (reqs[r].s)
			request_done(&reqs[r]);
}

/* The watchdog: armed while anything is in flight, at the oldest request's deadline. */
static void watchdog(int fired)
{
	uint64_t oldest = 0, now = tacet_time(), limit = tacet_ns_to_ticks(REQ_TIMEOUT_NS);

	if (fired)
		watchdog_armed = 0;
	if (watchdog_armed)
		return;
	for (unsigned int r = 0; r < MAX_REQS; r++)
		if (reqs[r].s && (!oldest || reqs[r].since < oldest))
			oldest = reqs[r].since;
	if (!oldest)
		return;
	if (now - oldest >= limit) {
		device_reset("left a request unanswered for 5 s");
		return;
	}
	watchdog_armed = tacet_timer_set(dev.ntfn_slot, WATCHDOG_BIT, oldest + limit) == 0;
}

/* Badge's session ended (lib's table: its process ended, BLK_CLOSE, or a new BLK_OPEN). */
static void ended(struct tacet_sessions *t, unsigned long badge, void *state)
{
	struct client *c = &clients[badge - 1];

	(void)t, (void)state;
	c->retry = 0;
	if (c->open)
		session_end(c->open);
}

/* The device's notification: the line fired (clear the device's status, complete what is used,
 * then unmask the line), or the watchdog's timer. */
static void event(struct tacet_device *d, long ev)
{
	uint32_t status;
	struct request *r;

	if (!(ev & TACET_DEVICE_IRQ)) {
		if ((unsigned long)ev & WATCHDOG_BIT)
			watchdog(1);
		return;
	}
	status = virtio_interrupt_ack(&vdev);
	while ((r = virtq_get(&queue, NULL)))
		request_done(r);
	irqs += status != 0;
	tacet_device_ack(d, status != 0);
	if (queue.broken)
		device_reset("returned a buffer it was not given");
	else if ((status & VIRTIO_INT_CONFIG) &&
		 (virtio_status(&vdev) & VIRTIO_STATUS_NEEDS_RESET))
		device_reset("needs a reset (NEEDS_RESET)"); /* it says so with a config change */
}

/* --- the calls ------------------------------------------------------------------------------- */

/* "FIRST-LAST" (inclusive) or "FIRST-" (to the end): the range; else nothing. */
static void parse_grant(const char *arg, struct client *c)
{
	char *end;
	unsigned long long first = strtoull(arg, &end, 10), last = capacity - 1;

	if (end == arg || *end != '-' || !capacity)
		return;
	arg = end + 1;
	if (*arg) {
		last = strtoull(arg, &end, 10);
		if (end == arg || *end)
			return;
	}
	if (first > last || first >= capacity)
		return;
	c->first = first;
	c->sectors = (last < capacity ? last : capacity - 1) - first + 1;
}

/* The calling client (its badge's), NULL for a badge out of range. */
static struct client *client_of(struct tacet_service *s)
{
	return s->badge - 1 < MAX_CLIENTS ? &clients[s->badge - 1] : NULL;
}

/* BLK_OPEN: lib's table opens the session (ending the one before) and watches the process. */
long blk_serve_open(struct tacet_service *svc, unsigned long process, uint64_t *first,
		    uint64_t *sectors)
{
	struct client *c = client_of(svc);
	struct session *s = NULL;
	char arg[32];
	long err = tacet_session_open(&table, svc->badge, process);

	if (err)
		return err;
	if (!c->granted) { /* once a badge: init's service thread answers below the drivers */
		c->granted = 1;
		if (tacet_grant("blk", svc->badge, arg, sizeof(arg)) == 0)
			parse_grant(arg, c);
	}
	for (unsigned int i = 0; i < MAX_SESSIONS && !s; i++)
		if (!sessions[i].c)
			s = &sessions[i];
	if (!s) {
		tacet_session_close(&table, svc->badge);
		return -TACET_ENOMEM;
	}
	*s = (struct session){ .c = c, .open = 1 };
	c->open = s;
	nopen++;
	*first = c->first;
	*sectors = c->sectors;
	return 0;
}

long blk_serve_close(struct tacet_service *svc)
{
	return tacet_session_close(&table, svc->badge);
}

/* BLK_ATTACH: the frame or the notification that came with the call, kept in its session. */
long blk_serve_attach(struct tacet_service *svc, uint64_t arg, unsigned long what)
{
	unsigned long rights = 0, pa = 0, pages = 0, *keep;
	long type = tacet_cap_info(what, &rights, NULL), slot, err;
	int frame = type == TACET_CAP_FRAME;
	struct client *c = client_of(svc);
	struct session *s = c ? c->open : NULL;

	if (type != TACET_CAP_FRAME && type != TACET_CAP_NOTIFICATION)
		return type < 0 ? type : -TACET_ETYPE;
	if (!s)
		return -TACET_EINVAL;
	if (s->busy)
		return -TACET_EBUSY;
	if ((rights & TACET_RIGHT_WRITE) == 0 || (frame && !(rights & TACET_RIGHT_READ)))
		return -TACET_EPERM;
	if (frame && (err = tacet_frame_info(what, &pa, &pages))) /* its size (pa: below) */
		return err;
	if (frame && tacet_frame_is_ram(what) != 1 && !(blk_trusts_any_frame &&
							      blk_trusts_any_frame()))
		return -TACET_ETYPE; /* a device's registers (or boot memory): never a DMA buffer */
	if (frame ? arg > pages * TACET_PAGE_SIZE - BLK_IDS : arg > 62 - BLK_IDS)
		return -TACET_ERANGE;
	slot = slot_alloc(); /* a copy that keeps only the rights the service uses */
	if (slot >= 0 && (err = tacet_cap_copy(what, (unsigned long)slot,
					       frame ? TACET_RIGHT_READ | TACET_RIGHT_WRITE :
						       TACET_RIGHT_WRITE, 0))) {
		unsigned long taken = (unsigned long)slot;

		slot_free(&taken);
	}
	/* pinned to the disk for its address: if blk ends while the disk may write it, it waits
	 * in quarantine (docs/drivers.md, "DMA and a driver's death"); unpinned once nothing of it
	 * is in flight (frame_free) */
	if (slot >= 0 && !err && frame &&
	    (err = tacet_frame_pin((unsigned long)slot, tacet_dma_device_slot(), &pa, &pages))) {
		unsigned long taken = (unsigned long)slot;

		slot_free(&taken);
	}
	if (slot < 0 || err)
		return slot < 0 ? -TACET_ENOMEM : err;
	keep = frame ? &s->frame : &s->ntfn;
	if (frame)
		frame_free(keep); /* the one it attached before */
	else
		slot_free(keep);
	*keep = (unsigned long)slot;
	if (frame)
		s->pa = pa, s->bytes = pages * TACET_PAGE_SIZE, s->status = arg;
	else
		s->shift = (unsigned int)arg;
	return 0;
}

/* Room for one more request of c: under its share, and not the slot kept for an open session
 * that has nothing in flight. */
static int room_for(const struct client *c)
{
	unsigned int share = MAX_REQS / (nopen ? nopen : 1), kept = 0;

	if (share > BLK_IDS)
		share = BLK_IDS;
	for (unsigned int i = 0; i < MAX_CLIENTS; i++)
		kept += &clients[i] != c && clients[i].open && !clients[i].in_flight;
	return c->in_flight < share && MAX_REQS - in_flight > kept;
}

/* BLK_READ / BLK_WRITE / BLK_FLUSH: check the request, then queue it. */
static long submit(struct client *c, uint32_t type, uint64_t sector, uint64_t count,
		   uint64_t offset, uint64_t id)
{
	uint32_t len = type == VIRTIO_BLK_T_FLUSH ? 0 : (uint32_t)(count * BLK_SECTOR);
	struct session *s = c ? c->open : NULL;
	struct virtq_buf b[3];
	unsigned int n = 0, r;

	if (!s || !s->frame || !s->ntfn || id >= BLK_IDS)
		return -TACET_EINVAL;
	if (type != VIRTIO_BLK_T_FLUSH) {
		if (!count || offset % BLK_SECTOR)
			return -TACET_EINVAL;
		if (sector >= capacity || count > capacity - sector || offset >= s->bytes ||
		    count > (s->bytes - offset) / BLK_SECTOR)
			return -TACET_ERANGE;
		if (sector < c->first || sector - c->first >= c->sectors ||
		    count > c->sectors - (sector - c->first))
			return -TACET_EPERM; /* not its sectors */
		if (type == VIRTIO_BLK_T_OUT && has(VIRTIO_BLK_F_RO))
			return -TACET_EPERM;
	} else if (!has(VIRTIO_BLK_F_FLUSH)) {
		return BLK_DONE; /* without the feature the device writes through */
	}
	if (s->busy & (1u << id))
		return -TACET_EBUSY;
	if (!room_for(c)) {
		c->retry |= !c->in_flight; /* else its own completion says when */
		return -TACET_EBUSY;
	}
	for (r = 0; r < MAX_REQS && reqs[r].s; r++)
		;
	((struct blk_header *)headers.va)[r] = (struct blk_header){ .type = type, .sector = sector };
	b[n++] = (struct virtq_buf){ headers.pa + r * sizeof(struct blk_header), 16 };
	if (len)
		b[n++] = (struct virtq_buf){ s->pa + offset, len };
	b[n++] = (struct virtq_buf){ s->pa + s->status + id, 1 };
	if (virtq_add(&queue, b, type == VIRTIO_BLK_T_OUT ? 2 : 1,
		      type == VIRTIO_BLK_T_OUT ? 1 : n - 1, &reqs[r]) < 0)
		return -TACET_EBUSY; /* three descriptors a request always fit: not reached */
	reqs[r] = (struct request){ .s = s, .id = (unsigned int)id, .since = tacet_time() };
	s->busy |= 1u << id;
	s->in_flight++, c->in_flight++;
	if (++in_flight > most)
		most = in_flight;
	if (virtq_kick_needed(&queue))
		virtio_notify(&vdev, 0);
	watchdog(0);
	if (blk_in_flight)
		blk_in_flight(in_flight);
	return 0;
}

long blk_serve_read(struct tacet_service *s, uint64_t sector, uint64_t count, uint64_t offset,
		    uint64_t id)
{
	return submit(client_of(s), VIRTIO_BLK_T_IN, sector, count, offset, id);
}

long blk_serve_write(struct tacet_service *s, uint64_t sector, uint64_t count, uint64_t offset,
		     uint64_t id)
{
	return submit(client_of(s), VIRTIO_BLK_T_OUT, sector, count, offset, id);
}

long blk_serve_flush(struct tacet_service *s, uint64_t sector, uint64_t count, uint64_t offset,
		     uint64_t id)
{
	return submit(client_of(s), VIRTIO_BLK_T_FLUSH, sector, count, offset, id);
}

long blk_serve_info(struct tacet_service *s, uint64_t *sectors, uint64_t *sector_size,
		    uint64_t *read_only)
{
	(void)s;
	*sectors = capacity, *sector_size = BLK_SECTOR, *read_only = has(VIRTIO_BLK_F_RO);
	return 0;
}

/* BLK_STATS: the two interrupt counts at one moment (those that came meanwhile taken first).
 * The kernel's side leaves out the interrupts acknowledged as not the device's: QEMU's PLIC
 * latches a second interrupt when the device notifies again between our read of
 * InterruptStatus and its acknowledgement, and that one finds the status 0 (docs/virtio.md). */
long blk_serve_stats(struct tacet_service *s, uint64_t *done, uint64_t *handled,
		     uint64_t *line_irqs, uint64_t *most_at_once)
{
	struct tacet_irq_info line = { 0 };

	tacet_service_irq_info(s, &line);
	*done = completed, *handled = irqs, *line_irqs = line.count - line.unhandled;
	*most_at_once = most;
	return 0;
}

/* BLK_USAGE: after every end signalled before the call (taken first). */
long blk_serve_usage(struct tacet_service *s, uint64_t *open, uint64_t *ended_held,
		     uint64_t *slots, uint64_t *nresets)
{
	unsigned int held = 0;

	tacet_service_drain(s);
	for (unsigned int i = 0; i < MAX_SESSIONS; i++)
		held += sessions[i].c && !sessions[i].open;
	*open = nopen, *ended_held = held, *slots = client_slots, *nresets = resets;
	return 0;
}

static long setup(const char **step)
{
	long err;

	*step = "open the virtio device";
	err = virtio_probe(&dev, &vdev, VIRTIO_ID_BLK, FEATURES);
	if (!err && (*step = "set up the request queue"))
		err = virtio_queue_new(&vdev, 0, &queue, QUEUE_SIZE);
	if (!err && (*step = "allocate the request headers"))
		err = tacet_dma_alloc(MAX_REQS * sizeof(struct blk_header), &headers);
	if (err)
		return err;
	rings_va = queue.desc;
	rings_pa = queue.desc_pa;
	capacity = virtio_config_read(&vdev, CONFIG_CAPACITY, 8);
	virtio_driver_ok(&vdev);
	printf("blk: virtio block device (%s), %llu sectors of %u bytes%s%s, %u requests in "
	       "flight\n", vdev.transport->name, (unsigned long long)capacity, BLK_SECTOR,
	       has(VIRTIO_BLK_F_RO) ? ", read-only" : "", has(VIRTIO_BLK_F_FLUSH) ? ", flush" : "",
	       MAX_REQS);
	if (tacet_instance()) /* restarted: was the device left quiet? */
		printf("blk: instance %lu: the device's Status was %#x at start\n", tacet_instance(),
		       (unsigned int)vdev.found);
	return 0;
}

int main(void)
{
	const char *step = "";
	long err = setup(&step);

	if (err) {
		printf("blk: cannot %s: %s%s%s\n", step, tacet_strerror(err), vdev.why ? ": " : "",
		       vdev.why ? vdev.why : "");
		if (vdev.device_id == VIRTIO_ID_BLK)
			virtio_fail(&vdev, step);
		return 1;
	}
	tacet_slot_pool_add(TACET_CHILD_FIRST_FREE, TACET_CHILD_DEVICE_SLOTS - TACET_CHILD_FIRST_FREE);
	err = tacet_service_open(&svc, "blk", TACET_RIGHT_WRITE | TACET_RIGHT_GRANT |
				 INIT_BADGE_CLIENTS, &dev);
	if (!err)
		err = tacet_service_sessions(&svc, &table, NULL, 0, ended);
	if (!err)
		err = tacet_service_run(&svc, blk_dispatch, event);
	printf("blk: serving failed: %s\n", tacet_strerror(err));
	return 1;
}
