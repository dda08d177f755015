/* tacet/blk.h: the block service's client ("blk", servers/blk: the virtio-blk driver), over
 * <tacet/blk_proto.h>. A client opens a session with the service (which watches this process,
 * to give back what it holds for it when the process ends), with a buffer of its own size (a
 * frame the service's device reads and writes directly) and a notification for completions,
 * then either submits requests and waits for them (several in flight, up to BLK_IDS), or uses
 * the synchronous helpers, which submit one and wait for it. It reads and writes the sectors
 * its init.run= entry grants it (`client[blk=FIRST-LAST]`): b->first, b->sectors.
 *
 * The service shares its requests fairly among clients and refuses one past a client's share;
 * tacet_blk_submit then waits for the moment the service says to try again (one of this
 * client's completions, or the service's retry bit) and submits again, so a request is never
 * lost to another client's load. Every wait ends after b->timeout_ns (TACET_BLK_TIMEOUT_NS
 * unless the client sets another; 0: none) with -TACET_EBUSY: the request is still in flight
 * (the service itself fails a request the device leaves unanswered for 5 s, so this is for a
 * service that is gone or stuck). A timeout while the service answers is first reported to
 * init (tacet_report_stuck), and the wait goes on with the next instance if init ends that
 * one; one wait reports at most 4 instances, then its next timeout is its answer.
 *
 * When the service ends (a call says -TACET_EDEAD, or a wait's timeout finds it gone), lib
 * reaches its restarted instance, opens the session again and submits every request in flight
 * again (a request is done at least once); b->instance says which instance it talks to. If no
 * instance is published within 10 s, that call answers the lookup's error (-TACET_ENOENT), and
 * the next submission or wait tries again. A
 * request that instance refuses is done with the refusal (its wait says it; the others are
 * submitted again all the same), and the submission or wait that met the end answers for its
 * own request only. An id lib has not given back (a submission's error, a wait's collection)
 * is in flight: an instance may hold its request, and the device write its buffer range.
 *
 * Not thread-safe: one thread uses a struct tacet_blk at a time. The buffer is b->buf.va; a
 * request's data lives there from its byte offset on, and must not be touched while the
 * request is in flight.
 */
#ifndef TACET_BLK_H
#define TACET_BLK_H

#include <stdint.h>
#include <tacet.h>
#include <tacet/blk_proto.h>
#include <tacet/blk_seal.h>

struct tacet_blk_req { /* a request in flight, as submitted: what a reconnect submits again */
	unsigned int op;
	uint64_t sector;
	unsigned long count, offset;
	long refused; /* lib's: the next instance refused it when submitted again (0: it did not) */
};

struct tacet_blk {
	unsigned long ep;      /* the service (a lib slot) */
	unsigned long ntfn;    /* completions: request id i is bit i (a lib slot) */
	struct tacet_dma buf;  /* data from buf.va, `bytes` of it; the status bytes after */
	unsigned long bytes;
	volatile uint8_t *status; /* BLK_IDS status bytes, one per id */
	uint64_t capacity;     /* sectors */
	int read_only;
	uint64_t first, sectors; /* the sectors granted (none: 0) */
	uint64_t timeout_ns;   /* a wait's longest (0: none) */
	unsigned long retries; /* submissions refused for the share and tried again */
	uint32_t busy;         /* ids submitted and not yet collected */
	uint32_t done;         /* ids whose completion has come, not yet collected */
	uint64_t armed;        /* lib's: the deadline its timer is armed for (0: none) */
	unsigned long instance;   /* the instance of the service reached (0: its first start) */
	unsigned long reconnects; /* times the service ended and this client reached the next */
	unsigned long ends_seen;  /* of those, told by the endpoint's watch in a wait */
	struct tacet_blk_req req[BLK_IDS];
};

#define TACET_BLK_TIMEOUT_NS 10000000000ull /* 10 s: longer than the service's own 5 s */

