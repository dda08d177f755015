/* rng: the virtio entropy device's driver (virtio-rng, device ID 4) and the entropy service.
 *
 * Device (from init, `rng:virtio-rng`): the virtio-mmio transport whose DeviceID is 4, in
 * TACET_CHILD_DEVICE, its line in TACET_CHILD_DEVICE_IRQ. One virtqueue (requestq): the driver
 * offers writable buffers, the device fills them with entropy. NCHUNKS chunks of CHUNK bytes are
 * kept offered; a filled chunk waits in ready[] until clients have taken all of it (each byte
 * goes to one client once and is wiped when taken), then is offered again.
 *
 * The line is bound to a notification bound to this thread: one receive loop takes client calls
 * and interrupts. On an interrupt: InterruptStatus is read and cleared on the device first,
 * then the used ring is drained, then the line is acknowledged to the kernel (oneshot), so the
 * level interrupt does not come straight back. A client that asks for more than is ready waits
 * inside its call while the driver waits for the device (a reply cannot be put off: IPC answers
 * the caller last received); other clients queue on the endpoint meanwhile.
 *
 * IPC: publishes "rng", serving <tacet/rng_proto.h>. Prints only through the kernel's debug
 * output: the console server calls this one (the shell's `random`), so a call back to it would
 * deadlock. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/rng_proto.h>
#include <tacet/virtio.h>

#define REGS_VA   0x0000002000000000ul
#define QUEUE_VA  0x0000002000001000ul
#define CHUNKS_VA 0x0000002000002000ul

#define SLOT_NTFN  (TACET_CHILD_FIRST_FREE + 0)
#define SLOT_EP    (TACET_CHILD_FIRST_FREE + 1)
#define SLOT_QUEUE (TACET_CHILD_FIRST_FREE + 2)
#define SLOT_CHUNK (TACET_CHILD_FIRST_FREE + 3)
#define IRQ_BADGE  1

#define NCHUNKS 8  /* QEMU's virtio-rng queue has 8 entries */
#define CHUNK   64 /* bytes per request */

enum chunk_state { CHUNK_FREE, CHUNK_OFFERED, CHUNK_READY };

struct chunk {
	uint8_t *data;
	uint64_t pa;
	uint32_t len, pos; /* filled by the device; taken by clients so far */
	enum chunk_state state;
};

static struct virtio_device dev;
static struct virtq queue;
static struct chunk chunks[NCHUNKS];
static unsigned int ready[NCHUNKS], ready_head, ready_count; /* filled chunks, oldest first */
static unsigned int irq_line;
static unsigned long completed, irqs;

/* Offer every free chunk to the device; notify it if it wants to hear. */
static void offer_free(void)
{
	int added = 0;

	for (unsigned int i = 0; i < NCHUNKS; i++) {
		struct virtq_buf b = { .addr = chunks[i].pa, .len = CHUNK };

		if (chunks[i].state != CHUNK_FREE || virtq_add(&queue, &b, 0, 1, &chunks[i]) < 0)
			continue;
		chunks[i].state = CHUNK_OFFERED;
		added = 1;
	}
	if (added && virtq_kick_needed(&queue))
		virtio_notify(&dev, 0);
}

static unsigned int in_flight(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < NCHUNKS; i++)
		n += chunks[i].state == CHUNK_OFFERED;
	return n;
}

/* Chains the device is done with become ready (an empty one is free again). */
static void take_used(void)
{
	struct chunk *c;
	uint32_t len;

	while ((c = virtq_get(&queue, &len)) != NULL) {
		completed++;
		c->len = len < CHUNK ? len : CHUNK;
		c->pos = 0;
		if (!c->len) {
			c->state = CHUNK_FREE;
			continue;
		}
		c->state = CHUNK_READY;
		ready[(ready_head + ready_count++) % NCHUNKS] = (unsigned int)(c - chunks);
	}
}

/* The line fired: clear the device's status, drain the ring, then unmask the line. */
static void service_irq(void)
{
	uint32_t status = virtio_interrupt_ack(&dev);

	irqs += status != 0;
	take_used();
	tacet_irq_ack(TACET_CHILD_DEVICE_IRQ, status != 0);
}

/* Wait for the device inside a client's call (the notification is bound, so wait on it). */
static long wait_for_device(void)
{
	long bits = tacet_wait(SLOT_NTFN);

	if (bits < 0)
		return bits;
	if (bits & IRQ_BADGE)
		service_irq();
	return 0;
}

/* n ready bytes into out, oldest chunk first, wiped as they go. */
static void take_bytes(uint8_t *out, unsigned int n)
{
	while (n) {
		struct chunk *c = &chunks[ready[ready_head]];
		unsigned int k = c->len - c->pos < n ? c->len - c->pos : n;

		memcpy(out, c->data + c->pos, k);
		memset(c->data + c->pos, 0, k);
		c->pos += k;
		out += k;
		n -= k;
		if (c->pos == c->len) {
			c->state = CHUNK_FREE;
			ready_head = (ready_head + 1) % NCHUNKS;
			ready_count--;
		}
	}
}

static unsigned int ready_bytes(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < ready_count; i++) {
		const struct chunk *c = &chunks[ready[(ready_head + i) % NCHUNKS]];

		n += c->len - c->pos;
	}
	return n;
}

