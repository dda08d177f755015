/* test_kalloc.c: host unit tests of kernel/mm/kalloc.c, the object caches: objects are distinct,
 * zeroed and inside their slab's page; a freed object is reused before a new page is taken; a
 * slab whose last object is freed goes back to the page allocator at once; running out of
 * pages is a NULL, not a leak; and a long random run keeps the page count equal to the number
 * of slabs that hold an object. Over the page fakes of fake_pages.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/hart.h"
#include "core/spinlock.h"
#include "mm/kalloc.h"
#include "mm/page_alloc.h"
#include "fake_pages.h"
#include "host_rng.h"

static struct hart the_hart;
__thread struct hart *host_current_hart = &the_hart;

uint64_t arch_cycles(void)
{
	return 0;
}

/* spinlock.c's slow side, here the test's: a wait spins (the host's threads run at once and
 * nobody sleeps, so a release has nobody to wake). */
void spin_lock_wait(struct spinlock *lock)
{
	while (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
		;
}

void spin_wake_sleepers(struct spinlock *lock)
{
	(void)lock;
}

_Noreturn void spin_misuse(const struct spinlock *lock, const char *what)
{
	fail_msg("spinlock %s: %s", lock->name, what);
	abort();
}

static const size_t sizes[] = { 1, 32, 33, 64, 100, 128, 200, 256, 300, 496, 497, 728, 1008,
				1009, 2032 };

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MANY 600

static uintptr_t page_of(const void *p)
{
	return (uintptr_t)p & ~(uintptr_t)(PAGE_SIZE - 1);
}

static int setup(void **state)
{
	(void)state;
	fake_pages_set_limit(SIZE_MAX);
	assert_int_equal(fake_pages_in_use(), 0);
	assert_int_equal(kalloc_live(), 0);
	return 0;
}

/* Every object handed out and freed: the caches hold no page. */
static int teardown(void **state)
{
	(void)state;
	assert_int_equal(kalloc_live(), 0);
	assert_int_equal(kalloc_pages(), 0);
	assert_int_equal(fake_pages_in_use(), 0);
	return 0;
}

static void test_size_classes(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(sizes); i++) {
		size_t c = kalloc_size(sizes[i]);

		assert_true(c >= sizes[i]);
		assert_true(c % 16 == 0);
		/* about one class per power of two: about twice what was asked at worst */
		assert_true(c <= 2 * sizes[i] + 16 || c == 32);
	}
	assert_int_equal(kalloc_size(KALLOC_MAX), KALLOC_MAX);
	assert_int_equal(kalloc_size(728), 1008); /* a thread: four to a page */
}

/* MANY objects of each size: distinct, zeroed, whole inside one page, and written over in
 * full without touching each other (ASan watches the page bounds). */
static void test_objects_distinct_and_zeroed(void **state)
{
	static unsigned char *objs[MANY];

	(void)state;
	for (size_t s = 0; s < ARRAY_LEN(sizes); s++) {
		size_t size = sizes[s];

		for (size_t i = 0; i < MANY; i++) {
			objs[i] = kalloc(size);
			assert_non_null(objs[i]);
			for (size_t b = 0; b < kalloc_size(size); b++)
				assert_int_equal(objs[i][b], 0);
			assert_int_equal(page_of(objs[i]), page_of(objs[i] + kalloc_size(size) - 1));
			assert_true((uintptr_t)objs[i] % 16 == 0);
			memset(objs[i], (int)(i & 0xff) | 1, kalloc_size(size));
		}
		for (size_t i = 0; i < MANY; i++)
			for (size_t b = 0; b < kalloc_size(size); b++)
				assert_int_equal(objs[i][b], (i & 0xff) | 1);
		assert_int_equal(kalloc_live(), MANY);
		for (size_t i = 0; i < MANY; i++)
			kfree(objs[i], size);
		assert_int_equal(kalloc_pages(), 0);
	}
}

