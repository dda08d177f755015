/* rng: the virtio-rng driver (device ID 4: init.run= `rng:virtio-rng` over virtio-mmio, or `rng`
 * alone beside the pci server for a virtio-rng-pci function: virtio_probe) and the entropy
 * service "rng" (<tacet/rng_proto.h>; dispatch generated from lib/proto/rng.proto). Owns the
 * device's one virtqueue (requestq) with NCHUNKS chunks of CHUNK bytes kept offered; a filled
 * chunk waits in ready[] until clients have taken all of it (each byte to one client, once,
 * wiped when taken), then is offered again. One thread, no locking: the kit's service loop
 * takes calls and the interrupt (the transport's interrupt status cleared, used ring drained,
 * then the line acknowledged). A client asking for more than is ready waits inside its call
 * while the driver waits for the device (IPC answers the caller last received); others queue on
 * the endpoint meanwhile. Prints only through the kernel's debug output: the console calls this
 * server (`random`), so a call back to it would deadlock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tacet.h>
#include <tacet/rng_server.h>
#include <tacet/virtio.h>

#define NCHUNKS 8  /* QEMU's virtio-rng queue has 8 entries */

/* Defined only by the test build rng_dying (servers/tests/rngdying.c): called when a client's
 * read must wait for the device, with the requests the device holds; it faults, so that the
 * driver dies with buffers offered. */
void rng_waits(unsigned int offered) __attribute__((weak));
#define CHUNK   64 /* bytes per request */

enum chunk_state { CHUNK_FREE, CHUNK_OFFERED, CHUNK_READY };

struct chunk {
	uint8_t *data;
	uint64_t pa;
	uint32_t len, pos; /* filled by the device; taken by clients so far */
	enum chunk_state state;
};

static struct tacet_device io; /* the transport's registers and line */
static struct virtio_device dev;
static struct virtq queue;
static struct chunk chunks[NCHUNKS];
static unsigned int ready[NCHUNKS], ready_head, ready_count; /* filled chunks, oldest first */
static unsigned int ready_total, offered; /* bytes ready to take; chunks the device has */
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
		offered++;
		added = 1;
	}
	if (added && virtq_kick_needed(&queue))
		virtio_notify(&dev, 0);
}

/* Chains the device is done with become ready (an empty one is free again). */
static void take_used(void)
{
	struct chunk *c;
	uint32_t len;

	while ((c = virtq_get(&queue, &len)) != NULL) {
		completed++;
		offered--;
		c->len = len < CHUNK ? len : CHUNK;
		c->pos = 0;
		if (!c->len) {
			c->state = CHUNK_FREE;
			continue;
		}
		c->state = CHUNK_READY;
		ready_total += c->len;
		ready[(ready_head + ready_count++) % NCHUNKS] = (unsigned int)(c - chunks);
	}
}

/* The line fired: clear the device's status, drain the ring, then unmask the line. */
static void event(struct tacet_device *d, long ev)
{
	uint32_t status;

	if (ev != (long)TACET_DEVICE_IRQ)
		return;
	status = virtio_interrupt_ack(&dev);
	irqs += status != 0;
	take_used();
	tacet_device_ack(d, status != 0);
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
		ready_total -= k;
		out += k;
		n -= k;
		if (c->pos == c->len) {
			c->state = CHUNK_FREE;
			ready_head = (ready_head + 1) % NCHUNKS;
			ready_count--;
		}
	}
}

long rng_serve_read(struct tacet_service *s, uint64_t n, uint64_t *b0, uint64_t *b1, uint64_t *b2,
		    uint64_t *b3)
{
	uint64_t w[4] = { 0 };
	long err = 0;

	(void)s;
	if (!n || n > RNG_READ_MAX)
		return -TACET_EINVAL;
	while (!err && ready_total < n) { /* wait for the device inside the client's call */
		long ev;

		offer_free();
		if (rng_waits)
			rng_waits(offered);
		ev = queue.broken ? -TACET_EDEAD : tacet_device_wait(&io, 0);
		if (ev > 0)
			event(&io, ev);
		err = ev < 0 ? ev : 0;
	}
	if (err)
		return err;
	take_bytes((uint8_t *)w, (unsigned int)n);
	*b0 = w[0], *b1 = w[1], *b2 = w[2], *b3 = w[3];
	offer_free(); /* what was used up is asked for again */
	return 0;
}

/* The kernel's count of the line, less the interrupts acknowledged as not the device's (QEMU's
 * PLIC can latch one with nothing to do: docs/virtio.md), at the moment of our own counts. */
long rng_serve_stats(struct tacet_service *s, uint64_t *done, uint64_t *in_flight, uint64_t *handled,
		     uint64_t *line_count)
{
	struct tacet_irq_info ii = { 0 };

	tacet_service_irq_info(s, &ii);
	*done = completed, *in_flight = offered, *handled = irqs;
	*line_count = ii.count - ii.unhandled;
	return 0;
}

static void call(struct tacet_service *s, const struct tacet_msg *msg, struct tacet_msg *reply)
{
	rng_dispatch(s, msg, reply);
	if (queue.broken) {
		printf("rng: the device returned a buffer it was not given; stopping\n");
		virtio_fail(&dev, "broken used ring");
		exit(1);
	}
}

/* The device, its queue and the chunks' buffer; then, offered, the service. */
static long setup(const char **step, struct tacet_service *service)
{
	struct tacet_dma buf;
	long err;

	*step = "open the virtio device";
	err = virtio_probe(&io, &dev, VIRTIO_ID_RNG, VIRTIO_FEATURE(VIRTIO_F_EVENT_IDX));
	if (!err && (*step = "set up the request queue"))
		err = virtio_queue_new(&dev, 0, &queue, NCHUNKS);
	if (!err && (*step = "allocate the buffers"))
		err = tacet_dma_alloc(NCHUNKS * CHUNK, &buf);
	if (err)
		return err;
	for (unsigned int i = 0; i < NCHUNKS; i++)
		chunks[i] = (struct chunk){ .data = (uint8_t *)buf.va + i * CHUNK,
					    .pa = buf.pa + i * CHUNK };
	virtio_driver_ok(&dev);
	offer_free();
	/* before publishing: the call to init lets the console in, whose prompt should come last
	 * at boot */
	printf("rng: virtio entropy device (%s) on line %u, %u requests of %u bytes offered%s\n",
	       dev.transport->name, io.irq, NCHUNKS, CHUNK, queue.event_idx ? ", event idx" : "");
	if (tacet_instance()) /* restarted: was the device left quiet? */
		printf("rng: instance %lu: the device's Status was %#x at start\n", tacet_instance(),
		       (unsigned int)dev.found);
	*step = "publish \"rng\"";
	return tacet_service_open(service, "rng", TACET_RIGHT_WRITE, &io);
}

int main(void)
{
	struct tacet_service service;
	const char *step = "";
	long err = setup(&step, &service);

	if (err) {
		printf("rng: cannot %s: %s%s%s\n", step, tacet_strerror(err), dev.why ? ": " : "",
		       dev.why ? dev.why : "");
		if (dev.device_id == VIRTIO_ID_RNG) /* opened, at least in part */
			virtio_fail(&dev, step);
		return 1;
	}
	err = tacet_service_run(&service, call, event);
	printf("rng: receive failed: %s\n", tacet_strerror(err));
	return 1;
}
