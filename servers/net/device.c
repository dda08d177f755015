/* device.c: the net server's device: found by the kit's virtio_probe (virtio-mmio, or a
 * virtio-net-pci function claimed from the "pci" server), its features negotiated (the MAC,
 * the link's status, event index, the control queue and queue pairs; no offloads), its queue
 * pairs chosen and set up, and set up again after a reset.
 *
 * Queue pairs (VIRTIO_NET_F_MQ): where the device has MSI-X (virtio-pci on the AIA's machine),
 * one pair a hart, up to the device's max_virtqueue_pairs and PAIRS_MAX (pair k on hart k, set
 * with the control queue's VQ_PAIRS_SET): each queue signals a vector of its own (queue i:
 * vector i + 1) on its pair's hart, served by a thread of this server pinned there (pair_run,
 * pass.c); vector 0, the probe's, on the main thread's hart, takes configuration changes.
 * Elsewhere (virtio-mmio, INTx) one pair, whose queues signal the device's one line, which the
 * main thread serves.
 *
 * Locking (net.h): setup runs before the loop, on the main thread alone; device_reset is the
 * main thread's, the lock held (pass.c's pass, net.c's NET_START); link_up reads the device's
 * configuration, any thread. Callers: net.c (setup, link_up, device_reset for a granted
 * session that starts), pass.c (device_reset). */
#include <stdio.h>
#include <stdlib.h>
#include <tacet.h>
#include "net.h"

#define RXQ(k)       (2 * (k))     /* pair k's queues' indices */
#define TXQ(k)       (2 * (k) + 1)
#define CTRL_SIZE    8   /* the control queue's entries: one command at a time */
#define CTRL_POLLS   1000 /* a command's answer looked for this often, */
#define CTRL_PAUSE_NS 1000000ull /* 1 ms apart */
#define STACK_BYTES  16384 /* a pair thread's stack */
#define CONFIG_VECTOR 0  /* MSI-X: configuration changes (the probe's vector, the main thread) */

/* virtio-net (virtio 1.x, "Network Device") */
#define VIRTIO_NET_F_MAC     5
#define VIRTIO_NET_F_STATUS  16
#define VIRTIO_NET_F_CTRL_VQ 17
#define VIRTIO_NET_F_MQ      22
#define CONFIG_MAC           0 /* 6 bytes */
#define CONFIG_STATUS        6 /* le16 */
#define CONFIG_MAX_PAIRS     8 /* le16, with VIRTIO_NET_F_MQ */
#define VIRTIO_NET_S_LINK_UP 1
#define CTRL_MQ              4 /* the control queue's class, */
#define CTRL_MQ_VQ_PAIRS_SET 0 /* command (a le16: the pairs), */
#define CTRL_OK              0 /* and the device's answer */
#define FEATURES (VIRTIO_FEATURE(VIRTIO_NET_F_MAC) | VIRTIO_FEATURE(VIRTIO_NET_F_STATUS) | \
		  VIRTIO_FEATURE(VIRTIO_F_EVENT_IDX) | VIRTIO_FEATURE(VIRTIO_NET_F_CTRL_VQ) | \
		  VIRTIO_FEATURE(VIRTIO_NET_F_MQ))
_Static_assert(2 * PAIRS_MAX + 1 <= VIRTIO_MSIX_MAX, "a vector a queue, and the configuration's");

struct ctrl_cmd { /* the control queue's one command: what the device reads, then writes */
	uint8_t class, command;
	uint16_t pairs;
	uint8_t ack;
};

struct tacet_device dev;
struct virtio_device vdev;
struct pair pairs[PAIRS_MAX];
unsigned int npairs = 1, main_hart;
static unsigned int max_pairs = 1, nharts = 1;
static uint64_t dev_base; /* the device's line's count at this instance's start */
unsigned int rx_kept; /* a receive queue's descriptors kept free: QUEUE_SIZE - its share */
static struct {
	struct virtq q;
	unsigned int index; /* 0: no control queue */
	struct tacet_dma cmd; /* a struct ctrl_cmd */
} ctrl;
static uint8_t stacks[PAIRS_MAX][STACK_BYTES] __attribute__((aligned(16)));
uint8_t mac[ETH_ALEN];
unsigned int resets;

