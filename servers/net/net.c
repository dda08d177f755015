/* net: the virtio-net driver (device ID 1: a virtio-mmio transport, init.run=
 * `net=net0:virtio-net#0`, else a virtio-net-pci function claimed from the "pci" server; the
 * kit's virtio_probe picks) and the network device service it publishes under its entry's
 * first name (<tacet/net_proto.h>, decoded by the dispatch generated from lib/proto/net.proto;
 * docs/net.md explains the design).
 *
 * Owns the device's queue pairs (a receive and a transmit queue each, QUEUE_SIZE one-descriptor
 * chains a queue: a client's buffer, its NET_HEADROOM bytes of virtio-net header first) and the
 * sessions (lib's
 * <tacet/session.h> table; a session's four rings are in a frame the client granted, mapped
 * here; its two data areas are pinned to the device and never mapped: no frame is copied or
 * read). The receive queue is stocked from one session, the receiver: of the live sessions, one
 * whose client's init.run= entry grants it `[NAME=receive]` (asked with INIT_GRANT), else the
 * earliest started; every session sends.
 *
 * Queue pairs (VIRTIO_NET_F_MQ): where the device has MSI-X (virtio-pci on the AIA's machine),
 * one pair a hart, up to the device's max_virtqueue_pairs and PAIRS_MAX (pair k on hart k, set
 * with the control queue's VQ_PAIRS_SET): each queue signals a vector of its own (queue i:
 * vector i + 1) on its pair's hart, served by a thread of this server pinned there (pair_run);
 * vector 0, the probe's, on the main thread's hart, takes configuration changes. Elsewhere
 * (virtio-mmio, INTx) one pair, whose queues signal the device's one line, which the main
 * thread serves. Which receive queue a frame lands in is the device's choice; frames to send
 * are taken from every session by whichever thread passes over its pair.
 *
 * Interrupt mitigation (NAPI): a pass over a pair runs with both its queues' interrupts off
 * and takes at most BUDGET completions a queue; a pass that used its budget asks for another
 * (a poll bit on its thread's notification, so that calls are answered in between); one that
 * did not turns the interrupts on, sets the clients' rings' asleep flags, and looks again, so
 * that nothing that came meanwhile waits for an interrupt that will not come. The main thread
 * passes over every pair when a client signals.
 *
 * A session whose rings lie is stopped (nothing more taken from it or given to it); an ended or
 * stopped session's areas are unpinned once the device holds none of its buffers (the receiver's
 * receive buffers are taken back at once by a device reset, after which the device holds
 * nothing).
 *
 * Locking: one lock (lock(), a word threads take in turn, yielding while another holds it)
 * over everything but the kit's own state: the main thread (the kit's loop: calls, the
 * configuration's or the one line's interrupt, the clients' signals) takes it for each call
 * and pass, a pair's thread for each pass over its pair. Only the main thread touches lib's
 * slots, stdio outside the lock, and the device's reset: a pair's thread leaves what needs
 * them (a session to detach or free, a reset) to it (sweep, reset_soon). Prints only through
 * the kernel's debug output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/net_server.h>
#include <tacet/ring.h>
#include <tacet/virtio.h>

#define QUEUE_SIZE   128 /* the most one page takes */
#define PAIRS_MAX    4   /* queue pairs: one a hart */
#define RXQ(k)       (2 * (k))     /* pair k's queues' indices */
#define TXQ(k)       (2 * (k) + 1)
#define BUDGET       64  /* completions a queue, a pass */
#define CTRL_SIZE    8   /* the control queue's entries: one command at a time */
#define CTRL_POLLS   1000 /* a command's answer looked for this often, */
#define CTRL_PAUSE_NS 1000000ull /* 1 ms apart */
#define STACK_BYTES  16384 /* a pair thread's stack */
#define CONFIG_VECTOR 0  /* MSI-X: configuration changes (the probe's vector, the main thread) */
#define PAIR_RX_BIT   1ul /* a pair thread's notification: its receive queue's vector, */
#define PAIR_TX_BIT   2ul /* its transmit queue's, */
#define PAIR_POLL_BIT 4ul /* another pass is due */
#define MAX_CLIENTS  TACET_SESSIONS_MAX
#define MAX_SESSIONS 16  /* open, or ended with buffers at the device */
#define SESSION_BIT(i) (1ul << (40 + (i))) /* a session's signal: above the table's watches */
#define SESSION_BITS   (((1ul << MAX_SESSIONS) - 1) << 40)
#define POLL_BIT       (1ul << 62) /* this server's own: another pass is due */

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