static void serve_read(const struct tacet_msg *msg, struct tacet_msg *reply)
{
	unsigned long n = msg->w[0];
	long err = 0;

	if (!n || n > RNG_READ_MAX)
		err = -TACET_EINVAL;
	while (!err && ready_bytes() < n) {
		offer_free();
		err = queue.broken ? -TACET_EDEAD : wait_for_device();
	}
	if (err) {
		*reply = (struct tacet_msg){ .tag = TACET_TAG(RNG_ERROR, 1), .w = { (unsigned long)err } };
		return;
	}
	*reply = (struct tacet_msg){ .tag = TACET_TAG(0, 4) };
	take_bytes((uint8_t *)reply->w, (unsigned int)n);
	offer_free(); /* what was used up is asked for again */
}

/* The kernel's count of the line; interrupts it has signalled that we have not taken yet are
 * taken first, so that the two counts describe the same moment. */
static void serve_stats(struct tacet_msg *reply)
{
	struct tacet_irq_info ii = { 0 };
	long bits;

	for (;;) {
		while ((bits = tacet_poll(SLOT_NTFN)) > 0)
			if (bits & IRQ_BADGE)
				service_irq();
		tacet_info(TACET_INFO_IRQ, irq_line, &ii, sizeof(ii));
		bits = tacet_poll(SLOT_NTFN); /* one that came while we looked: again */
		if (bits <= 0)
			break;
		if (bits & IRQ_BADGE)
			service_irq();
	}
	*reply = (struct tacet_msg){ .tag = TACET_TAG(0, 4),
				     .w = { completed, in_flight(), irqs, ii.count } };
}

/* The device: open it, its queue, the chunks' page. */
static long setup_device(const char **step)
{
	uint64_t pa;
	long err;

	*step = "map the device";
	err = tacet_map(TACET_CHILD_SELF, TACET_CHILD_DEVICE, REGS_VA,
			TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err && (*step = "open the virtio device"))
		err = virtio_open(&dev, (volatile void *)REGS_VA, VIRTIO_ID_RNG,
				  VIRTIO_FEATURE(VIRTIO_F_EVENT_IDX));
	if (!err && (*step = "set up the request queue"))
		err = virtio_queue_create(&dev, 0, &queue, NCHUNKS, SLOT_QUEUE, QUEUE_VA);
	if (!err && (*step = "allocate the buffers"))
		err = virtio_dma_page(SLOT_CHUNK, CHUNKS_VA, &pa);
	for (unsigned int i = 0; !err && i < NCHUNKS; i++)
		chunks[i] = (struct chunk){ .data = (uint8_t *)CHUNKS_VA + i * CHUNK,
					    .pa = pa + i * CHUNK };
	return err;
}

static long setup(const char **step)
{
	const struct tacet_child_devices *given = (const void *)TACET_CHILD_DEVICES_VADDR;
	long err = setup_device(step);

	irq_line = given->devices[0].irq;
	if (!err && (*step = "create the notification"))
		err = tacet_ntfn_new(SLOT_NTFN);
	if (!err && (*step = "bind the interrupt"))
		err = tacet_irq_bind(TACET_CHILD_DEVICE_IRQ, SLOT_NTFN, IRQ_BADGE, 0);
	if (!err && (*step = "bind the notification"))
		err = tacet_ntfn_bind(SLOT_NTFN);
	if (!err && (*step = "create the endpoint"))
		err = tacet_endpoint_new(SLOT_EP);
	if (!err) {
		virtio_driver_ok(&dev);
		offer_free();
		/* before publishing: the call to init lets the console in, whose prompt should
		 * come last at boot */
		printf("rng: virtio entropy device on line %u, %u requests of %u bytes offered%s\n",
		       irq_line, NCHUNKS, CHUNK, queue.event_idx ? ", event idx" : "");
	}
	if (!err && (*step = "publish \"rng\""))
		err = tacet_publish("rng", SLOT_EP, TACET_RIGHT_WRITE);
	return err;
}

int main(void)
{
	struct tacet_msg msg, reply = { 0 };
	const char *step = "";
	long err = setup(&step);

	if (err) {
		printf("rng: cannot %s: %s%s%s\n", step, tacet_strerror(err), dev.why ? ": " : "",
		       dev.why ? dev.why : "");
		if (dev.device_id == VIRTIO_ID_RNG) /* opened, at least in part */
			virtio_fail(&dev, step);
		return 1;
	}
	err = tacet_recv(SLOT_EP, 0, &msg, NULL);
	while (!err) {
		if (TACET_TAG_LABEL(msg.tag) == TACET_LABEL_NOTIFY) {
			if (msg.w[0] & IRQ_BADGE)
				service_irq();
			err = tacet_recv(SLOT_EP, 0, &msg, NULL); /* nobody to reply to */
			continue;
		}
		if (TACET_TAG_LABEL(msg.tag) == RNG_READ)
			serve_read(&msg, &reply);
		else if (TACET_TAG_LABEL(msg.tag) == RNG_STATS)
			serve_stats(&reply);
		else
			reply = (struct tacet_msg){ .tag = TACET_TAG(RNG_ERROR, 1),
						    .w = { (unsigned long)-TACET_EINVAL } };
		if (queue.broken) {
			printf("rng: the device returned a buffer it was not given; stopping\n");
			virtio_fail(&dev, "broken used ring");
			return 1;
		}
		err = tacet_reply_recv(SLOT_EP, &reply, 0, &msg, NULL);
	}
	printf("rng: receive failed: %s\n", tacet_strerror(err));
	return 1;
}
