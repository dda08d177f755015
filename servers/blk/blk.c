/* blk: the virtio block device's driver (virtio-blk, device ID 2) and the "blk" service
 * (<tacet/blk_proto.h>; docs/virtio.md).
 *
 * Device (init.run= `blk:virtio-blk`), opened with the driver kit: one virtqueue of QUEUE_SIZE
 * descriptors. A request is a chain of three: the 16-byte header (type, sector) in this
 * server's DMA page, the data in the client's frame, and the status byte the device writes,
 * also in the client's frame, where the client put that request id's.
 *
 * Several requests in flight, from any number of clients: a call queues its request and is
 * answered at once; the interrupt (InterruptStatus cleared, the used ring drained, then the line
 * acknowledged) completes them, each signalled on its client's notification as its id's bit.
 *
 * Locking: none; one thread does everything (the kit's loop takes the calls and the interrupts).
 * A client's frame capability is kept while it has requests in flight, so its memory cannot go
 * back to the kernel under the device. Prints only through the kernel's debug output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tacet.h>
#include <tacet/blk_proto.h>
#include <tacet/init_proto.h>
#include <tacet/virtio.h>

#define QUEUE_SIZE   128 /* the most one page takes */
#define MAX_REQS     40  /* in flight, all clients: three descriptors each */
#define MAX_CLIENTS  32  /* badges 1..32: init's server number + 1 */

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

struct client {
	unsigned long frame, ntfn; /* lib slots (0: none given) */
	uint64_t pa, bytes, status; /* the frame; the offset of its status area */
	unsigned int shift;         /* request id i completes as bit shift + i */
	uint32_t busy;              /* ids in flight */
};

struct request { struct client *c; unsigned int id; }; /* c NULL: free */

static struct tacet_device dev;
static struct virtio_device vdev;
static struct virtq queue;
static struct tacet_dma headers; /* MAX_REQS headers */
static struct request reqs[MAX_REQS];
static struct client clients[MAX_CLIENTS];
static uint64_t capacity, completed, irqs, in_flight, most; /* most: in flight at once */

#define has(bit) (!!(vdev.features & VIRTIO_FEATURE(bit)))

/* The line fired: clear the device's status, complete what is used, then unmask the line. */
static void interrupt(struct tacet_device *d, long ev)
{
	uint32_t status;
	struct request *r;

	if (!(ev & TACET_DEVICE_IRQ))
		return;
	status = virtio_interrupt_ack(&vdev);
	while ((r = virtq_get(&queue, NULL))) {
		r->c->busy &= ~(1u << r->id); /* free before the client hears: it may reuse it */
		tacet_signal(r->c->ntfn, 1ul << (r->c->shift + r->id));
		r->c = NULL;
		completed++, in_flight--;
	}
	irqs += status != 0;
	tacet_device_ack(d, status != 0);
	if (queue.broken) {
		printf("blk: the device returned a buffer it was not given; stopping\n");
		virtio_fail(&vdev, "broken used ring");
		exit(1);
	}
}