_Static_assert(NET_HEADROOM == 12, "the virtio-net header with VIRTIO_F_VERSION_1");
_Static_assert(40 + MAX_SESSIONS <= 62, "the sessions' bits below POLL_BIT");
_Static_assert(2 * PAIRS_MAX + 1 <= VIRTIO_MSIX_MAX, "a vector a queue, and the configuration's");

/* Defined only by the test build net_dying (servers/tests/netdying.c): told the frames received
 * so far, it faults, so that net dies with the client's buffers at the device. */
void net_received(uint64_t frames) __attribute__((weak));

struct area {          /* a data area: the client's frame, pinned to the device */
	unsigned long slot; /* 0: none attached */
	uint64_t pa;
	uint32_t size;      /* bytes the client said (at most the frame's) */
};

struct session {
	unsigned long badge;  /* 0: free */
	int open;             /* the client's session is open */
	int started;          /* NET_START done: its rings are live */
	int stopped;          /* its rings lied: nothing more taken or given */
	int granted;          /* its client's init.run= entry grants it `[NAME=receive]` */
	uint64_t seq;         /* start order: the receiver is the earliest (granted first) */
	struct area rx, tx;
	unsigned long rings_slot, rings_va, rings_pages; /* mapped here (0: none) */
	uint32_t capacity;
	unsigned long ntfn, bits; /* the client's notification (a slot) and what to signal */
	struct ring rx_free, rx_used, tx_ready, tx_done;
	unsigned int at_rx, at_tx; /* its buffers the device holds, on each kind of queue */
	int put_rx, put_tx;       /* descriptors put since the last publish */
	int detach_due;           /* stopped by a pass: 1, 2 if it was the receiver; sweep() */
};

struct buf { /* a chain at the device (its token) */
	struct session *s;
	struct ring_desc d; /* as the client put it */
};

struct queue {
	struct virtq q;
	unsigned int index;           /* the device's number for it */
	int rx;                       /* a receive queue (else transmit) */
	struct buf bufs[QUEUE_SIZE];
	struct buf *free[QUEUE_SIZE]; /* bufs not at the device */
	unsigned int nfree;
	void *mem;                    /* the rings' memory, laid out again after a reset */
	uint64_t pa;
	unsigned long irq_slot;       /* its own vector's line (a pair thread's), 0: the one line */
	unsigned int line;
	uint64_t base;                /* the line's count (the kernel's) at this instance's start */
	uint64_t irqs, done;          /* interrupts taken on its own line; completions taken */
};

struct pair {
	struct queue rx, tx;
	unsigned int hart;  /* its thread's, and its vectors' */
	unsigned long ntfn; /* its thread's notification (0: no thread, the main one serves it) */
};

struct ctrl_cmd { /* the control queue's one command: what the device reads, then writes */
	uint8_t class, command;
	uint16_t pairs;
	uint8_t ack;
};

static struct tacet_device dev;
static struct tacet_service svc;
static struct tacet_sessions table;
static struct virtio_device vdev;
static struct pair pairs[PAIRS_MAX];
static unsigned int npairs = 1, max_pairs = 1, nharts = 1, main_hart;
static uint64_t dev_base; /* the device's line's count at this instance's start */
static unsigned int rx_kept; /* a receive queue's descriptors kept free: QUEUE_SIZE - its share */
static struct {
	struct virtq q;
	unsigned int index; /* 0: no control queue */
	struct tacet_dma cmd; /* a struct ctrl_cmd */
} ctrl;
static uint8_t stacks[PAIRS_MAX][STACK_BYTES] __attribute__((aligned(16)));
static int busy; /* the lock's word */
static int sweep_due; /* a session to detach or free: the main thread's next pass */
static struct session sessions[MAX_SESSIONS];
static struct session *clients[MAX_CLIENTS]; /* badge b's open session */
static signed char may_receive[MAX_CLIENTS]; /* badge b's `[NAME=receive]`: 1, 0, -1 not asked */
static uint8_t mac[ETH_ALEN];
static uint64_t seqs, rx_packets, tx_packets, irqs, drops, stopped, rx_short, polls, most;
static unsigned int client_slots, resets, next_tx; /* next_tx: the first session a pass sends */
static const char *reset_why; /* a reset is due at the next pass's start: why */