#define has(bit) (!!(vdev.features & VIRTIO_FEATURE(bit)))

/* --- the device ------------------------------------------------------------------------------ */

/* The control queue's command: the queue pairs the device is to use, n. 0, or -TACET_EBUSY (the
 * device said no, or never answered). */
static long ctrl_pairs_set(unsigned int n)
{
	volatile struct ctrl_cmd *c = ctrl.cmd.va;
	struct virtq_buf bufs[3] = { { ctrl.cmd.pa, 2 }, { ctrl.cmd.pa + 2, 2 },
				     { ctrl.cmd.pa + 4, 1 } };
	uint32_t len = 0;
	void *done = NULL;

	*c = (struct ctrl_cmd){ CTRL_MQ, CTRL_MQ_VQ_PAIRS_SET, (uint16_t)n, 0xff };
	if (virtq_add(&ctrl.q, bufs, 2, 1, ctrl.cmd.va) < 0)
		return -TACET_EBUSY;
	virtq_kick_needed(&ctrl.q);
	virtio_notify(&vdev, ctrl.index);
	for (unsigned int i = 0; i < CTRL_POLLS && !(done = virtq_get(&ctrl.q, &len)); i++)
		tacet_sleep_ns(CTRL_PAUSE_NS);
	return done && c->ack == CTRL_OK ? 0 : -TACET_EBUSY;
}

/* The control queue (where VIRTIO_NET_F_MQ was negotiated: after the last pair's, unless that
 * is past what the transport drives) laid out and attached, its interrupts off: a command's
 * answer is polled for. */
static long ctrl_attach(void)
{
	long err = virtq_init(&ctrl.q, CTRL_SIZE, ctrl.cmd.va + TACET_PAGE_SIZE / 2,
			      ctrl.cmd.pa + TACET_PAGE_SIZE / 2, has(VIRTIO_F_EVENT_IDX));

	if (!err)
		err = virtio_queue_attach(&vdev, ctrl.index, &ctrl.q);
	if (!err)
		virtq_irq_disable(&ctrl.q);
	return err;
}

static long queue_attach(struct queue *q)
{
	long err = virtq_init(&q->q, QUEUE_SIZE, q->mem, q->pa, has(VIRTIO_F_EVENT_IDX));

	return err ? err : virtio_queue_attach(&vdev, q->index, &q->q);
}

/* After a reset: the configuration's vector, every pair's queues, the control queue. The device
 * is then told DRIVER_OK, and the pairs to use (VQ_PAIRS_SET). */
static long queues_attach(void)
{
	long err = pairs[0].ntfn ? virtio_msix_config(&vdev, CONFIG_VECTOR) : 0;

	for (unsigned int k = 0; k < npairs && !err; k++) {
		err = queue_attach(&pairs[k].rx);
		if (!err)
			err = queue_attach(&pairs[k].tx);
	}
	if (!err && ctrl.index)
		err = ctrl_attach();
	return err;
}

static long pairs_start(void)
{
	virtio_driver_ok(&vdev);
	return ctrl.index ? ctrl_pairs_set(npairs) : 0;
}

/* Reset the device and set the queues up again: it holds no buffer after it (pair_reoffer).
 * Gives up (exit: init may restart net) if the device does not come back. The main thread's,
 * the lock held. */
void device_reset(const char *why)
{
	long err;

	printf("net: %s: resetting the device: %s\n", tacet_service_name(), why);
	resets++;
	err = virtio_negotiate(&vdev, FEATURES);
	if (!err)
		err = queues_attach();
	if (!err)
		err = pairs_start();
	if (err) {
		printf("net: the device did not come back from its reset: %s; stopping\n",
		       tacet_strerror(err));
		virtio_fail(&vdev, "reset failed");
		exit(1);
	}
	for (unsigned int k = 0; k < npairs; k++)
		pair_reoffer(&pairs[k]);
	publish();
}

