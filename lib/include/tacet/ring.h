/* tacet/ring.h: single-producer single-consumer rings in memory two servers share.
 *
 * A ring carries descriptors (offset and length into a data area the two servers also share)
 * from a producer to a consumer. The shared part is a header and `capacity` descriptors:
 *
 *   bytes   0..63   tail (written by the producer), consumer_asleep (set by the consumer)
 *   bytes  64..127  head (written by the consumer), producer_asleep (set by the producer)
 *   bytes 128..     struct ring_desc desc[capacity]
 *
 * Indices are free-running 32-bit counts that wrap; a descriptor's slot is the index modulo the
 * capacity (a power of two). Each side keeps its own struct ring: the capacity, the data area's
 * size and its own index live there, never read back from shared memory. The peer may write
 * anything at any time, so every index and descriptor read from shared memory is checked:
 * the consumer refuses a tail more than `capacity` past its head or behind a tail it already
 * accepted (-TACET_EINVAL), and a descriptor not wholly inside the data area (-TACET_ERANGE);
 * the producer refuses a head past its tail or behind a head it already accepted
 * (-TACET_EINVAL). A refusal is counted (bad_index, bad_desc) and changes no index: the caller
 * decides whether to try later or to give up on the peer. A peer that never consumes fills
 * the ring: ring_put returns -TACET_EBUSY and overwrites nothing.
 *
 * Hand-over: the producer writes descriptors, then (a write barrier) the tail: ring_publish.
 * The consumer reads the tail, then (a read barrier) the descriptors it covers, copied out
 * once and checked on the copy; ring_release publishes its head after the reads are done.
 *
 * Buffers handed back: where a pair of rings carries buffers out and back (a free ring and a
 * used one, as net's and ip's sessions have) and the buffers number the ring's capacity, their
 * owner's put never finds the ring full only if the peer releases a slot before it publishes
 * the buffer taken from it through the other ring. A peer that published first let the
 * owner's put of a buffer just handed back find every slot taken (-TACET_EBUSY).
 *
 * Wake-ups (either direction, same rule): a side that finds nothing to do calls
 * ring_*_sleep, which sets its asleep flag, fences, and looks again; it sleeps only if that
 * returns 1. The other side, after publishing its index and a fence, swaps the flag to 0: if
 * it was set, ring_publish / ring_release return 1 ("signal needed") and the caller sends its
 * notification. Because both fences are full, either the sleeper sees the new index or the
 * publisher sees the flag, never neither. The ring makes no system call: the caller signals
 * and waits (a notification bit each way, sticky, so a signal before the wait is not lost).
 *
 * Set-up over IPC: one server allocates a frame of ring_bytes(capacity) bytes (and one for the
 * data), calls ring_format on it and hands a capability to the frame to the other with the
 * capacity and the data size in the message; each maps it and calls ring_producer_init or
 * ring_consumer_init with the capacity and size it agreed to, not values read from the frame.
 *
 * Not thread-safe: one thread per side. Portable C with no system calls (host-tested in
 * tests/host/test_ring.c); the barriers are virtio_queue.h's.
 */
#ifndef TACET_RING_H
#define TACET_RING_H

#include <stddef.h>
#include <stdint.h>

#include <tacet/abi.h>

#define RING_CAPACITY_MAX (1u << 16)
#define RING_HEADER_BYTES 128

struct ring_desc {
	uint32_t offset; /* into the data area */
	uint32_t len;    /* bytes; offset + len <= the data area's size */
};

/* One side's private view. Fields are the owner's alone. */
struct ring {
	uint32_t *shared;     /* the shared area */
	struct ring_desc *desc;
	uint32_t capacity;    /* a power of two */
	uint32_t data_size;   /* bytes in the data area descriptors point into */
	uint32_t own;         /* producer: next tail; consumer: next head */
	uint32_t peer;        /* the last peer index accepted */
	unsigned long bad_index; /* peer indices refused */
	unsigned long bad_desc;  /* descriptors refused */
};

