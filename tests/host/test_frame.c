/* test_frame.c: host unit tests of kernel/object/frame.c: a frame derived from a derived frame names
 * the root frame's pages at the right offset and holds a reference to the root, never to the
 * frame it came from, however long the derivation goes on (a chain would be freed by following
 * it); destroying derived frames gives the root its references back, and the root's end its
 * page and charge. Over the fakes of tests/host/fake_kernel.c (kobj_put records the objects
 * whose last reference went; the test destroys them). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "object/account.h"
#include "fake_kernel.h"
#include "object/frame.h"
#include "mm/kalloc.h"
#include "mm/page_alloc.h"

#define DEPTH 1000 /* fake_kernel.c records up to FAKE_DESTROYED_MAX (1024) ends */

/* kobj.c's, which the host build leaves out (it reaches every object type). */
void *kobj_new(struct account *acct, size_t size, uint32_t type)
{
	struct kobj *o = account_kalloc(acct, size);

	if (!o)
		return NULL;
	*o = (struct kobj){ .type = (uint16_t)type, .acct = acct };
	if (acct)
		account_get(acct);
	return o;
}

void kobj_free(struct kobj *o, size_t size)
{
	struct account *acct = o->acct;

	account_kfree(acct, o, size);
	if (acct)
		account_put(acct);
}

static struct frame *chain[DEPTH];
static size_t reaped; /* objects the fake kobj_put recorded that the test destroyed */

static int reset(void **state)
{
	(void)state;
	fake_kernel_reset();
	reaped = 0;
	return 0;
}

static int check_nothing_left(void **state)
{
	(void)state;
	assert_int_equal(kalloc_live(), 0);
	assert_int_equal(fake_pages_in_use(), 0);
	return 0;
}

/* A capability's reference to a new derived frame, as FRAME_DERIVE installs one. */
static struct frame *derive(struct account *a, struct frame *f, uint64_t first, uint64_t pages)
{
	struct frame *d = frame_derive(a, f, first, pages);

	assert_non_null(d);
	d->obj.refs = 1;
	return d;
}

/* Drop the capability's reference to f; destroy, in a loop as the reaper does, every frame
 * whose last reference went. */
static void drop(struct frame *f)
{
	kobj_put(&f->obj);
	while (reaped < fake_destroyed_count())
		frame_destroy((struct frame *)fake_destroyed(reaped++));
}

/* Device memory, 16 pages: each frame derived from the one before, one page further in and one
 * page shorter while it can, then the same page. Each is part of the root, at the offset the
 * derivations add up to, and only the root gains a reference each time. */
static void test_derived_from_derived_names_the_root(void **state)
{
	struct frame *root = frame_wrap(NULL, 0x40000000, 16, 1), *prev;
	uint64_t offset = 0;

	(void)state;
	assert_non_null(root);
	root->obj.refs = 1;
	prev = root;
	for (int i = 0; i < DEPTH; i++) {
		uint64_t first = prev->pages > 1 ? 1 : 0;

		chain[i] = derive(NULL, prev, first, prev->pages - first);
		offset += first;
		assert_ptr_equal(chain[i]->parent, root);
		assert_int_equal(chain[i]->pa, 0x40000000 + offset * PAGE_SIZE);
		assert_int_equal(chain[i]->pages, 16 - offset);
		assert_true(chain[i]->device);
		if (prev != root) /* nobody holds the one it came from */
			assert_int_equal(prev->obj.refs, 1);
		prev = chain[i];
	}
	assert_int_equal(root->obj.refs, 1 + DEPTH);
	/* each goes alone, in any order: the last first, then the first, ... */
	drop(chain[DEPTH - 1]);
	assert_int_equal(fake_destroyed_count(), 1);
	for (int i = 0; i < DEPTH - 1; i++)
		drop(chain[i]);
	assert_int_equal(fake_destroyed_count(), DEPTH);
	assert_int_equal(root->obj.refs, 1);
	drop(root);
	assert_int_equal(fake_destroyed_count(), DEPTH + 1);
}

/* RAM: the root's capability goes first; its page lives while a frame derived from a derived
 * frame names it, and goes, with every charge, with the last of them. */
static void test_ram_root_outlives_its_capability(void **state)
{
	struct account *a = account_new(NULL, 1 << 20);
	struct frame *root, *d1, *d2;

	(void)state;
	assert_non_null(a);
	root = frame_alloc(a, 1);
	assert_non_null(root);
	root->obj.refs = 1;
	d1 = derive(a, root, 0, 1);
	d2 = derive(a, d1, 0, 1);
	assert_ptr_equal(d2->parent, root);
	assert_int_equal(d2->pa, root->pa);
	drop(d1); /* d2 does not need it */
	drop(root);
	assert_int_equal(fake_destroyed_count(), 1);
	assert_int_equal(fake_pages_in_use(), 1);
	drop(d2);
	assert_int_equal(fake_destroyed_count(), 3);
	assert_int_equal(fake_pages_in_use(), 0);
	assert_int_equal(a->used, 0);
	account_put(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_derived_from_derived_names_the_root, reset,
						check_nothing_left),
		cmocka_unit_test_setup_teardown(test_ram_root_outlives_its_capability, reset,
						check_nothing_left),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