#define has(bit) (!!(vdev.features & VIRTIO_FEATURE(bit)))

/* --- the lock -------------------------------------------------------------------------------- */

/* Taken by one thread at a time, never twice by one; a thread that finds it held gives its
 * hart to whoever is ready there (the holder, if it runs on the same hart). */
static void lock(void)
{
	while (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
		tacet_yield();
}

static void unlock(void)
{
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
}

/* --- capability slots for what clients give: lib's pool, counted (NET_USAGE) ------------- */

static long slot_copy(unsigned long from, unsigned long rights, unsigned long *into)
{
	long slot = tacet_slot_alloc(), err;

	if (slot < 0)
		return -TACET_ENOMEM;
	err = tacet_cap_copy(from, (unsigned long)slot, rights, 0);
	if (err) {
		tacet_slot_free((unsigned long)slot);
		return err;
	}
	client_slots++;
	*into = (unsigned long)slot;
	return 0;
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

static int live(const struct session *s)
{
	return s->badge && s->open && s->started && !s->stopped;
}

/* Is s a better receiver than r (NULL: none)? A granted session before any other, then the
 * earlier started. */
static int better(const struct session *s, const struct session *r)
{
	return !r || s->granted > r->granted || (s->granted == r->granted && s->seq < r->seq);
}

/* The session whose buffers stock the receive queue: the best live one (better). */
static struct session *receiver(void)
{
	struct session *r = NULL;

	for (unsigned int i = 0; i < MAX_SESSIONS; i++)
		if (live(&sessions[i]) && better(&sessions[i], r))
			r = &sessions[i];
	return r;
}

static void area_free(struct area *a)
{
	if (a->slot)
		tacet_frame_unpin(a->slot, dev.frame_slot);
	slot_free(&a->slot);
	*a = (struct area){ 0 };
}

static void rings_unmap(struct session *s)
{
	if (s->rings_va) {
		tacet_unmap(TACET_CHILD_SELF, s->rings_va, s->rings_pages);
		tacet_va_free(s->rings_va, s->rings_pages);
	}
	s->rings_va = 0;
	slot_free(&s->rings_slot);
}

/* No client any more and nothing at the device: everything back. */
static void session_free(struct session *s)
{
	area_free(&s->rx);
	area_free(&s->tx);
	rings_unmap(s);
	slot_free(&s->ntfn);
	*s = (struct session){ 0 };
}

/* A device reset at the next pass's start (never in the middle of one: a completion in hand
 * would be retired twice). */
static void reset_soon(const char *why)
{
	if (!reset_why)
		reset_why = why;
	tacet_signal(dev.ntfn_slot, POLL_BIT);
}

/* s gives nothing more and takes nothing more (ended or stopped): the receive buffers the
 * device holds for it come back soon, by a reset (the device gives no buffer back otherwise
 * until a frame fills it, which may be never); the transmit ones as the device sends them. */
static void session_detach(struct session *s, int was_receiver)
{
	slot_free(&s->ntfn);
	if (was_receiver && s->at_rx)
		reset_soon("its receiving session ended");
	if (!s->open && !s->at_rx && !s->at_tx)
		session_free(s);
}

/* Badge's session ended (lib's table: its process ended, NET_CLOSE, or a new NET_OPEN). The
 * main thread's, without the lock. */
static void ended(struct tacet_sessions *t, unsigned long badge, void *state)
{
	struct session *s = clients[badge - 1]; /* only the main thread writes clients[] */
	int was_receiver;

	(void)t, (void)state;
	if (!s)
		return;
	lock();
	was_receiver = receiver() == s;
	clients[badge - 1] = NULL;
	s->open = 0;
	session_detach(s, was_receiver);
	unlock();
}

/* s lied in its rings (why): stopped, counted once; the client closes or opens again. Any
 * thread, the lock held: the detach is the main thread's (sweep). */
static void session_stop(struct session *s, const char *why)
{
	int was_receiver = receiver() == s;

	if (s->stopped)
		return;
	printf("net: %s: stopping the session of badge %lu: %s\n", tacet_service_name(), s->badge,
	       why);
	s->stopped = 1;
	stopped++;
	s->detach_due = 1 + was_receiver;
	sweep_due = 1;
}

/* The main thread's, the lock held: stopped sessions detached, ended ones the device holds
 * nothing of any more freed. */
static void sweep(void)
{
	sweep_due = 0;
	for (unsigned int i = 0; i < MAX_SESSIONS; i++) {
		struct session *s = &sessions[i];
		int due = s->detach_due;

		if (!s->badge)
			continue;
		s->detach_due = 0;
		if (due)
			session_detach(s, due > 1);
		else if (!s->open && !s->at_rx && !s->at_tx)
			session_free(s);
	}
}

/* --- the queues ------------------------------------------------------------------------------ */

/* Offer the device buffer d of s on queue q (rx, a constant where it is inlined: q is a receive
 * queue, the device writes the buffer; else it reads it). */
static void offer(struct queue *q, struct session *s, const struct ring_desc *d, int rx)
{
	const struct area *a = rx ? &s->rx : &s->tx;
	struct buf *b = q->free[--q->nfree];
	struct virtq_buf vb = { a->pa + d->offset - NET_HEADROOM, d->len + NET_HEADROOM };

	b->s = s;
	b->d = *d;
	virtq_add(&q->q, &vb, rx ? 0 : 1, rx ? 1 : 0, b); /* one descriptor: always fits */
	if (rx)
		s->at_rx++;
	else
		s->at_tx++;
}

/* A buffer is off the device; a session that ended is freed by the next sweep once the device
 * holds none of its buffers. */
static void retire(struct queue *q, struct buf *b, int rx)
{
	struct session *s = b->s;

	b->s = NULL;
	q->free[q->nfree++] = b;
	if (rx)
		s->at_rx--;
	else
		s->at_tx--;
	if (!s->at_rx && !s->at_tx && !s->open)
		sweep_due = 1;
}

/* Buffer b of live session s back to it empty (a descriptor of length 0 in rx_used), where the
 * device gives it back without a frame: s is not (or no longer) the receiver. 0, or the ring's
 * refusal. */
static int give_back(struct session *s, const struct buf *b)
{
	struct ring_desc d = { b->d.offset, 0 };
	int r = ring_put(&s->rx_used, &d);

	s->put_rx |= r == 0;
	return r;
}

/* A received frame in b (len bytes written, header included) to its session's rx_used. A
 * malformed one (shorter than an Ethernet header) is dropped; so is one for a client whose
 * rx_used is full (it does not consume); the buffer then goes to the device again (the
 * receiver's) or back to its session empty (any other's). */
static void received(struct queue *q, struct buf *b, uint32_t len)
{
	struct session *s = b->s;
	struct ring_desc d = { b->d.offset, len - NET_HEADROOM };
	int r = -TACET_EBUSY, bad = len < NET_HEADROOM + NET_FRAME_MIN ||
				    len > b->d.len + NET_HEADROOM;

	if (!live(s)) {
		retire(q, b, 1);
		return;
	}
	if (bad)
		rx_short++, drops++;
	else if ((r = ring_put(&s->rx_used, &d)) == 0)
		rx_packets++, s->put_rx = 1;
	else if (r == -TACET_EBUSY)
		drops++;
	if (r == -TACET_EBUSY && receiver() == s) {
		d = b->d;
		retire(q, b, 1);
		offer(q, s, &d, 1);
		return;
	}
	if (bad && give_back(s, b) == -TACET_EINVAL)
		r = -TACET_EINVAL;
	if (r == -TACET_EINVAL)
		session_stop(s, "its rx_used head is garbage");
	retire(q, b, 1);
	if (r == 0 && net_received)
		net_received(rx_packets);
}

static void sent(struct queue *q, struct buf *b)
{
	struct session *s = b->s;

	tx_packets++;
	if (live(s) && ring_put(&s->tx_done, &b->d) == 0)
		s->put_tx = 1;
	else if (live(s))
		session_stop(s, "its tx_done is full or its head garbage");
	retire(q, b, 0);
}

/* Up to BUDGET completions of each of p's queues; 1 if either had more. */
static int reap(struct pair *p)
{
	unsigned int n = 0, m = 0;
	uint32_t len = 0;
	struct buf *b;

	while (n < BUDGET && (b = virtq_get(&p->rx.q, &len))) {
		received(&p->rx, b, len);
		n++;
	}
	while (m < BUDGET && (b = virtq_get(&p->tx.q, NULL))) {
		sent(&p->tx, b);
		m++;
	}
	p->rx.done += n;
	p->tx.done += m;
	return n == BUDGET || m == BUDGET;
}

/* The next descriptor of ring r (rx_free or tx_ready of s), checked: 1, 0 (none), or -1 (the
 * session lied: stopped). */
static int take(struct session *s, struct ring *r, struct ring_desc *d, int rx)
{
	int got = ring_get(r, d);

	if (got < 0) {
		session_stop(s, got == -TACET_ERANGE ? "a descriptor outside its area" :
						       "a ring index that is garbage");
		return -1;
	}
	if (!got)
		return 0;
	if (d->offset < NET_HEADROOM || (rx ? d->len < NET_FRAME_MAX :
					  d->len < NET_FRAME_MIN || d->len > NET_FRAME_MAX)) {
		session_stop(s, rx ? "a receive buffer without headroom or too short" :
				     "a frame without headroom or of a length out of bounds");
		return -1;
	}
	return 1;
}

/* Hand the taken slots of ring r back to the client (and wake it if it waits for room). */
static void release(struct session *s, struct ring *r)
{
	if (ring_release(r) && s->ntfn)
		tacet_signal(s->ntfn, s->bits);
}

/* Room for the receiver's buffers on a receive queue: all of it with one pair, else a share
 * (rx_kept descriptors stay free), so that every pair's queue has some. */
static int rx_room(const struct queue *q)
{
	return q->nfree > rx_kept;
}

/* Every live session's frames to send onto p's transmit queue, one session after another from
 * next_tx, while it has room; then the receiver's free buffers onto p's receive queue. */
static void fill(struct pair *p)
{
	struct session *r = receiver();
	struct ring_desc d;
	unsigned int inflight;

	for (unsigned int k = 0; k < MAX_SESSIONS && p->tx.nfree; k++) {
		struct session *s = &sessions[(next_tx + k) % MAX_SESSIONS];
		int got = 0, t;

		while (live(s) && p->tx.nfree && (t = take(s, &s->tx_ready, &d, 0)) == 1) {
			offer(&p->tx, s, &d, 0);
			got++;
		}
		if (got && live(s))
			release(s, &s->tx_ready);
	}
	next_tx = (next_tx + 1) % MAX_SESSIONS;
	if (r) {
		int got = 0;

		while (live(r) && rx_room(&p->rx) && take(r, &r->rx_free, &d, 1) == 1) {
			offer(&p->rx, r, &d, 1);
			got++;
		}
		if (got && live(r))
			release(r, &r->rx_free);
	}
	inflight = QUEUE_SIZE - p->tx.nfree;
	if (inflight > most)
		most = inflight;
	if (virtq_kick_needed(&p->tx.q))
		virtio_notify(&vdev, p->tx.index);
	if (virtq_kick_needed(&p->rx.q))
		virtio_notify(&vdev, p->rx.index);
}

/* What was put into the clients' rings this pass made visible, each client woken if it
 * sleeps. */
static void publish(void)
{
	for (unsigned int i = 0; i < MAX_SESSIONS; i++) {
		struct session *s = &sessions[i];
		int wake = 0;

		if (!live(s))
			continue;
		if (s->put_rx)
			wake |= ring_publish(&s->rx_used);
		if (s->put_tx)
			wake |= ring_publish(&s->tx_done);
		s->put_rx = s->put_tx = 0;
		if (wake)
			tacet_signal(s->ntfn, s->bits);
	}
}

/* Before p's side sleeps: the live sessions' rings it would take from now marked asleep (a
 * client's publish then signals). 1 = sleep, 0 = something came meanwhile. */
static int clients_sleep(struct pair *p)
{
	struct session *r = receiver();

	for (unsigned int i = 0; i < MAX_SESSIONS; i++) {
		struct session *s = &sessions[i];

		if (live(s) && p->tx.nfree && !ring_consumer_sleep(&s->tx_ready))
			return 0;
	}
	return !(r && rx_room(&p->rx) && !ring_consumer_sleep(&r->rx_free));
}

static void device_reset(const char *why);

/* One pass over p, its queues' interrupts off: completions, new work, the clients told; then
 * either another pass is due (1: work left, interrupts stay off) or interrupts go on and both
 * sides' wake-ups are armed, with a last look for what came meanwhile. The lock held. */
static int pair_pass(struct pair *p)
{
	int more;

	polls++;
	virtq_irq_disable(&p->rx.q);
	virtq_irq_disable(&p->tx.q);
	more = reap(p);
	fill(p);
	publish();
	if (!more) {
		more = virtq_irq_enable(&p->rx.q);
		more |= virtq_irq_enable(&p->tx.q);
		more |= !clients_sleep(p);
	}
	return more;
}

static int queues_broken(void);

/* On the device's interrupt (the one line's, or the configuration's vector), the lock held:
 * a reset made due if the device broke a queue or asks for one. */
static void interrupted(uint32_t status)
{
	if (queues_broken())
		reset_soon("the device returned a buffer it was not given");
	else if ((status & VIRTIO_INT_CONFIG) &&
		 (virtio_status(&vdev) & VIRTIO_STATUS_NEEDS_RESET))
		reset_soon("the device needs a reset (NEEDS_RESET)");
}

/* The main thread's pass (after the device's interrupt: irq 1 and its status): a reset that is
 * due, every pair, then the sweep; another pass is asked for if a pair had work left. Every
 * interrupt the line delivered counts, one that found the status already clear too (INTx on
 * QEMU's PLIC: a level it latched while the line was masked, whose status an earlier read
 * took; docs/net.md): the count is the line's, as the kernel's. */
static void pass(int irq, uint32_t status)
{
	int more = 0;

	lock();
	irqs += (unsigned int)irq;
	if (irq)
		interrupted(status);
	if (reset_why) {
		const char *why = reset_why;

		reset_why = NULL;
		device_reset(why);
	}
	for (unsigned int k = 0; k < npairs; k++)
		more |= pair_pass(&pairs[k]);
	if (sweep_due)
		sweep();
	unlock();
	if (more)
		tacet_signal(dev.ntfn_slot, POLL_BIT);
}

static int queues_broken(void)
{
	for (unsigned int k = 0; k < npairs; k++)
		if (pairs[k].rx.q.broken || pairs[k].tx.q.broken)
			return 1;
	return 0;
}

/* Pair p's thread, on p's hart: each wake-up (its queues' vectors, or a pass asked for) a pass
 * over p, then its lines acknowledged; what only the main thread may do (a reset, a sweep) is
 * left to it. */
static void pair_run(void *arg)
{
	struct pair *p = arg;

	for (;;) {
		long bits = tacet_wait(p->ntfn);
		int more = 0, main_due;

		if (bits < 0)
			continue;
		lock();
		if (bits & PAIR_RX_BIT)
			p->rx.irqs++, irqs++;
		if (bits & PAIR_TX_BIT)
			p->tx.irqs++, irqs++;
		if (queues_broken())
			reset_soon("the device returned a buffer it was not given");
		if (!reset_why)
			more = pair_pass(p);
		main_due = sweep_due;
		unlock();
		if (bits & PAIR_RX_BIT)
			tacet_irq_ack(p->rx.irq_slot, 1);
		if (bits & PAIR_TX_BIT)
			tacet_irq_ack(p->tx.irq_slot, 1);
		if (more)
			tacet_signal(p->ntfn, PAIR_POLL_BIT);
		if (main_due)
			tacet_signal(dev.ntfn_slot, POLL_BIT);
	}
}

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

/* p's buffers off the device after a reset: frames being sent count as sent (to tx_done: lost on
 * the wire); receive buffers of a session that is still the receiver are offered again, those
 * of another live session given back to it empty, the rest retired. */
static void pair_reoffer(struct pair *p)
{
	struct buf held[QUEUE_SIZE];
	unsigned int nheld = 0;

	for (unsigned int i = 0; i < QUEUE_SIZE; i++) {
		if (p->tx.bufs[i].s)
			sent(&p->tx, &p->tx.bufs[i]);
		if (p->rx.bufs[i].s) {
			held[nheld++] = p->rx.bufs[i];
			retire(&p->rx, &p->rx.bufs[i], 1);
		}
	}
	for (unsigned int i = 0; i < nheld; i++) {
		if (!live(held[i].s))
			continue;
		if (receiver() == held[i].s)
			offer(&p->rx, held[i].s, &held[i].d, 1);
		else if (give_back(held[i].s, &held[i]) == -TACET_EINVAL)
			session_stop(held[i].s, "its rx_used head is garbage");
	}
}

/* Reset the device and set the queues up again: it holds no buffer after it (pair_reoffer).
 * Gives up (exit: init may restart net) if the device does not come back. The main thread's,
 * the lock held. */
static void device_reset(const char *why)
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

static int link_up(void)
{
	return !has(VIRTIO_NET_F_STATUS) ||
	       (virtio_config_read(&vdev, CONFIG_STATUS, 2) & VIRTIO_NET_S_LINK_UP);
}

/* The device's notification: its interrupt (the one line, or with MSI-X the configuration's
 * vector: the interrupt status cleared, then the line acknowledged, then a pass), a pass asked
 * for, or a client's signal. An MSI-X vector's message is the device's whatever the ISR says. */
static void event(struct tacet_device *d, long ev)
{
	if (ev & TACET_DEVICE_IRQ) {
		uint32_t status = virtio_interrupt_ack(&vdev);
		int handled = status != 0 || pairs[0].ntfn;

		tacet_device_ack(d, handled);
		pass(1, status);
		return;
	}
	if ((unsigned long)ev & (POLL_BIT | SESSION_BITS))
		pass(0, 0);
}

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

long net_serve_start(struct tacet_service *svc, uint64_t bits, unsigned long ntfn,
		     unsigned long *peer)
{
	long err;

	lock();
	err = start_locked(svc, bits, ntfn, peer);
	unlock();
	return err;
}

long net_serve_stats(struct tacet_service *s, uint64_t *rx, uint64_t *tx, uint64_t *handled,
		     uint64_t *dropped)
{
	(void)s;
	lock();
	*rx = rx_packets, *tx = tx_packets, *handled = irqs, *dropped = drops;
	unlock();
	return 0;
}

long net_serve_errors(struct tacet_service *s, uint64_t *nstopped, uint64_t *short_frames,
		      uint64_t *passes, uint64_t *most_at_once)
{
	(void)s;
	lock();
	*nstopped = stopped, *short_frames = rx_short, *passes = polls, *most_at_once = most;
	unlock();
	return 0;
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

long net_serve_queue(struct tacet_service *s, uint64_t index, uint64_t *line, uint64_t *hart,
		     uint64_t *nirqs, uint64_t *done)
{
	struct pair *p = index < 2 * npairs ? &pairs[index / 2] : NULL;
	struct queue *q = p ? (index % 2 ? &p->tx : &p->rx) : NULL;

	(void)s;
	if (!q)
		return -TACET_ENOENT;
	lock();
	*line = p->ntfn ? q->line : dev.irq;
	*hart = p->ntfn ? p->hart : main_hart;
	*nirqs = p->ntfn ? q->irqs : irqs;
	*done = q->done;
	unlock();
	return 0;
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

static long setup(const char **step)
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
