/* blk.c: the block service's client (<tacet/blk.h>, <tacet/blk_proto.h>, the stubs generated
 * from lib/proto/blk.proto): a session opened with this process's watch-only capability, a
 * buffer frame and a notification attached to "blk", request ids taken and collected here. An id
 * goes back to the free set only when its bit has been seen and its status byte read, so the
 * service (which refuses an id it still holds) and this side always agree on which are in
 * flight: a -TACET_EBUSY from the service for an id chosen here is therefore always "your share
 * is used", and is tried again after one of this client's completions or the service's
 * BLK_RETRY_BIT. Waits end at b->timeout_ns (a timer on the notification, TIMER_BIT, armed once
 * for as long as it is not due). A service that ended is reached again on its next instance and
 * every request in flight submitted again (reconnect: b->req keeps them as submitted); a wait
 * learns of the end at once, by the kernel's watch of the service's endpoint (GONE_BIT), not at
 * its timeout. A reconnect that finds no instance (none published within its wait) keeps the
 * ended one's endpoint, so that the next submission or wait meets the end again and tries
 * again. An id is in b->busy for as long as any instance may hold its request: a request
 * the next instance refuses when submitted again is done in lib with that refusal
 * (b->req[id].refused, its wait's answer), the others submitted again all the same, and the
 * submission or wait whose call met the end answers for its own request only. A submission
 * that fails frees its id only when no instance holds it. Not thread-safe: one thread per
 * struct tacet_blk. */
#include <string.h>
#include <tacet.h>
#include <tacet/blk.h>
#include <tacet/blk_client.h>
#include <tacet/init_proto.h>

#define SHIFT     0                   /* request id i is bit i */
#define RETRY_BIT BLK_RETRY_BIT(SHIFT) /* bit 16 */
#define TIMER_BIT (1ul << 17)          /* this side's own: a wait's deadline */
#define GONE_BIT  (1ul << 18)          /* this side's own: the service's endpoint ended */
#define IDS_MASK  ((1ul << BLK_IDS) - 1)
#define RECONNECT_TRIES   1000 /* lookups that may still reach the ended instance's name */
#define RECONNECT_WAIT_MS 10000 /* for init to publish the next instance's */
#define BLK_WAIT_REPORTS  4     /* instances one wait reports stuck, at most (await) */

/* Into `copy` (a slot of lib's kept for one exchange): the capability in slot with only
 * `rights`, whatever the call before left there gone. */
static long copy_into(unsigned long copy, unsigned long slot, unsigned long rights)
{
	tacet_cap_delete(copy);
	return tacet_cap_copy(slot, copy, rights, 0);
}

/* The session on the service b->ep reaches: opened with this process's watch-only capability,
 * the buffer and the notification attached; the sectors granted into b. */
static long session(struct tacet_blk *b)
{
	uint64_t first = 0, sectors = 0;
	long copy = tacet_slot_alloc(), err = copy < 0 ? copy : 0;
	unsigned long c = (unsigned long)copy;

	/* the service watches this process (no right: it can do nothing else) */
	if (!err && !(err = copy_into(c, TACET_CHILD_SELF, 0)))
		err = blk_call_open(b->ep, c, &first, &sectors);
	if (!err && !(err = copy_into(c, b->buf.slot, TACET_RIGHT_READ | TACET_RIGHT_WRITE)))
		err = blk_call_attach(b->ep, b->bytes, c);
	if (!err && !(err = copy_into(c, b->ntfn, TACET_RIGHT_WRITE)))
		err = blk_call_attach(b->ep, SHIFT, c);
	if (copy >= 0)
		tacet_slot_free(c);
	if (!err)
		err = tacet_endpoint_watch(b->ep, b->ntfn, GONE_BIT);
	if (!err) {
		b->first = first;
		b->sectors = sectors;
	}
	return err;
}

