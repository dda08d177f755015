/* test_ring.c: host unit tests of lib/ring.c, the shared-memory rings: a producer and a
 * consumer interleaved at random in one thread (every descriptor once, in order, its bytes
 * intact); two threads at once over a million descriptors, sleeping on semaphores the other's
 * signal posts (a lost wake-up is a timeout, a failure); a hostile peer (garbage indices,
 * descriptors outside the data area, a consumer that never consumes) refused with the error,
 * counted, and the honest side unchanged. The shared and data areas are malloc'd to their
 * exact sizes, so ASan catches any read outside them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <cmocka.h>

#include <tacet/abi.h>
#include <tacet/ring.h>

#define CHUNK 64 /* bytes of data per slot: descriptor n uses chunk n % capacity */

struct pair {
	void *shared;
	uint8_t *data;
	uint32_t capacity;
	uint32_t data_size;
	struct ring prod, cons;
};

static void pair_open(struct pair *p, uint32_t capacity)
{
	size_t bytes = ring_bytes(capacity);

	assert_true(bytes > 0);
	p->shared = malloc(bytes);
	p->data_size = capacity * CHUNK;
	p->data = malloc(p->data_size);
	p->capacity = capacity;
	assert_non_null(p->shared);
	assert_non_null(p->data);
	memset(p->shared, 0xa5, bytes); /* ring_format must clear what matters */
	ring_format(p->shared);
	assert_int_equal(ring_producer_init(&p->prod, p->shared, bytes, capacity, p->data_size), 0);
	assert_int_equal(ring_consumer_init(&p->cons, p->shared, bytes, capacity, p->data_size), 0);
}

static void pair_close(struct pair *p)
{
	free(p->shared);
	free(p->data);
}

static uint32_t *word(struct pair *p, unsigned int i)
{
	return (uint32_t *)p->shared + i;
}

#define TAIL(p) (*word(p, 0))
#define HEAD(p) (*word(p, 16))

static uint8_t pattern(uint32_t n, uint32_t i)
{
	return (uint8_t)(n * 131 + i * 7 + 1);
}

static uint32_t step(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)*s;
}

/* The descriptor for number n: its chunk, a length from 1 to CHUNK. */
static struct ring_desc make(struct pair *p, uint32_t n, uint64_t *rng)
{
	struct ring_desc d = { (n % p->capacity) * CHUNK, 1 + step(rng) % CHUNK };

	return d;
}

/* Fill n's chunk with its pattern: after ring_put took d (the slot, so the chunk, is free),
 * before ring_publish. */
static void write_data(struct pair *p, uint32_t n, const struct ring_desc *d)
{
	for (uint32_t i = 0; i < d->len; i++)
		p->data[d->offset + i] = pattern(n, i);
}

/* 1 if d is number n's descriptor with its bytes intact. */
static int intact(const struct pair *p, uint32_t n, const struct ring_desc *d)
{
	if (d->offset != (n % p->capacity) * CHUNK || d->len == 0 || d->len > CHUNK)
		return 0;
	for (uint32_t i = 0; i < d->len; i++)
		if (p->data[d->offset + i] != pattern(n, i))
			return 0;
	return 1;
}

static void test_sizes(void **state)
{
	struct ring r;
	uint32_t buf[64];

	(void)state;
	assert_int_equal(ring_bytes(0), 0);
	assert_int_equal(ring_bytes(3), 0);
	assert_int_equal(ring_bytes(RING_CAPACITY_MAX * 2), 0);
	assert_int_equal(ring_bytes(16), RING_HEADER_BYTES + 16 * sizeof(struct ring_desc));
	assert_int_equal(ring_producer_init(&r, buf, sizeof(buf), 6, 100), -TACET_EINVAL);
	assert_int_equal(ring_consumer_init(&r, buf, ring_bytes(16) - 1, 16, 100), -TACET_EINVAL);
	assert_int_equal(ring_consumer_init(&r, (char *)buf + 4, ring_bytes(8), 8, 100),
			 -TACET_EINVAL);
	assert_int_equal(ring_consumer_init(&r, buf, ring_bytes(8), 8, 100), 0);
}