/* BLK_ATTACH: the frame or the notification that came with the call, kept in *keep. */
static long attach(struct tacet_service *s, const struct tacet_msg *msg, struct client *c)
{
	unsigned long rights = 0, pa = 0, pages = 0, *keep;
	long type = tacet_cap_info(s->recv, &rights, NULL), slot, err;
	int frame = type == TACET_CAP_FRAME;

	if (!TACET_TAG_HAS_CAP(msg->tag))
		return -TACET_EINVAL;
	if (type != TACET_CAP_FRAME && type != TACET_CAP_NOTIFICATION)
		return type < 0 ? type : -TACET_ETYPE;
	if (!c || c->busy)
		return !c ? -TACET_ENOMEM : -TACET_EBUSY;
	if ((rights & TACET_RIGHT_WRITE) == 0 || (frame && !(rights & TACET_RIGHT_READ)))
		return -TACET_EPERM;
	/* pinned to the disk: if blk ends while the disk may write it, it is quarantined */
	if (frame && (err = tacet_frame_pin(s->recv, tacet_dma_device_slot(), &pa, &pages)))
		return err;
	if (frame ? msg->w[0] > pages * TACET_PAGE_SIZE - BLK_IDS : msg->w[0] > 63 - BLK_IDS)
		return -TACET_ERANGE;
	slot = tacet_slot_alloc(); /* a copy that keeps only the rights the service uses */
	if (slot >= 0 && (err = tacet_cap_copy(s->recv, (unsigned long)slot,
					       frame ? TACET_RIGHT_READ | TACET_RIGHT_WRITE :
						       TACET_RIGHT_WRITE, 0)))
		tacet_slot_free((unsigned long)slot);
	if (slot < 0 || err)
		return slot < 0 ? slot : err;
	keep = frame ? &c->frame : &c->ntfn;
	if (*keep) { /* the one it attached before: nothing of it in flight (not busy) */
		if (frame)
			tacet_frame_unpin(*keep);
		tacet_slot_free(*keep);
	}
	*keep = (unsigned long)slot;
	if (frame)
		c->pa = pa, c->bytes = pages * TACET_PAGE_SIZE, c->status = msg->w[0];
	else
		c->shift = (unsigned int)msg->w[0];
	return 0;
}

/* BLK_READ / BLK_WRITE / BLK_FLUSH: check the request, then queue it. */
static long submit(const struct tacet_msg *msg, struct client *c, uint32_t type)
{
	uint64_t sector = msg->w[0], count = msg->w[1], offset = msg->w[2], id = msg->w[3];
	uint32_t len = type == VIRTIO_BLK_T_FLUSH ? 0 : (uint32_t)(count * BLK_SECTOR);
	struct virtq_buf b[3];
	unsigned int n = 0, r;

	if (!c || !c->frame || !c->ntfn || id >= BLK_IDS)
		return -TACET_EINVAL;
	if (type != VIRTIO_BLK_T_FLUSH) {
		if (!count || offset % BLK_SECTOR)
			return -TACET_EINVAL;
		if (sector >= capacity || count > capacity - sector || offset >= c->bytes ||
		    count > (c->bytes - offset) / BLK_SECTOR)
			return -TACET_ERANGE;
		if (type == VIRTIO_BLK_T_OUT && has(VIRTIO_BLK_F_RO))
			return -TACET_EPERM;
	} else if (!has(VIRTIO_BLK_F_FLUSH)) {
		return BLK_DONE; /* without the feature the device writes through */
	}
	for (r = 0; r < MAX_REQS && reqs[r].c; r++)
		;
	if (r == MAX_REQS || (c->busy & (1u << id)))
		return -TACET_EBUSY;
	((struct blk_header *)headers.va)[r] = (struct blk_header){ .type = type, .sector = sector };
	b[n++] = (struct virtq_buf){ headers.pa + r * sizeof(struct blk_header), 16 };
	if (len)
		b[n++] = (struct virtq_buf){ c->pa + offset, len };
	b[n++] = (struct virtq_buf){ c->pa + c->status + id, 1 };
	if (virtq_add(&queue, b, type == VIRTIO_BLK_T_OUT ? 2 : 1,
		      type == VIRTIO_BLK_T_OUT ? 1 : n - 1, &reqs[r]) < 0)
		return -TACET_EBUSY;
	reqs[r] = (struct request){ .c = c, .id = (unsigned int)id };
	c->busy |= 1u << id;
	if (++in_flight > most)
		most = in_flight;
	if (virtq_kick_needed(&queue))
		virtio_notify(&vdev, 0);
	return 0;
}

/* BLK_STATS: the two interrupt counts at one moment (those that came meanwhile taken first).
 * The kernel's side leaves out the interrupts acknowledged as not the device's: QEMU's PLIC
 * latches a second interrupt when the device notifies again between our read of
 * InterruptStatus and its acknowledgement, and that one finds the status 0 (docs/virtio.md). */