long tacet_blk_open(struct tacet_blk *b, unsigned long bytes, unsigned int tries)
{
	uint64_t capacity = 0, sector_size = 0, read_only = 0;
	long ep = tacet_slot_alloc(), ntfn = tacet_slot_alloc(), err;

	memset(b, 0, sizeof(*b));
	err = ep < 0 ? ep : ntfn < 0 ? ntfn : !bytes || bytes % BLK_SECTOR ? -TACET_EINVAL : 0;
	if (!err)
		err = tacet_lookup_instance("blk", (unsigned long)ep, tries, &b->instance);
	if (!err)
		err = blk_call_info((unsigned long)ep, &capacity, &sector_size, &read_only);
	if (!err)
		err = tacet_ntfn_new((unsigned long)ntfn);
	if (!err)
		err = tacet_dma_alloc(bytes + BLK_SECTOR, &b->buf);
	b->ep = ep < 0 ? 0 : (unsigned long)ep;
	b->ntfn = ntfn < 0 ? 0 : (unsigned long)ntfn;
	b->bytes = bytes;
	if (!err)
		err = session(b);
	if (err) {
		tacet_blk_close(b);
		return err;
	}
	b->status = (volatile uint8_t *)b->buf.va + bytes;
	b->capacity = capacity;
	b->read_only = read_only != 0;
	b->timeout_ns = TACET_BLK_TIMEOUT_NS;
	return 0;
}

void tacet_blk_close(struct tacet_blk *b)
{
	if (b->ep) {
		/* the service keeps the frame until the device is done with what is in flight */
		blk_call_close(b->ep);
		tacet_slot_free(b->ep);
	}
	if (b->ntfn)
		tacet_slot_free(b->ntfn); /* its timer goes with it */
	tacet_dma_free(&b->buf);
	memset(b, 0, sizeof(*b));
}

/* The next bits of the notification, or -TACET_EBUSY once deadline (timebase ticks; 0: none)
 * has passed. The timer is armed only when none is armed for before the deadline: deadlines
 * only move on, so a burst of waits arms it once. */
static long take_bits(struct tacet_blk *b, uint64_t deadline)
{
	long bits;

	if (deadline && (!b->armed || b->armed > deadline)) {
		if (tacet_timer_set(b->ntfn, TIMER_BIT, deadline) == 0)
			b->armed = deadline;
	}
	bits = tacet_wait(b->ntfn);
	if (bits < 0)
		return bits;
	if ((unsigned long)bits & TIMER_BIT) {
		b->armed = 0;
		if ((unsigned long)bits & (IDS_MASK | RETRY_BIT | GONE_BIT))
			return bits & ~(long)TIMER_BIT;
		return deadline && tacet_time() >= deadline ? -TACET_EBUSY : 0;
	}
	return bits;
}

static uint64_t deadline_of(struct tacet_blk *b)
{
	return b->timeout_ns ? tacet_time() + tacet_ns_to_ticks(b->timeout_ns) : 0;
}

/* One wait for the notification's bits (the deadline fixed at a call's first wait), the
 * completions among them kept in b->done: 0, or the error (the service ended: -TACET_EDEAD;
 * the timeout: -TACET_EBUSY). */
static long wait_bits(struct tacet_blk *b, uint64_t *deadline)
{
	long bits;

	if (!*deadline)
		*deadline = deadline_of(b);
	bits = take_bits(b, *deadline);
	if (bits < 0)
		return bits;
	b->done |= (uint32_t)bits & b->busy;
	if ((unsigned long)bits & GONE_BIT) {
		b->ends_seen++;
		return -TACET_EDEAD;
	}
	return 0;
}

/* Request q as id: its call's answer (0, BLK_DONE) or a negative TACET_E* code. */
static long submit(struct tacet_blk *b, const struct tacet_blk_req *q, unsigned long id)
{
	if (q->op == BLK_READ)
		return blk_call_read(b->ep, q->sector, q->count, q->offset, id);
	if (q->op == BLK_WRITE)
		return blk_call_write(b->ep, q->sector, q->count, q->offset, id);
	return blk_call_flush(b->ep, q->sector, q->count, q->offset, id);
}

/* Request id to the service as b->req[id] says, submitted again after a refusal for the
 * share (when one of this client's completions or the service's retry bit says): the service's
 * answer, or the error (-TACET_EDEAD: the service ended; the timeout: -TACET_EBUSY). */
static long send(struct tacet_blk *b, long id)
{
	const struct tacet_blk_req *q = &b->req[id];
	uint64_t deadline = 0;
	long r;

	for (;;) {
		b->status[id] = 0xff; /* not a status the device writes */
		r = submit(b, q, (unsigned long)id);
		if (r != -TACET_EBUSY)
			break;
		/* the client's share is used: one of its own completions, or the service's
		 * BLK_RETRY_BIT when it had none in flight, says when to try again */
		b->retries++;
		r = wait_bits(b, &deadline);
		if (r < 0)
			return r;
	}
	if (r == BLK_DONE) { /* nothing to wait for */
		b->status[id] = BLK_S_OK;
		b->done |= 1u << id;
		r = 0;
	}
	return r;
}