/* One thread, random batches on each side: every descriptor arrives once, in order, intact;
 * the producer sees "full" exactly when capacity descriptors are outstanding. */
static void test_random_one_thread(void **state)
{
	uint32_t sent = 0, got = 0, published = 0, released_upto = 0;
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	struct ring_desc d;
	struct pair p;

	(void)state;
	pair_open(&p, 8);
	while (got < 100000) {
		uint32_t batch = step(&rng) % 12;

		for (uint32_t i = 0; i < batch; i++) {
			int e;

			if (sent - released_upto == p.capacity) {
				assert_int_equal(ring_put(&p.prod, &d), -TACET_EBUSY);
				break;
			}
			d = make(&p, sent, &rng);
			e = ring_put(&p.prod, &d);
			assert_int_equal(e, 0);
			write_data(&p, sent, &d);
			sent++;
		}
		ring_publish(&p.prod);
		published = sent;
		batch = step(&rng) % 12;
		for (uint32_t i = 0; i < batch; i++) {
			int e = ring_get(&p.cons, &d);

			if (got == published) {
				assert_int_equal(e, 0);
				break;
			}
			assert_int_equal(e, 1);
			assert_true(intact(&p, got, &d));
			got++;
		}
		ring_release(&p.cons);
		released_upto = got;
	}
	assert_int_equal(p.prod.bad_index + p.cons.bad_index + p.cons.bad_desc, 0);
	pair_close(&p);
}

/* --- two threads ------------------------------------------------------------------------- */

static uint32_t total; /* descriptors in this run */
#define WAIT_SECONDS 10

static sem_t wake_prod, wake_cons;
static atomic_int failed; /* a reason, set by whichever thread failed first */
static atomic_ulong sleeps;

enum { FAIL_NONE, FAIL_LOST_WAKEUP, FAIL_ORDER, FAIL_ERROR };

static void thread_fail(int why)
{
	int none = FAIL_NONE;

	atomic_compare_exchange_strong(&failed, &none, why);
}

/* Sleep until the other side's signal: a timeout means a wake-up was lost. */
static int sleep_on(sem_t *s)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += WAIT_SECONDS;
	sleeps++;
	while (sem_timedwait(s, &until) != 0) {
		if (errno != EINTR) {
			thread_fail(FAIL_LOST_WAKEUP);
			return -1;
		}
	}
	return 0;
}

static void *producer(void *arg)
{
	struct pair *p = arg;
	uint64_t rng = 0x1234567ull;
	uint32_t n = 0;

	while (n < total && !failed) {
		uint32_t batch = 1 + step(&rng) % 16;
		int e = 0;

		while (batch-- && n < total) {
			struct ring_desc d = make(p, n, &rng);

			e = ring_put(&p->prod, &d);
			if (e)
				break;
			write_data(p, n, &d);
			n++;
		}
		if (ring_publish(&p->prod))
			sem_post(&wake_cons);
		if (e == -TACET_EBUSY) {
			if (ring_producer_sleep(&p->prod) == 1 && sleep_on(&wake_prod))
				break;
		} else if (e) {
			thread_fail(FAIL_ERROR);
		}
	}
	return NULL;
}

static void *consumer(void *arg)
{
	struct pair *p = arg;
	struct ring_desc d;
	uint32_t n = 0;

	while (n < total && !failed) {
		int e = ring_get(&p->cons, &d);

		if (e == 1) {
			if (!intact(p, n, &d))
				thread_fail(FAIL_ORDER);
			n++;
			if ((n & 7) == 0 && ring_release(&p->cons))
				sem_post(&wake_prod);
			continue;
		}
		if (e < 0) {
			thread_fail(FAIL_ERROR);
			break;
		}
		if (ring_release(&p->cons))
			sem_post(&wake_prod);
		if (ring_consumer_sleep(&p->cons) == 1 && sleep_on(&wake_cons))
			break;
	}
	return NULL;
}

