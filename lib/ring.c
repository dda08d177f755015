/* ring.c: single-producer single-consumer rings in shared memory (<tacet/ring.h> says what and
 * how). Owns nothing global: each side's state is its struct ring. One thread per side, no
 * locks; the peer writes the shared area at any time, so every shared word is read once with a
 * relaxed atomic load, after the right barrier, and checked before it is used. */
#include <tacet/abi.h>
#include <tacet/ring.h>
#include <tacet/virtio_queue.h>

/* Words of the shared header; producer-written and consumer-written words on separate lines. */
enum ring_word {
	RING_TAIL = 0,
	RING_CONSUMER_ASLEEP = 1,
	RING_HEAD = 16,
	RING_PRODUCER_ASLEEP = 17,
};

_Static_assert(RING_PRODUCER_ASLEEP * 4 < RING_HEADER_BYTES, "ring header overflows");

static uint32_t load(const struct ring *r, enum ring_word w)
{
	return __atomic_load_n(&r->shared[w], __ATOMIC_RELAXED);
}

static void store(struct ring *r, enum ring_word w, uint32_t v)
{
	__atomic_store_n(&r->shared[w], v, __ATOMIC_RELAXED);
}

size_t ring_bytes(uint32_t capacity)
{
	if (capacity == 0 || capacity > RING_CAPACITY_MAX || (capacity & (capacity - 1)))
		return 0;
	return RING_HEADER_BYTES + (size_t)capacity * sizeof(struct ring_desc);
}

void ring_format(void *shared)
{
	uint32_t *w = shared;

	for (unsigned int i = 0; i < RING_HEADER_BYTES / 4; i++)
		__atomic_store_n(&w[i], 0, __ATOMIC_RELAXED);
}

static int ring_init(struct ring *r, void *shared, size_t bytes, uint32_t capacity,
		     uint32_t data_size)
{
	size_t need = ring_bytes(capacity);

	if (need == 0 || bytes < need || ((uintptr_t)shared & 7))
		return -TACET_EINVAL;
	r->shared = shared;
	r->desc = (struct ring_desc *)((char *)shared + RING_HEADER_BYTES);
	r->capacity = capacity;
	r->data_size = data_size;
	r->own = 0;
	r->peer = 0;
	r->bad_index = 0;
	r->bad_desc = 0;
	return 0;
}

int ring_producer_init(struct ring *r, void *shared, size_t bytes, uint32_t capacity,
		       uint32_t data_size)
{
	return ring_init(r, shared, bytes, capacity, data_size);
}

int ring_consumer_init(struct ring *r, void *shared, size_t bytes, uint32_t capacity,
		       uint32_t data_size)
{
	return ring_init(r, shared, bytes, capacity, data_size);
}

/* Producer: read the consumer's head. Valid if it lies between the last head accepted and our
 * tail (all modulo 2^32): it may neither go back nor pass what we published. */
static int producer_sync(struct ring *r)
{
	uint32_t head = load(r, RING_HEAD);

	if (head - r->peer > r->own - r->peer) {
		r->bad_index++;
		return -TACET_EINVAL;
	}
	r->peer = head;
	return 0;
}

/* ring_put when the head last read leaves no slot free, or d does not fit. */
int ring_put_sync(struct ring *r, const struct ring_desc *d)
{
	int err;

	if (!ring_desc_fits(r, d))
		return -TACET_ERANGE;
	if (r->own - r->peer == r->capacity) {
		err = producer_sync(r);
		if (err)
			return err;
		if (r->own - r->peer == r->capacity)
			return -TACET_EBUSY;
		virtq_mb(); /* the consumer's reads of the slot before our write of it */
	}
	ring_slot_write(r, d);
	return 0;
}

/* After publishing our index: 1 if the peer's asleep flag was set (now cleared). The full
 * barrier orders the index store before the flag's read; the sleeper fences the other way. */
static int wake_needed(struct ring *r, enum ring_word flag)
{
	virtq_mb();
	if (load(r, flag) == 0)
		return 0;
	return __atomic_exchange_n(&r->shared[flag], 0, __ATOMIC_RELAXED) != 0;
}

int ring_publish(struct ring *r)
{
	virtq_wmb(); /* the descriptors before the tail that covers them */
	store(r, RING_TAIL, r->own);
	return wake_needed(r, RING_CONSUMER_ASLEEP);
}

/* Consumer, with every accepted descriptor taken (own == peer): read the producer's tail.
 * Valid if it is no more than `capacity` past our head; a tail that went back wraps to a
 * count far above it. */
static int consumer_sync(struct ring *r)
{
	uint32_t tail = load(r, RING_TAIL);

	if (tail - r->own > r->capacity) {
		r->bad_index++;
		return -TACET_EINVAL;
	}
	r->peer = tail;
	virtq_rmb(); /* the tail before the descriptors it covers */
	return 0;
}

/* ring_get when every descriptor the tail last read covered is taken. */
int ring_get_sync(struct ring *r, struct ring_desc *d)
{
	int err;

	if (r->own == r->peer) {
		err = consumer_sync(r);
		if (err)
			return err;
		if (r->own == r->peer)
			return 0;
	}
	return ring_slot_read(r, d);
}

int ring_release(struct ring *r)
{
	virtq_mb(); /* our reads of the slots before the head that frees them */
	store(r, RING_HEAD, r->own);
	return wake_needed(r, RING_PRODUCER_ASLEEP);
}

/* Set our asleep flag, fence, and look at the peer's index again: 1 if there is still nothing
 * to do (sleep), else clear the flag and return 0. */
static int sleep_check(struct ring *r, enum ring_word flag, int (*ready)(struct ring *))
{
	store(r, flag, 1);
	virtq_mb();
	if (!ready(r))
		return 1;
	__atomic_store_n(&r->shared[flag], 0, __ATOMIC_RELAXED);
	return 0;
}

/* Work or a garbage index (ring_get reports which). */
static int consumer_ready(struct ring *r)
{
	return r->own != r->peer || consumer_sync(r) != 0 || r->own != r->peer;
}

static int producer_ready(struct ring *r)
{
	return producer_sync(r) != 0 || r->own - r->peer < r->capacity;
}

int ring_consumer_sleep(struct ring *r)
{
	return sleep_check(r, RING_CONSUMER_ASLEEP, consumer_ready);
}

int ring_producer_sleep(struct ring *r)
{
	return sleep_check(r, RING_PRODUCER_ASLEEP, producer_ready);
}