/* Request id submitted again to the next instance: 0 when it is held there (or done), or when
 * that instance refused it (the refusal kept for its wait, the id done: no instance holds it);
 * -TACET_EDEAD when that instance ended too (the reconnect goes on to the next). */
static long resend(struct tacet_blk *b, long id)
{
	long r = send(b, id);

	if (r == -TACET_EDEAD)
		return r;
	if (r < 0) {
		b->req[id].refused = r;
		b->done |= 1u << id;
	}
	return 0;
}

/* Before the session on the next instance: the bits the ended one left on the notification
 * taken, its completions kept (they came before its end), the rest dropped (its watch's
 * GONE_BIT, a retry it offered; a timer that came), so that no wait on the next instance
 * mistakes them for its. */
static void forget_ended(struct tacet_blk *b)
{
	long bits = tacet_poll(b->ntfn);

	if (bits > 0)
		b->done |= (uint32_t)bits & b->busy;
	if (bits > 0 && ((unsigned long)bits & TIMER_BIT))
		b->armed = 0; /* its timer came: none is armed now */
}

/* The service ended (a call said -TACET_EDEAD): reach its next instance (init restarts it), open
 * the session again and submit every request in flight again (the new instance knows nothing of
 * the old one's; a request the old device finished is done once more, which a read or a write
 * of the same data may be). Requests already seen complete stay so; one the instance refuses is
 * done with its refusal (resend). 0, or why no instance was reached: then none holds any
 * request of this client (each instance that took one has ended). */
static long reconnect(struct tacet_blk *b)
{
	unsigned long was = b->instance;
	long err = -TACET_EDEAD;

	for (int tries = 0; err == -TACET_EDEAD && tries < RECONNECT_TRIES; tries++) {
		/* none found: b->ep keeps the ended endpoint; the next call reconnects again */
		err = tacet_reconnect_instance("blk", b->ep, RECONNECT_WAIT_MS, &b->instance);
		if (!err && b->instance == was) { /* its name not withdrawn yet */
			err = -TACET_EDEAD;
			tacet_sleep_ns(1000000);
			continue;
		}
		if (!err)
			forget_ended(b);
		if (!err)
			err = session(b);
		for (long id = 0; !err && id < BLK_IDS; id++)
			if ((b->busy & ~b->done) & (1u << id))
				err = resend(b, id);
		b->reconnects += !err;
	}
	return err;
}

/* Id free again: called only once no instance holds its request (its answer taken, or its
 * submission refused). */
static void release(struct tacet_blk *b, long id)
{
	b->busy &= ~(1u << id);
	b->done &= ~(1u << id);
}

long tacet_blk_submit(struct tacet_blk *b, unsigned int op, uint64_t sector, unsigned long count,
		      unsigned long offset)
{
	long id = 0, r;

	while (id < BLK_IDS && (b->busy & (1u << id)))
		id++;
	if (id == BLK_IDS)
		return -TACET_EBUSY;
	b->req[id] = (struct tacet_blk_req){ op, sector, count, offset, 0 };
	b->busy |= 1u << id;
	r = send(b, id);
	if (r == -TACET_EDEAD)
		r = reconnect(b); /* id too: held by the next instance, or refused on its own */
	if (r >= 0 && b->req[id].refused)
		r = b->req[id].refused;
	if (r < 0) {
		release(b, id); /* no instance holds it */
		return r;
	}
	return id;
}

/* After a wait's timeout: is the service there (0), or has it ended (-TACET_EDEAD)? */
static long alive(struct tacet_blk *b)
{
	uint64_t w[3];

	return blk_call_info(b->ep, &w[0], &w[1], &w[2]) == -TACET_EDEAD ? -TACET_EDEAD : 0;
}