/* `count` descriptors through a ring of `capacity`, each side in a thread of its own. */
static void run_threads(uint32_t capacity, uint32_t count)
{
	pthread_t t[2];
	struct pair p;

	total = count;
	atomic_store(&failed, FAIL_NONE);
	atomic_store(&sleeps, 0);
	pair_open(&p, capacity);
	assert_int_equal(sem_init(&wake_prod, 0, 0), 0);
	assert_int_equal(sem_init(&wake_cons, 0, 0), 0);
	assert_int_equal(pthread_create(&t[0], NULL, producer, &p), 0);
	assert_int_equal(pthread_create(&t[1], NULL, consumer, &p), 0);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	assert_int_equal(failed, FAIL_NONE);
	assert_int_equal(p.prod.bad_index + p.cons.bad_index + p.cons.bad_desc, 0);
	print_message("capacity %u: %u descriptors, %lu sleeps\n", capacity, total,
		      (unsigned long)sleeps);
	sem_destroy(&wake_prod);
	sem_destroy(&wake_cons);
	pair_close(&p);
}

/* Batches (1 to 16) mostly smaller than the ring: both sides sleep now and then. */
static void test_two_threads(void **state)
{
	(void)state;
	run_threads(64, 1000000);
}

/* Batches mostly larger than the ring: the producer publishes once per fill and sleeps on a
 * full ring, so a consumer that missed that one publication would never be woken. */
static void test_two_threads_small_ring(void **state)
{
	(void)state;
	run_threads(4, 200000);
}

/* --- a hostile peer ---------------------------------------------------------------------- */

/* The consumer's view must not move on a refusal. */
static void assert_consumer_refuses(struct pair *p, int err, uint32_t own, uint32_t peer)
{
	struct ring_desc d = { 7, 7 };

	assert_int_equal(ring_get(&p->cons, &d), err);
	assert_int_equal(d.offset, 7);
	assert_int_equal(d.len, 7);
	assert_int_equal(p->cons.own, own);
	assert_int_equal(p->cons.peer, peer);
}

/* Take one descriptor and read the bytes it names (ASan checks they are inside the area). */
static void take(struct pair *p)
{
	struct ring_desc d;
	unsigned int sum = 0;

	assert_int_equal(ring_get(&p->cons, &d), 1);
	for (uint32_t i = 0; i < d.len; i++)
		sum += p->data[d.offset + i];
	(void)sum;
}

static void test_hostile_tail(void **state)
{
	struct pair p;

	(void)state;
	pair_open(&p, 8);
	TAIL(&p) = 9; /* more than capacity ahead */
	assert_consumer_refuses(&p, -TACET_EINVAL, 0, 0);
	TAIL(&p) = 0x80000000u; /* huge */
	assert_consumer_refuses(&p, -TACET_EINVAL, 0, 0);
	assert_int_equal(ring_consumer_sleep(&p.cons), 0); /* refused: do not sleep on it */
	assert_int_equal(p.cons.bad_index, 3);

	memset((char *)p.shared + RING_HEADER_BYTES, 0, 8 * sizeof(struct ring_desc));
	TAIL(&p) = 3; /* honest again: zeroed descriptors (offset 0, length 0) are fine */
	take(&p);
	take(&p);
	take(&p);
	TAIL(&p) = 2; /* backwards */
	assert_consumer_refuses(&p, -TACET_EINVAL, 3, 3);
	TAIL(&p) = 3 + 9;
	assert_consumer_refuses(&p, -TACET_EINVAL, 3, 3);
	assert_int_equal(p.cons.bad_index, 5);
	assert_int_equal(p.cons.bad_desc, 0);
	pair_close(&p);
}

static void test_hostile_descriptors(void **state)
{
	const struct ring_desc bad[] = {
		{ 0, 8 * CHUNK + 1 },           /* longer than the area */
		{ 8 * CHUNK, 1 },               /* starts at its end */
		{ 8 * CHUNK - 4, 5 },           /* ends one past it */
		{ 0xfffffff0u, 0x20 },          /* offset + len wraps to a small number */
		{ 0x10, 0xfffffff8u },          /* len + offset wraps */
		{ 0xffffffffu, 0xffffffffu },
	};
	struct ring_desc *slots;
	struct pair p;

	(void)state;
	pair_open(&p, 8);
	slots = (struct ring_desc *)((char *)p.shared + RING_HEADER_BYTES);
	TAIL(&p) = 1;
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		slots[0] = bad[i];
		assert_consumer_refuses(&p, -TACET_ERANGE, 0, 1);
		assert_int_equal(p.cons.bad_desc, i + 1);
	}
	slots[0] = (struct ring_desc){ 8 * CHUNK - 5, 5 }; /* the last bytes: fine */
	take(&p);
	assert_int_equal(p.cons.bad_index, 0);
	pair_close(&p);
}