/* Look the service up (waiting up to `tries` ms for it), ask its capacity, make a buffer of
 * `bytes` (a multiple of 512; the frame is one more 512 bytes for the status area, whole pages,
 * at most TACET_FRAME_MAX_PAGES) and a notification, open a session and attach both. 0 or a
 * negative TACET_E* code (everything made is undone). */
long tacet_blk_open(struct tacet_blk *b, unsigned long bytes, unsigned int tries);
/* End the session (what is still in flight completes into nothing: the service keeps the
 * buffer's memory until the device is done with it) and free everything. Open again at once
 * if you like. */
void tacet_blk_close(struct tacet_blk *b);

/* Queue a request: op BLK_READ or BLK_WRITE (count sectors from `sector`, the data at byte
 * `offset` of the buffer) or BLK_FLUSH (the other arguments 0). Returns its id (0..BLK_IDS-1),
 * or a negative TACET_E* code, and then no instance of the service holds the request (its
 * buffer range is the caller's again): the service's refusals (<tacet/blk_proto.h>; after
 * the service's end, its next instance's refusal of this request, never another's),
 * -TACET_EBUSY when BLK_IDS requests are in flight already (at once), or when the service
 * refused it for the client's share for the whole timeout (it waits and submits again
 * meanwhile; completions that come then are kept for the waits), or the reconnect's error
 * when no next instance was reached. */
long tacet_blk_submit(struct tacet_blk *b, unsigned int op, uint64_t sector, unsigned long count,
		      unsigned long offset);
/* Wait for request id and collect it: 0, -TACET_EFAULT (the device reported an I/O error, or
 * the service failed the request when it reset the device), -TACET_ENOSYS (the device does not
 * support the request), -TACET_EINVAL (no such id in flight), -TACET_EBUSY (the timeout passed:
 * it is still in flight; wait again), the service's next instance's refusal of the request
 * submitted again after a restart (<tacet/blk_proto.h>'s codes; one for the client's share the
 * whole timeout long: -TACET_EFAULT), or the wait's error (the request still in flight). */
long tacet_blk_wait(struct tacet_blk *b, long id);
/* Wait for any request and collect it: returns its id, its result (as above) in *result; or a
 * negative TACET_E* code (-TACET_EINVAL: nothing in flight). */
long tacet_blk_wait_any(struct tacet_blk *b, long *result);

/* Submit one request and wait for it: 0 or a negative TACET_E* code. -TACET_EBUSY (the timeout
 * passed while the service still answers) leaves the request in flight, its id unknown to the
 * caller: until it completes, the device may still write the buffer's range (a read's data can
 * land there later, over what the caller put there since). Before reusing that range, drain:
 * tacet_blk_wait_any until it says -TACET_EINVAL (nothing in flight). (Found by the fault
 * campaign, docs/faults.md: a caller that reused the range at once saw stale reads.) */
long tacet_blk_read(struct tacet_blk *b, uint64_t sector, unsigned long count,
		    unsigned long offset);
long tacet_blk_write(struct tacet_blk *b, uint64_t sector, unsigned long count,
		     unsigned long offset);
long tacet_blk_flush(struct tacet_blk *b);

/* Sealed sectors (<tacet/blk_seal.h>): the disk's mistakes found by the client. The write seals
 * count sectors at `offset` (each's first BLK_SEAL_DATA bytes the data) for their numbers and
 * generation gen, then writes them; the read reads them and checks each's seal, its number and
 * a generation of at least min_gen (the last the caller knows it wrote; 0: any). Else as
 * tacet_blk_write and tacet_blk_read, and -TACET_ECORRUPT when a sector read fails its check
 * (*f, if f, says the first and why: the data, another sector's, an older generation). */
long tacet_blk_write_sealed(struct tacet_blk *b, uint64_t sector, unsigned long count,
			    unsigned long offset, uint32_t gen);
long tacet_blk_read_sealed(struct tacet_blk *b, uint64_t sector, unsigned long count,
			   unsigned long offset, uint32_t min_gen, struct blk_seal_fault *f);

#endif