/* Take the notification's bits until one of `want` has completed; when the service ends (its
 * endpoint's watch says so, or a timeout finds it gone), its next instance is reconnected to,
 * the requests submitted again, and the wait goes on. A timeout while the service still takes
 * calls is reported to init once per instance (tacet_report_stuck): if init ends the instance
 * for it, the wait goes on until the end is seen; else the timeout is the wait's answer. A
 * wait reports at most BLK_WAIT_REPORTS instances: past them, the next timeout is its answer
 * (-TACET_EBUSY, the request still in flight), so that a wait whose every instance is ended
 * unanswered (its device starved by another's fault: a shared interrupt line held masked)
 * still ends and its caller decides. */
static long await(struct tacet_blk *b, uint32_t want)
{
	uint64_t deadline = 0;
	int reported = 0, reports = 0;

	while (!(b->done & want)) {
		long err = wait_bits(b, &deadline);

		if (err == -TACET_EBUSY && !reported && reports < BLK_WAIT_REPORTS &&
		    alive(b) == 0 && tacet_report_stuck("blk", b->instance) == 0) {
			reports++;
			reported = 1;
			deadline = 0;
			continue;
		}
		if (err == -TACET_EDEAD || (err == -TACET_EBUSY && alive(b) == -TACET_EDEAD)) {
			err = reconnect(b); /* the service ended while we waited */
			deadline = 0;
			reported = 0;
		}
		if (err < 0)
			return err;
	}
	return 0;
}

/* Request id's answer, its id free again: its status byte, or the refusal of its submission
 * to a next instance (one for the share the whole timeout long: failed, -TACET_EFAULT). */
static long collect(struct tacet_blk *b, long id)
{
	uint8_t status = b->status[id];
	long refused = b->req[id].refused;

	release(b, id);
	if (refused)
		return refused == -TACET_EBUSY ? -TACET_EFAULT : refused;
	return status == BLK_S_OK ? 0 : status == BLK_S_UNSUPP ? -TACET_ENOSYS : -TACET_EFAULT;
}

long tacet_blk_wait(struct tacet_blk *b, long id)
{
	long err;

	if (id < 0 || id >= BLK_IDS || !(b->busy & (1u << id)))
		return -TACET_EINVAL;
	err = await(b, 1u << id);
	return err ? err : collect(b, id);
}

long tacet_blk_wait_any(struct tacet_blk *b, long *result)
{
	long err, id = 0;

	if (!b->busy)
		return -TACET_EINVAL;
	err = await(b, b->busy);
	if (err)
		return err;
	while (!(b->done & (1u << id)))
		id++;
	*result = collect(b, id);
	return id;
}

static long blk_sync(struct tacet_blk *b, unsigned int op, uint64_t sector, unsigned long count,
		 unsigned long offset)
{
	long id = tacet_blk_submit(b, op, sector, count, offset);

	return id < 0 ? id : tacet_blk_wait(b, id);
}

long tacet_blk_read(struct tacet_blk *b, uint64_t sector, unsigned long count,
		    unsigned long offset)
{
	return blk_sync(b, BLK_READ, sector, count, offset);
}

long tacet_blk_write(struct tacet_blk *b, uint64_t sector, unsigned long count,
		     unsigned long offset)
{
	return blk_sync(b, BLK_WRITE, sector, count, offset);
}

long tacet_blk_flush(struct tacet_blk *b)
{
	return blk_sync(b, BLK_FLUSH, 0, 0, 0);
}

/* The range [offset, offset + count sectors) inside the buffer? */
static int in_buffer(const struct tacet_blk *b, unsigned long count, unsigned long offset)
{
	return count && offset <= b->bytes && count <= (b->bytes - offset) / BLK_SEAL_SECTOR;
}

long tacet_blk_write_sealed(struct tacet_blk *b, uint64_t sector, unsigned long count,
			    unsigned long offset, uint32_t gen)
{
	if (!in_buffer(b, count, offset))
		return -TACET_EINVAL;
	blk_seal((uint8_t *)b->buf.va + offset, sector, count, gen);
	return blk_sync(b, BLK_WRITE, sector, count, offset);
}

long tacet_blk_read_sealed(struct tacet_blk *b, uint64_t sector, unsigned long count,
			   unsigned long offset, uint32_t min_gen, struct blk_seal_fault *f)
{
	long err;

	if (!in_buffer(b, count, offset))
		return -TACET_EINVAL;
	if ((err = blk_sync(b, BLK_READ, sector, count, offset)))
		return err;
	return blk_seal_check((uint8_t *)b->buf.va + offset, sector, count, min_gen, NULL, f);
}