int link_up(void)
{
	return !has(VIRTIO_NET_F_STATUS) ||
	       (virtio_config_read(&vdev, CONFIG_STATUS, 2) & VIRTIO_NET_S_LINK_UP);
}
/* --- start ----------------------------------------------------------------------------------- */

static long queue_new(unsigned int index, int rx, struct queue *q)
{
	long err;

	q->index = index;
	q->rx = rx;
	err = virtio_queue_new(&vdev, index, &q->q, QUEUE_SIZE);
	if (err)
		return err;
	q->mem = q->q.desc;
	q->pa = q->q.desc_pa;
	for (unsigned int i = 0; i < QUEUE_SIZE; i++)
		q->free[i] = &q->bufs[i];
	q->nfree = QUEUE_SIZE;
	return 0;
}

/* The harts the kernel runs (its hart records). */
static unsigned int harts_count(void)
{
	struct tacet_hart_info info;
	unsigned int n = 0;

	while (n < 64 && tacet_info(TACET_INFO_HART, n, &info, sizeof(info)) >= 0)
		n++;
	return n ? n : 1;
}

/* Pair k's thread's notification, and its queues' vectors (queue i: vector i + 1) on its
 * hart's interrupt file, bound to it. */
static long pair_vectors(struct pair *p, unsigned int k)
{
	long slot = tacet_slot_alloc(), err;

	if (slot < 0)
		return slot;
	err = tacet_ntfn_new((unsigned long)slot);
	if (!err)
		err = virtio_msix_new(&vdev, RXQ(k) + 1, p->hart, (unsigned long)slot, PAIR_RX_BIT,
				      &p->rx.irq_slot, &p->rx.line);
	if (!err)
		err = virtio_msix_new(&vdev, TXQ(k) + 1, p->hart, (unsigned long)slot, PAIR_TX_BIT,
				      &p->tx.irq_slot, &p->tx.line);
	if (!err)
		err = virtio_msix_queue(&vdev, RXQ(k), RXQ(k) + 1);
	if (!err)
		err = virtio_msix_queue(&vdev, TXQ(k), TXQ(k) + 1);
	if (!err)
		p->ntfn = (unsigned long)slot;
	return err;
}

/* How many pairs, and their vectors: with MSI-X, one a hart (pair k on hart k) up to what the
 * device offers (max_virtqueue_pairs, if the control queue can set it) and the vectors it
 * takes; else one, on the device's one line. The control queue's place where MQ was
 * negotiated. */
static void pairs_choose(void)
{
	unsigned int want = 1, k;

	nharts = harts_count();
	if (has(VIRTIO_NET_F_MQ)) {
		max_pairs = (unsigned int)virtio_config_read(&vdev, CONFIG_MAX_PAIRS, 2);
		max_pairs = max_pairs ? max_pairs : 1;
		ctrl.index = 2 * max_pairs < VIRTIO_PCI_MAX_QUEUES ? 2 * max_pairs : 0;
	}
	npairs = 1;
	if (virtio_msix_decode(&vdev, 0))
		return; /* virtio-mmio, or INTx */
	if (ctrl.index)
		want = max_pairs < nharts ? max_pairs : nharts;
	want = want < PAIRS_MAX ? want : PAIRS_MAX;
	for (k = 0; k < want; k++) {
		pairs[k].hart = k;
		if (pair_vectors(&pairs[k], k))
			break;
	}
	npairs = k ? k : 1;
	rx_kept = QUEUE_SIZE - QUEUE_SIZE / npairs;
}

static long pairs_new(void)
{
	long err = pairs[0].ntfn ? virtio_msix_config(&vdev, CONFIG_VECTOR) : 0;

	for (unsigned int k = 0; k < npairs && !err; k++) {
		err = queue_new(RXQ(k), 1, &pairs[k].rx);
		if (!err)
			err = queue_new(TXQ(k), 0, &pairs[k].tx);
	}
	if (!err && ctrl.index)
		err = tacet_dma_alloc(TACET_PAGE_SIZE, &ctrl.cmd);
	if (!err && ctrl.index)
		err = ctrl_attach();
	return err;
}

