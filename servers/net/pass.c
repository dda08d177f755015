/* pass.c: the net server's data path: a pass over a queue pair, with both its queues'
 * interrupts off (NAPI): at most BUDGET completions a queue taken (received frames into the
 * receiver's rx_used, sent ones into their sessions' tx_done), new work offered (every live
 * session's tx_ready onto the transmit queue, from a different session each pass; the
 * receiver's rx_free onto the receive queue, up to its share), the clients told (publish). A
 * pass that used its budget asks for another (a poll bit on its thread's notification, so
 * that calls are answered in between); one that did not turns the interrupts on, sets the
 * clients' rings' asleep flags, and looks again, so that nothing that came meanwhile waits for
 * an interrupt that will not come. After a reset, the buffers the device held are sorted out
 * here too (pair_reoffer). The data path's counts are this file's alone, and so are the calls
 * that report them (NET_STATS, NET_ERRORS, NET_QUEUE).
 *
 * Who passes: the main thread (event, from the kit's loop: the device's one line or its
 * configuration vector, a pass asked for, a client's signal) over every pair; a pair's thread
 * (pair_run, pinned on the pair's hart, woken by its queues' vectors) over its own. Which
 * receive queue a frame lands in is the device's choice; frames to send are taken from every
 * session by whichever thread passes over its pair. Locking
 * (net.h): each pass under the lock; a pair's thread leaves a reset and a sweep to the main
 * thread (reset_soon, sweep_due). */
#include <tacet.h>
#include <tacet/net_server.h>
#include "net.h"

#define BUDGET       64  /* completions a queue, a pass */

_Static_assert(NET_HEADROOM == 12, "the virtio-net header with VIRTIO_F_VERSION_1");

/* Defined only by the test build net_dying (servers/tests/netdying.c): told the frames received
 * so far, it faults, so that net dies with the client's buffers at the device. */
void net_received(uint64_t frames) __attribute__((weak));

static uint64_t rx_packets, tx_packets, irqs, drops, rx_short, polls, most;
static unsigned int next_tx; /* the first session a pass sends */
static const char *reset_why; /* a reset is due at the next pass's start: why */

/* Is s a better receiver than r (NULL: none)? A granted session before any other, then the
 * earlier started. */
static int better(const struct session *s, const struct session *r)
{
	return !r || s->granted > r->granted || (s->granted == r->granted && s->seq < r->seq);
}

/* The session whose buffers stock the receive queue: the best live one (better). */
struct session *receiver(void)
{
	struct session *r = NULL;

	for (unsigned int i = 0; i < MAX_SESSIONS; i++)
		if (live(&sessions[i]) && better(&sessions[i], r))
			r = &sessions[i];
	return r;
}

/* A device reset at the next pass's start (never in the middle of one: a completion in hand
 * would be retired twice). */
void reset_soon(const char *why)
{
	if (!reset_why)
		reset_why = why;
	tacet_signal(dev.ntfn_slot, POLL_BIT);
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
void publish(void)
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
void pair_run(void *arg)
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
/* p's buffers off the device after a reset: frames being sent count as sent (to tx_done: lost on
 * the wire); receive buffers of a session that is still the receiver are offered again, those
 * of another live session given back to it empty, the rest retired. */
void pair_reoffer(struct pair *p)
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

/* The device's notification: its interrupt (the one line, or with MSI-X the configuration's
 * vector: the interrupt status cleared, then the line acknowledged, then a pass), a pass asked
 * for, or a client's signal. An MSI-X vector's message is the device's whatever the ISR says. */
void event(struct tacet_device *d, long ev)
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

/* --- the counts' calls (the main thread's, from net.c's dispatch) ---------------------------- */

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