static void fill(struct pair *p, uint32_t count)
{
	uint64_t rng = 1;

	for (uint32_t i = 0; i < count; i++) {
		struct ring_desc d = make(p, p->prod.own, &rng);

		assert_int_equal(ring_put(&p->prod, &d), 0);
		write_data(p, p->prod.own - 1, &d);
	}
	ring_publish(&p->prod);
}

/* The consumer never consumes: full, nothing overwritten; then garbage heads. */
static void test_hostile_head(void **state)
{
	struct ring_desc d = { 0, 1 }, before[8];
	struct pair p;

	(void)state;
	pair_open(&p, 8);
	fill(&p, 8);
	memcpy(before, (char *)p.shared + RING_HEADER_BYTES, sizeof(before));
	for (int i = 0; i < 3; i++)
		assert_int_equal(ring_put(&p.prod, &d), -TACET_EBUSY);
	assert_int_equal(ring_producer_sleep(&p.prod), 1);
	assert_memory_equal(before, (char *)p.shared + RING_HEADER_BYTES, sizeof(before));
	assert_int_equal(p.prod.own, 8);
	assert_int_equal(TAIL(&p), 8);

	d.offset = p.data_size; /* the producer checks its own descriptors too */
	assert_int_equal(ring_put(&p.prod, &d), -TACET_ERANGE);
	d.offset = 0;

	HEAD(&p) = 9; /* past the tail */
	assert_int_equal(ring_put(&p.prod, &d), -TACET_EINVAL);
	HEAD(&p) = 0xfffffff0u; /* before anything accepted (behind 0) */
	assert_int_equal(ring_put(&p.prod, &d), -TACET_EINVAL);
	assert_int_equal(p.prod.bad_index, 2);
	assert_int_equal(p.prod.peer, 0);
	assert_int_equal(p.prod.own, 8);
	assert_memory_equal(before, (char *)p.shared + RING_HEADER_BYTES, sizeof(before));

	HEAD(&p) = 2; /* honest: two slots free */
	fill(&p, 2);
	HEAD(&p) = 1; /* backwards */
	assert_int_equal(ring_put(&p.prod, &d), -TACET_EINVAL);
	assert_int_equal(ring_producer_sleep(&p.prod), 0);
	assert_int_equal(p.prod.bad_index, 4);
	assert_int_equal(p.prod.peer, 2);
	assert_int_equal(p.prod.own, 10);
	pair_close(&p);
}

/* The wake-up flags: a sleeper's flag makes the other side's publish say "signal", once. */
static void test_wake_flags(void **state)
{
	struct ring_desc d = { 0, 1 };
	struct pair p;

	(void)state;
	pair_open(&p, 2);
	assert_int_equal(ring_publish(&p.prod), 0);
	assert_int_equal(ring_consumer_sleep(&p.cons), 1);
	assert_int_equal(ring_put(&p.prod, &d), 0);
	assert_int_equal(ring_publish(&p.prod), 1);
	assert_int_equal(ring_publish(&p.prod), 0); /* cleared */
	assert_int_equal(ring_put(&p.prod, &d), 0);
	assert_int_equal(ring_consumer_sleep(&p.cons), 0); /* work waits: do not sleep */
	assert_int_equal(ring_publish(&p.prod), 0);       /* flag not left set */
	assert_int_equal(ring_producer_sleep(&p.prod), 1); /* full */
	assert_int_equal(ring_get(&p.cons, &d), 1);
	assert_int_equal(ring_release(&p.cons), 1);
	assert_int_equal(ring_release(&p.cons), 0);
	pair_close(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_random_one_thread),
		cmocka_unit_test(test_two_threads),
		cmocka_unit_test(test_two_threads_small_ring),
		cmocka_unit_test(test_hostile_tail),
		cmocka_unit_test(test_hostile_descriptors),
		cmocka_unit_test(test_hostile_head),
		cmocka_unit_test(test_wake_flags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