/* Bytes of shared memory a ring of `capacity` descriptors needs (capacity a power of two, at
 * most RING_CAPACITY_MAX); 0 if capacity is not acceptable. */
size_t ring_bytes(uint32_t capacity);

/* Zero the shared header (both indices 0, no one asleep). Called once by the server that
 * allocates the frame, before it hands it over. */
void ring_format(void *shared);

/* Set up one side over `shared` (`bytes` long, 8-byte aligned). 0, or -TACET_EINVAL (capacity
 * not a power of two or too large, shared area too small or misaligned). Reads and writes
 * nothing shared. */
int ring_producer_init(struct ring *r, void *shared, size_t bytes, uint32_t capacity,
		       uint32_t data_size);
int ring_consumer_init(struct ring *r, void *shared, size_t bytes, uint32_t capacity,
		       uint32_t data_size);

/* ring_put's and ring_get's common case is inline below (a slot free by the head last read, a
 * descriptor published by the tail last read); everything else, the peer's index read again
 * and checked, is ring.c's ring_put_sync and ring_get_sync. Both ways write and read a slot
 * with the same helpers. */
int ring_put_sync(struct ring *r, const struct ring_desc *d);
int ring_get_sync(struct ring *r, struct ring_desc *d);

static inline int ring_desc_fits(const struct ring *r, const struct ring_desc *d)
{
	return d->len <= r->data_size && d->offset <= r->data_size - d->len;
}

/* The next free slot written (d fits, the slot is free), not yet visible. */
static inline void ring_slot_write(struct ring *r, const struct ring_desc *d)
{
	struct ring_desc *slot = &r->desc[r->own & (r->capacity - 1)];

	__atomic_store_n(&slot->offset, d->offset, __ATOMIC_RELAXED);
	__atomic_store_n(&slot->len, d->len, __ATOMIC_RELAXED);
	r->own++;
}

/* The next published slot read once and checked: 1 (taken into *d), or -TACET_ERANGE
 * (outside the data area: counted, not taken). */
static inline int ring_slot_read(struct ring *r, struct ring_desc *d)
{
	const struct ring_desc *slot = &r->desc[r->own & (r->capacity - 1)];
	struct ring_desc copy;

	copy.offset = __atomic_load_n(&slot->offset, __ATOMIC_RELAXED);
	copy.len = __atomic_load_n(&slot->len, __ATOMIC_RELAXED);
	if (!ring_desc_fits(r, &copy)) {
		r->bad_desc++;
		return -TACET_ERANGE;
	}
	*d = copy;
	r->own++;
	return 1;
}

/* Producer: write one descriptor into the next free slot (not yet visible). 0, -TACET_EBUSY
 * (full), -TACET_EINVAL (the consumer's head is garbage: counted), -TACET_ERANGE (d is outside
 * the data area: the caller's bug). */
static inline int ring_put(struct ring *r, const struct ring_desc *d)
{
	if (r->own - r->peer == r->capacity || !ring_desc_fits(r, d))
		return ring_put_sync(r, d);
	ring_slot_write(r, d);
	return 0;
}

/* Producer: make every descriptor put so far visible. 1 if the consumer sleeps and must be
 * signalled, else 0. */
int ring_publish(struct ring *r);

/* Consumer: take the next descriptor into *d. 1, 0 (empty), -TACET_EINVAL (the tail is
 * garbage), -TACET_ERANGE (the descriptor is outside the data area); both counted, nothing
 * taken. */
static inline int ring_get(struct ring *r, struct ring_desc *d)
{
	return r->own == r->peer ? ring_get_sync(r, d) : ring_slot_read(r, d);
}

/* Consumer: hand the slots taken so far back to the producer. 1 if the producer sleeps (on a
 * full ring) and must be signalled, else 0. */
int ring_release(struct ring *r);

/* Before sleeping: 1 = sleep now (the flag is set; the peer will signal), 0 = do not (work
 * arrived, or the peer's index is garbage: call ring_get / ring_put to see which). */
int ring_consumer_sleep(struct ring *r);
int ring_producer_sleep(struct ring *r);

#endif