/* A freed object comes back before a new page is taken, even from a slab in the middle. */
static void test_reuse_before_growing(void **state)
{
	void *objs[3 * 4];
	size_t pages;

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(objs); i++)
		objs[i] = kalloc(1000); /* four per page: three full slabs */
	pages = fake_pages_in_use();
	assert_int_equal(pages, 3);
	kfree(objs[5], 1000);
	objs[5] = kalloc(1000);
	assert_int_equal(fake_pages_in_use(), pages);
	assert_int_equal(page_of(objs[5]), page_of(objs[4]));
	for (size_t i = 0; i < ARRAY_LEN(objs); i++)
		kfree(objs[i], 1000);
}

/* The last object of a slab freed: its page goes back at once, the other slabs stay. */
static void test_empty_slab_returns_its_page(void **state)
{
	void *a[4], *b[4];

	(void)state;
	for (int i = 0; i < 4; i++)
		a[i] = kalloc(1000);
	for (int i = 0; i < 4; i++)
		b[i] = kalloc(1000);
	assert_int_equal(fake_pages_in_use(), 2);
	assert_int_equal(kalloc_pages(), 2);
	for (int i = 0; i < 4; i++)
		kfree(a[i], 1000);
	assert_int_equal(fake_pages_in_use(), 1);
	assert_int_equal(kalloc_pages(), 1);
	for (int i = 0; i < 4; i++)
		kfree(b[i], 1000);
}

/* No page left: NULL, nothing lost; a later free makes room again. */
static void test_out_of_pages(void **state)
{
	void *objs[2 * 15];

	(void)state;
	fake_pages_set_limit(2);
	for (size_t i = 0; i < ARRAY_LEN(objs); i++)
		assert_non_null(objs[i] = kalloc(256));
	assert_null(kalloc(256));
	assert_null(kalloc(32)); /* another class needs a page of its own */
	assert_int_equal(kalloc_live(), ARRAY_LEN(objs));
	kfree(objs[0], 256);
	assert_non_null(objs[0] = kalloc(256));
	for (size_t i = 0; i < ARRAY_LEN(objs); i++)
		kfree(objs[i], 256);
	assert_non_null(objs[0] = kalloc(32)); /* the pages came back */
	kfree(objs[0], 32);
}

/* Random allocations and frees of random sizes: after every step the caches hold exactly the
 * pages that have a live object in them. */
static void test_random_pages_match_live_slabs(void **state)
{
	enum { SLOTS = 400, STEPS = 20000 };
	static void *obj[SLOTS];
	static size_t size[SLOTS];

	(void)state;
	rng_state = 0x5eed0fca11ac;
	for (int step = 0; step < STEPS; step++) {
		size_t i = rng_below(SLOTS), live_pages = 0;

		if (obj[i]) {
			kfree(obj[i], size[i]);
			obj[i] = NULL;
		} else {
			size[i] = 1 + rng_below(KALLOC_MAX);
			assert_non_null(obj[i] = kalloc(size[i]));
		}
		if (step % 500)
			continue;
		for (size_t j = 0; j < SLOTS; j++) {
			bool first = obj[j] != NULL;

			for (size_t k = 0; first && k < j; k++)
				first = !obj[k] || page_of(obj[k]) != page_of(obj[j]);
			live_pages += first;
		}
		assert_int_equal(kalloc_pages(), live_pages);
		assert_int_equal(fake_pages_in_use(), live_pages);
	}
	for (size_t i = 0; i < SLOTS; i++)
		kfree(obj[i], size[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_size_classes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_objects_distinct_and_zeroed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reuse_before_growing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_slab_returns_its_page, setup, teardown),
		cmocka_unit_test_setup_teardown(test_out_of_pages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_random_pages_match_live_slabs, setup, teardown),
	};

	return cmocka_run_group_tests_name("kalloc", tests, NULL, NULL);
}