static void stats(struct tacet_msg *reply)
{
	struct tacet_irq_info line = { 0 };
	long bits = tacet_poll(dev.ntfn_slot);

	do {
		for (long ev = tacet_device_notified(&dev, bits > 0 ? (unsigned long)bits : 0); ev;
		     ev = tacet_device_notified(&dev, 0))
			interrupt(&dev, ev);
		tacet_info(TACET_INFO_IRQ, dev.irq, &line, sizeof(line));
	} while ((bits = tacet_poll(dev.ntfn_slot)) > 0);
	*reply = (struct tacet_msg){ .tag = TACET_TAG(0, 4),
				     .w = { completed, irqs, line.count - line.unhandled, most } };
}

static void serve(struct tacet_service *s, const struct tacet_msg *msg, struct tacet_msg *reply)
{
	struct client *c = s->badge - 1 < MAX_CLIENTS ? &clients[s->badge - 1] : NULL;
	long r = -TACET_EINVAL;

	switch (TACET_TAG_LABEL(msg->tag)) {
	case BLK_INFO:
		*reply = (struct tacet_msg){ .tag = TACET_TAG(0, 3),
					     .w = { capacity, BLK_SECTOR, has(VIRTIO_BLK_F_RO) } };
		return;
	case BLK_STATS:
		stats(reply);
		return;
	case BLK_ATTACH:
		r = attach(s, msg, c);
		break;
	case BLK_READ:
	case BLK_WRITE:
	case BLK_FLUSH:
		r = submit(msg, c, TACET_TAG_LABEL(msg->tag) == BLK_READ ? VIRTIO_BLK_T_IN :
				   TACET_TAG_LABEL(msg->tag) == BLK_WRITE ? VIRTIO_BLK_T_OUT :
									    VIRTIO_BLK_T_FLUSH);
		break;
	}
	reply->w[0] = (unsigned long)r;
}

static long setup(const char **step)
{
	long err;

	*step = "open the device";
	err = tacet_device_open(&dev, NULL, 0, 0);
	if (!err && (*step = "open the virtio device"))
		err = virtio_open(&vdev, dev.regs, VIRTIO_ID_BLK, VIRTIO_FEATURE(VIRTIO_F_EVENT_IDX) |
				  VIRTIO_FEATURE(VIRTIO_BLK_F_RO) | VIRTIO_FEATURE(VIRTIO_BLK_F_FLUSH));
	if (!err && (*step = "set up the request queue"))
		err = virtio_queue_new(&vdev, 0, &queue, QUEUE_SIZE);
	if (!err && (*step = "allocate the request headers"))
		err = tacet_dma_alloc(MAX_REQS * sizeof(struct blk_header), &headers);
	if (err)
		return err;
	capacity = virtio_config_read(&vdev, CONFIG_CAPACITY, 8);
	virtio_driver_ok(&vdev);
	printf("blk: virtio block device, %llu sectors of %u bytes%s%s, %u requests in flight\n",
	       (unsigned long long)capacity, BLK_SECTOR, has(VIRTIO_BLK_F_RO) ? ", read-only" : "",
	       has(VIRTIO_BLK_F_FLUSH) ? ", flush" : "", MAX_REQS);
	return 0;
}

int main(void)
{
	struct tacet_service s;
	const char *step = "";
	long err = setup(&step);

	if (err) {
		printf("blk: cannot %s: %s%s%s\n", step, tacet_strerror(err), vdev.why ? ": " : "",
		       vdev.why ? vdev.why : "");
		if (vdev.device_id == VIRTIO_ID_BLK)
			virtio_fail(&vdev, step);
		return 1;
	}
	err = tacet_service_open(&s, "blk", TACET_RIGHT_WRITE | TACET_RIGHT_GRANT |
				 INIT_BADGE_CLIENTS, &dev);
	if (!err)
		err = tacet_service_run(&s, serve, interrupt);
	printf("blk: serving failed: %s\n", tacet_strerror(err));
	return 1;
}