/* Each pair's thread on its hart, as urgent as this one. */
static long pairs_run(void)
{
	struct tacet_self self = { 0 };

	tacet_self(&self);
	for (unsigned int k = 0; k < npairs && pairs[k].ntfn; k++) {
		long tid = tacet_thread_start(pair_run, &pairs[k],
					      (unsigned long)(stacks[k] + STACK_BYTES),
					      TACET_SCHED(self.prio, pairs[k].hart));

		if (tid < 0)
			return tid;
	}
	return 0;
}

/* A line's count so far (a restarted driver's lines have its previous instance's). */
static uint64_t line_count(unsigned int line)
{
	struct tacet_irq_info info = { 0 };

	return tacet_info(TACET_INFO_IRQ, line, &info, sizeof(info)) < 0 ? 0 : info.count;
}

/* Before any queue can signal: each line's count, so that this instance's are told apart. */
static void lines_counted(void)
{
	dev_base = line_count(dev.irq);
	for (unsigned int k = 0; k < npairs && pairs[k].ntfn; k++) {
		pairs[k].rx.base = line_count(pairs[k].rx.line);
		pairs[k].tx.base = line_count(pairs[k].tx.line);
	}
}

static void print_pairs(void)
{
	const char *name = tacet_service_name();

	if (vdev.transport != &virtio_pci_transport)
		return;
	if (!pairs[0].ntfn) {
		printf("net: %s: over virtio-pci, one queue pair, both queues on %s line %u (count "
		       "%llu at the start)\n", name, vdev.pci.msix_held ? "MSI-X vector 0's" :
		       "the INTx", dev.irq, (unsigned long long)dev_base);
		return;
	}
	printf("net: %s: over virtio-pci, %u queue pair(s) (max_virtqueue_pairs %u, %u harts), "
	       "configuration changes on line %u, hart %u\n", name, npairs, max_pairs, nharts,
	       dev.irq, main_hart);
	for (unsigned int k = 0; k < npairs; k++)
		printf("net: %s: pair %u on hart %u: receive queue on line %u (count %llu at the "
		       "start), transmit queue on line %u (count %llu at the start)\n", name, k,
		       pairs[k].hart, pairs[k].rx.line, (unsigned long long)pairs[k].rx.base,
		       pairs[k].tx.line, (unsigned long long)pairs[k].tx.base);
}

long setup(const char **step)
{
	struct tacet_self self = { 0 };
	long err;

	tacet_self(&self);
	main_hart = (unsigned int)self.hart;
	*step = "open the virtio device";
	err = virtio_probe(&dev, &vdev, VIRTIO_ID_NET, FEATURES);
	if (!err && (*step = "set up the queues")) {
		pairs_choose();
		lines_counted();
		err = pairs_new();
	}
	if (err)
		return err;
	for (unsigned int i = 0; i < ETH_ALEN; i++)
		mac[i] = has(VIRTIO_NET_F_MAC) ?
				 (uint8_t)virtio_config_read(&vdev, CONFIG_MAC + i, 1) :
				 (uint8_t)(i == 0 ? 0x02 : i); /* a local address */
	*step = "set the queue pairs";
	err = pairs_start();
	if (err)
		return err;
	printf("net: %s: virtio-net %02x:%02x:%02x:%02x:%02x:%02x, link %s, %u buffers a queue\n",
	       tacet_service_name(), mac[0], mac[1], mac[2], mac[3], mac[4], mac[5],
	       link_up() ? "up" : "down", QUEUE_SIZE);
	print_pairs();
	if (tacet_instance()) /* restarted: was the device left quiet? */
		printf("net: %s: instance %lu: the device's Status was %#x at start\n",
		       tacet_service_name(), tacet_instance(), (unsigned int)vdev.found);
	*step = "start the pairs' threads";
	return pairs_run();
}
