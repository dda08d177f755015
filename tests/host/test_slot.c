/* test_slot.c: host unit tests of lib/slot.c, the one allocator of a server's capability slots:
 * lib's pool hands out 96..127 once each and skips a slot someone filled; a thread that names a
 * pool of its own takes slots from it alone, lib's untouched; a slot freed into the wrong pool
 * is left alone; two threads with pools of their own allocate at once and never share a slot
 * (init's supervisor and service thread). The capability table is the test's own. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <pthread.h>
#include <cmocka.h>

#include <tacet.h>
#include <tacet/init_proto.h>

static _Atomic int filled[TACET_SLOTS]; /* the fake capability table: 1 holds something */

long tacet_cap_info(unsigned long slot, unsigned long *rights, unsigned long *badge)
{
	(void)rights;
	(void)badge;
	return slot < TACET_SLOTS && filled[slot] ? 0 : -TACET_EEMPTY;
}

long tacet_cap_delete(unsigned long slot)
{
	if (slot < TACET_SLOTS)
		filled[slot] = 0;
	return 0;
}

/* Take every slot the calling thread's pool has left, in order, into got; how many. */
static unsigned int drain(long *got, unsigned int max)
{
	unsigned int n = 0;
	long slot;

	while (n < max && (slot = tacet_slot_alloc()) >= 0) {
		filled[slot] = 1; /* the caller puts something there */
		got[n++] = slot;
	}
	return n;
}

static void free_all(const long *got, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		tacet_slot_free((unsigned long)got[i]);
}

static void test_lib_pool(void **state)
{
	long got[TACET_SLOTS];
	unsigned int n;

	(void)state;
	n = drain(got, TACET_SLOTS);
	assert_int_equal(n, TACET_SLOTS - TACET_CHILD_LIB_SLOTS);
	for (unsigned int i = 0; i < n; i++)
		assert_int_equal(got[i], TACET_CHILD_LIB_SLOTS + i);
	assert_int_equal(tacet_slot_alloc(), -TACET_ENOMEM);
	tacet_slot_free(100);
	assert_int_equal(filled[100], 0); /* what it held is deleted */
	assert_int_equal(tacet_slot_alloc(), 100);
	filled[80] = 1;
	tacet_slot_free(80); /* not lib's: left alone */
	assert_int_equal(filled[80], 1);
	filled[80] = 0;
	free_all(got, n);
	filled[TACET_CHILD_LIB_SLOTS] = 1; /* filled without asking: skipped */
	assert_int_equal(tacet_slot_alloc(), TACET_CHILD_LIB_SLOTS + 1);
	tacet_slot_free(TACET_CHILD_LIB_SLOTS + 1);
	filled[TACET_CHILD_LIB_SLOTS] = 0;
}

static void test_own_pool(void **state)
{
	struct tacet_slot_pool mine = { 0 };
	long got[TACET_SLOTS];
	unsigned int n;

	(void)state;
	tacet_slot_pool_use(&mine);
	assert_int_equal(tacet_slot_alloc(), -TACET_ENOMEM); /* empty until filled */
	tacet_slot_pool_add(80, 4);
	n = drain(got, TACET_SLOTS);
	assert_int_equal(n, 4);
	for (unsigned int i = 0; i < n; i++)
		assert_int_equal(got[i], 80 + i);
	filled[TACET_CHILD_LIB_SLOTS] = 1;
	tacet_slot_free(TACET_CHILD_LIB_SLOTS); /* lib's, not this pool's: left alone */
	assert_int_equal(filled[TACET_CHILD_LIB_SLOTS], 1);
	filled[TACET_CHILD_LIB_SLOTS] = 0;
	tacet_slot_pool_use(NULL); /* lib's again, untouched by the other pool */
	assert_int_equal(tacet_slot_alloc(), TACET_CHILD_LIB_SLOTS);
	tacet_slot_free(TACET_CHILD_LIB_SLOTS);
	tacet_slot_pool_use(&mine);
	free_all(got, n);
	assert_int_equal(tacet_slot_alloc(), 80);
	tacet_slot_free(80);
	tacet_slot_pool_use(NULL);
}

/* Two threads, each with a pool of its own (init's ranges: 80..107 and 108..127). */
struct worker {
	unsigned long first, count;
	long got[TACET_SLOTS];
	unsigned int n;
};

static pthread_barrier_t start;

static void *work(void *arg)
{
	struct worker *w = arg;
	struct tacet_slot_pool pool = { 0 };

	tacet_slot_pool_use(&pool);
	tacet_slot_pool_add(w->first, w->count);
	pthread_barrier_wait(&start);
	for (int round = 0; round < 1000; round++) { /* take all, give back, again */
		w->n = drain(w->got, TACET_SLOTS);
		if (round < 999)
			free_all(w->got, w->n);
	}
	return NULL;
}

static void test_two_threads(void **state)
{
	static struct worker w[2] = { { .first = 80, .count = 28 }, { .first = 108, .count = 20 } };
	pthread_t t[2];

	(void)state;
	pthread_barrier_init(&start, NULL, 2);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(w[i].n, w[i].count);
		for (unsigned int k = 0; k < w[i].n; k++) {
			assert_true((unsigned long)w[i].got[k] >= w[i].first);
			assert_true((unsigned long)w[i].got[k] < w[i].first + w[i].count);
		}
	}
	for (unsigned long s = 80; s < TACET_SLOTS; s++)
		filled[s] = 0; /* the threads' pools end with them; what they held too */
	/* this thread's pool is still lib's, none of its slots taken by the threads */
	assert_int_equal(tacet_slot_alloc(), TACET_CHILD_LIB_SLOTS);
	tacet_slot_free(TACET_CHILD_LIB_SLOTS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lib_pool),
		cmocka_unit_test(test_own_pool),
		cmocka_unit_test(test_two_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
