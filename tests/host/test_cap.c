/* test_cap.c: host unit tests of kernel/object/cap.c: slot decoding and its errors, and the reference
 * each capability holds on its object, over the fakes of tests/host/fake_kernel.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdbool.h>
#include <limits.h>
#include <string.h>
#include <cmocka.h>

#include "object/cap.h"
#include "fake_kernel.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const uint32_t all_types[] = {
	TACET_CAP_ENDPOINT, TACET_CAP_NOTIFICATION, TACET_CAP_IRQ,
	TACET_CAP_FRAME,    TACET_CAP_PROCESS,	    TACET_CAP_THREAD,
};

static int reset(void **state)
{
	(void)state;
	fake_kernel_reset();
	assert_int_equal(fake_pages_in_use(), 0);
	return 0;
}

/* Every cspace a test made was freed, with its page. */
static int check_no_pages(void **state)
{
	(void)state;
	assert_int_equal(fake_pages_in_use(), 0);
	return 0;
}

static struct cspace *new_cspace(void)
{
	struct cspace *cs = cspace_new();

	assert_non_null(cs);
	return cs;
}

/* Installs obj in the empty slot `slot`, as the syscalls do: decode, then invoke. */
static struct cap *install(struct cspace *cs, unsigned long slot, struct kobj *obj,
			   uint32_t rights, uint64_t badge)
{
	long err = 0;
	struct cap *c = cap_empty_slot(cs, slot, &err);

	if (!c)
		fail_msg("slot %lu not empty: error %ld", slot, err);
	cap_install(c, obj, rights, badge);
	return c;
}

static void expect_lookup_error(struct cspace *cs, unsigned long slot, uint32_t type,
				uint32_t rights, long want)
{
	long err = 0;

	assert_null(cap_lookup(cs, slot, type, rights, &err));
	assert_int_equal(err, want);
}

static void expect_slot_clear(const struct cap *c)
{
	assert_null(c->obj);
	assert_int_equal(c->rights, 0);
	assert_int_equal(c->badge, 0);
}

static void test_cspace_new_empty(void **state)
{
	struct cspace *cs = new_cspace();

	(void)state;
	assert_int_equal(fake_pages_in_use(), 1);
	for (int i = 0; i < CSPACE_SLOTS; i++)
		expect_slot_clear(&cs->slots[i]);
	cspace_free(cs);
	assert_int_equal(fake_kobj_put_calls(), 0);
}

static void test_cspace_new_out_of_memory(void **state)
{
	(void)state;
	fake_pages_set_limit(0);
	assert_null(cspace_new());
	fake_pages_set_limit(SIZE_MAX);
}

static void test_bad_slot(void **state)
{
	static const unsigned long bad[] = { 0, CSPACE_SLOTS, CSPACE_SLOTS + 1, 1UL << 32,
					     ULONG_MAX - CSPACE_SLOTS + 1, ULONG_MAX };
	struct kobj ep = { .type = TACET_CAP_ENDPOINT, .refs = 1 };
	struct cspace *cs = new_cspace();
	long err;

	(void)state;
	/* Slot 0 is refused even when its storage holds a capability. */
	cap_install(&cs->slots[0], &ep, TACET_RIGHTS_ALL, 0);
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		expect_lookup_error(cs, bad[i], TACET_CAP_NULL, 0, TACET_EBADSLOT);
		expect_lookup_error(cs, bad[i], TACET_CAP_ENDPOINT, TACET_RIGHTS_ALL,
				    TACET_EBADSLOT);
		err = 0;
		assert_null(cap_empty_slot(cs, bad[i], &err));
		assert_int_equal(err, TACET_EBADSLOT);
	}
	/* The last slot is a slot. */
	install(cs, CSPACE_SLOTS - 1, &ep, TACET_RIGHT_READ, 0);
	assert_ptr_equal(cap_lookup(cs, CSPACE_SLOTS - 1, TACET_CAP_ENDPOINT, 0, &err),
			 &cs->slots[CSPACE_SLOTS - 1]);
	cspace_free(cs); /* slot 0's reference is dropped like any other */
	assert_int_equal(ep.refs, 1);
}

static void test_empty_slot_lookup(void **state)
{
	struct cspace *cs = new_cspace();

	(void)state;
	for (unsigned long slot = 1; slot < CSPACE_SLOTS; slot++) {
		expect_lookup_error(cs, slot, TACET_CAP_NULL, 0, TACET_EEMPTY);
		expect_lookup_error(cs, slot, TACET_CAP_FRAME, TACET_RIGHTS_ALL, TACET_EEMPTY);
	}
	cspace_free(cs);
}

static void test_wrong_type(void **state)
{
	struct kobj objs[ARRAY_LEN(all_types)];
	struct cspace *cs = new_cspace();

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(all_types); i++) {
		objs[i] = (struct kobj){ .type = all_types[i], .refs = 1 };
		install(cs, 1 + i, &objs[i], TACET_RIGHT_READ, 0);
	}
	for (size_t i = 0; i < ARRAY_LEN(all_types); i++) {
		for (size_t j = 0; j < ARRAY_LEN(all_types); j++) {
			long err = 0;
			struct cap *c = cap_lookup(cs, 1 + i, all_types[j], TACET_RIGHT_READ, &err);

			if (i == j) {
				assert_ptr_equal(c, &cs->slots[1 + i]);
			} else {
				assert_null(c);
				assert_int_equal(err, TACET_ETYPE);
			}
		}
		/* The type is checked before the rights. */
		expect_lookup_error(cs, 1 + i, all_types[(i + 1) % ARRAY_LEN(all_types)],
				    TACET_RIGHTS_ALL, TACET_ETYPE);
	}
	cspace_free(cs);
	for (size_t i = 0; i < ARRAY_LEN(all_types); i++)
		assert_int_equal(objs[i].refs, 1);
}

static void test_missing_rights(void **state)
{
	struct kobj ntfn = { .type = TACET_CAP_NOTIFICATION, .refs = 1 };
	struct cspace *cs = new_cspace();

	(void)state;
	/* Every held set against every wanted set: found exactly when wanted is a subset. */
	for (uint32_t held = 0; held <= TACET_RIGHTS_ALL; held++)
		install(cs, 1 + held, &ntfn, held, 0);
	for (uint32_t held = 0; held <= TACET_RIGHTS_ALL; held++) {
		for (uint32_t want = 0; want <= TACET_RIGHTS_ALL; want++) {
			long err = 0;
			struct cap *c;

			c = cap_lookup(cs, 1 + held, TACET_CAP_NOTIFICATION, want, &err);

			if ((want & held) == want) {
				assert_ptr_equal(c, &cs->slots[1 + held]);
			} else {
				assert_null(c);
				assert_int_equal(err, TACET_EPERM);
			}
		}
	}
	/* TACET_CAP_NULL still checks the rights. */
	expect_lookup_error(cs, 1 + TACET_RIGHT_READ, TACET_CAP_NULL, TACET_RIGHT_WRITE,
			    TACET_EPERM);
	cspace_free(cs);
	assert_int_equal(ntfn.refs, 1);
}

static void test_cap_null_matches_any(void **state)
{
	struct kobj objs[ARRAY_LEN(all_types)];
	struct cspace *cs = new_cspace();
	long err;

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(all_types); i++) {
		objs[i] = (struct kobj){ .type = all_types[i], .refs = 1 };
		install(cs, 10 + i, &objs[i], TACET_RIGHTS_ALL, 100 + i);
	}
	for (size_t i = 0; i < ARRAY_LEN(all_types); i++) {
		struct cap *c = cap_lookup(cs, 10 + i, TACET_CAP_NULL, TACET_RIGHTS_ALL, &err);

		assert_ptr_equal(c, &cs->slots[10 + i]);
		assert_ptr_equal(c->obj, &objs[i]);
		assert_int_equal(c->badge, 100 + i);
	}
	cspace_free(cs);
}

static void test_empty_slot_occupied(void **state)
{
	struct kobj ep = { .type = TACET_CAP_ENDPOINT, .refs = 1 };
	struct cspace *cs = new_cspace();
	long err = 0;

	(void)state;
	assert_ptr_equal(cap_empty_slot(cs, 5, &err), &cs->slots[5]);
	install(cs, 5, &ep, TACET_RIGHT_WRITE, 7);
	assert_null(cap_empty_slot(cs, 5, &err));
	assert_int_equal(err, TACET_EEXIST);
	/* A slot with no rights left is still occupied. */
	install(cs, 6, &ep, 0, 0);
	err = 0;
	assert_null(cap_empty_slot(cs, 6, &err));
	assert_int_equal(err, TACET_EEXIST);
	/* Empty again once cleared. */
	cap_clear(&cs->slots[5]);
	assert_ptr_equal(cap_empty_slot(cs, 5, &err), &cs->slots[5]);
	cspace_free(cs);
	assert_int_equal(ep.refs, 1);
}

static void test_install_and_clear_refs(void **state)
{
	struct kobj ep = { .type = TACET_CAP_ENDPOINT, .refs = 1 }; /* its creator's reference */
	struct cspace *cs = new_cspace();
	struct cap *c;
	long err;

	(void)state;
	c = install(cs, 3, &ep, TACET_RIGHT_READ | TACET_RIGHT_GRANT, 0xfeedULL << 40);
	assert_int_equal(ep.refs, 2);
	assert_ptr_equal(c, &cs->slots[3]);
	assert_ptr_equal(c->obj, &ep);
	assert_int_equal(c->rights, TACET_RIGHT_READ | TACET_RIGHT_GRANT);
	assert_int_equal(c->badge, 0xfeedULL << 40);
	assert_ptr_equal(cap_lookup(cs, 3, TACET_CAP_ENDPOINT, TACET_RIGHT_GRANT, &err), c);
	assert_int_equal(ep.refs, 2); /* a lookup takes no reference */

	cap_clear(c);
	assert_int_equal(ep.refs, 1);
	assert_int_equal(fake_kobj_put_calls(), 1);
	assert_int_equal(fake_destroyed_count(), 0);
	expect_slot_clear(c);
	expect_lookup_error(cs, 3, TACET_CAP_NULL, 0, TACET_EEMPTY);

	/* Clearing an empty slot (again, or one never used) drops nothing. */
	cap_clear(c);
	cap_clear(&cs->slots[4]);
	assert_int_equal(fake_kobj_put_calls(), 1);
	assert_int_equal(ep.refs, 1);

	/* The capability holding the last reference destroys the object, once. */
	ep.refs = 0;
	c = install(cs, 3, &ep, TACET_RIGHTS_ALL, 0);
	assert_int_equal(ep.refs, 1);
	cap_clear(c);
	assert_int_equal(ep.refs, 0);
	assert_int_equal(fake_destroyed_count(), 1);
	assert_ptr_equal(fake_destroyed(0), &ep);
	expect_slot_clear(c);
	cspace_free(cs);
	assert_int_equal(fake_destroyed_count(), 1);
}

static void test_cspace_free_drops_every_reference(void **state)
{
	/* extra: references held elsewhere; copies: capabilities to it in the cspace. */
	static const struct {
		uint32_t type, extra, copies;
	} spec[] = {
		{ TACET_CAP_ENDPOINT, 0, 1 }, { TACET_CAP_ENDPOINT, 1, 1 },
		{ TACET_CAP_NOTIFICATION, 0, 3 }, { TACET_CAP_FRAME, 2, 5 },
		{ TACET_CAP_PROCESS, 0, 2 }, { TACET_CAP_THREAD, 1, 4 },
		{ TACET_CAP_IRQ, 0, 1 }, { TACET_CAP_FRAME, 0, 0 },
	};
	struct kobj objs[ARRAY_LEN(spec)];
	struct cspace *cs = new_cspace();
	unsigned long slot = CSPACE_SLOTS - 1; /* spread over the table from its last slot down */
	size_t caps = 0, gone = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(spec); i++) {
		objs[i] = (struct kobj){ .type = spec[i].type, .refs = spec[i].extra };
		for (uint32_t k = 0; k < spec[i].copies; k++, caps++, slot -= 7)
			install(cs, slot, &objs[i], TACET_RIGHT_READ, caps);
		assert_int_equal(objs[i].refs, spec[i].extra + spec[i].copies);
	}
	cspace_free(cs);
	assert_int_equal(fake_pages_in_use(), 0);
	assert_int_equal(fake_kobj_put_calls(), caps);
	for (size_t i = 0; i < ARRAY_LEN(spec); i++) {
		bool last = spec[i].copies && !spec[i].extra;

		assert_int_equal(objs[i].refs, spec[i].extra);
		assert_int_equal(fake_destroyed_times(&objs[i]), last);
		gone += last;
	}
	assert_int_equal(fake_destroyed_count(), gone);
}

/* cspace_free_step empties CSPACE_FREE_STEP slots a call, in order, and frees the table only
 * with the last: a process's end gives its capabilities back a step of the reaper at a time. */
static void test_cspace_free_in_steps(void **state)
{
	static struct kobj objs[CSPACE_SLOTS];
	struct cspace *cs = new_cspace();
	uint64_t next = 0;
	unsigned int steps = 0;
	bool done = false;

	(void)state;
	for (unsigned long i = 1; i < CSPACE_SLOTS; i++) {
		objs[i] = (struct kobj){ .type = TACET_CAP_ENDPOINT, .refs = 0 };
		install(cs, i, &objs[i], TACET_RIGHT_READ, i);
	}
	while (!done) {
		uint64_t from = next;

		done = cspace_free_step(cs, &next);
		steps++;
		if (done)
			break;
		assert_int_equal(next, from + CSPACE_FREE_STEP);
		assert_int_equal(fake_pages_in_use(), 1); /* the table stays until the last step */
		for (unsigned long i = 1; i < CSPACE_SLOTS; i++) {
			assert_int_equal(objs[i].refs, i < next ? 0 : 1);
			if (i >= next)
				assert_ptr_equal(cs->slots[i].obj, &objs[i]);
		}
	}
	assert_int_equal(steps, (CSPACE_SLOTS + CSPACE_FREE_STEP - 1) / CSPACE_FREE_STEP);
	assert_int_equal(fake_pages_in_use(), 0);
	assert_int_equal(fake_kobj_put_calls(), CSPACE_SLOTS - 1);
	assert_int_equal(fake_destroyed_count(), CSPACE_SLOTS - 1);
}

static void test_copy_counts_references(void **state)
{
	struct kobj frame = { .type = TACET_CAP_FRAME, .refs = 1 };
	struct cspace *cs = new_cspace(), *other = new_cspace();
	long err = 0;
	struct cap *src;

	(void)state;
	install(cs, 1, &frame, TACET_RIGHTS_ALL, 0);
	/* Copy slot 1 into every other slot, with fewer rights and a badge, as cap_copy would. */
	for (unsigned long slot = 2; slot < CSPACE_SLOTS; slot++) {
		src = cap_lookup(cs, 1, TACET_CAP_FRAME, 0, &err);
		assert_non_null(src);
		install(cs, slot, src->obj, src->rights & (uint32_t)slot, slot);
	}
	assert_int_equal(frame.refs, CSPACE_SLOTS);
	for (unsigned long slot = 2; slot < CSPACE_SLOTS; slot++) {
		assert_int_equal(cs->slots[slot].rights, TACET_RIGHTS_ALL & slot);
		assert_int_equal(cs->slots[slot].badge, slot);
	}
	/* And into another cspace. */
	for (unsigned long slot = 1; slot < 17; slot++)
		install(other, slot, &frame, TACET_RIGHT_READ, 0);
	assert_int_equal(frame.refs, CSPACE_SLOTS + 16);
	/* Deleting every odd slot drops exactly those references. */
	for (unsigned long slot = 1; slot < CSPACE_SLOTS; slot += 2)
		cap_clear(&cs->slots[slot]);
	assert_int_equal(frame.refs, CSPACE_SLOTS + 16 - CSPACE_SLOTS / 2);
	cspace_free(cs);
	assert_int_equal(frame.refs, 1 + 16);
	assert_int_equal(fake_destroyed_count(), 0);
	/* The creator lets go; the other cspace's last capability destroys it. */
	kobj_put(&frame);
	assert_int_equal(frame.refs, 16);
	cspace_free(other);
	assert_int_equal(frame.refs, 0);
	assert_int_equal(fake_destroyed_count(), 1);
	assert_ptr_equal(fake_destroyed(0), &frame);
	assert_int_equal(fake_kobj_put_calls(), CSPACE_SLOTS - 1 + 16 + 1);
}

/* The fast paths' cap_peek means what cap_lookup means: for every slot, type, held and wanted
 * rights, it finds a capability exactly when cap_lookup does (a wanted set of several rights
 * needs them all, not any one of them). */
static void test_peek_agrees_with_lookup(void **state)
{
	struct kobj ntfn = { .type = TACET_CAP_NOTIFICATION, .refs = 1 };
	struct cspace *cs = new_cspace();

	(void)state;
	for (uint32_t held = 0; held <= TACET_RIGHTS_ALL; held++)
		install(cs, 1 + held, &ntfn, held, 0);
	for (unsigned long slot = 0; slot <= CSPACE_SLOTS; slot++) {
		for (size_t i = 0; i < ARRAY_LEN(all_types); i++) {
			for (uint32_t want = 0; want <= TACET_RIGHTS_ALL; want++) {
				long err = 0;
				struct cap *c = cap_lookup(cs, slot, all_types[i], want, &err);
				const struct cap *p = cap_peek(cs, slot, all_types[i], want);

				if (p != c)
					fail_msg("slot %lu type %u want %#x: cap_peek %p, cap_lookup %p",
						 slot, all_types[i], want, (const void *)p,
						 (void *)c);
			}
		}
	}
	cspace_free(cs);
	assert_int_equal(ntfn.refs, 1);
}

#define CAP_TEST(f) cmocka_unit_test_setup_teardown(f, reset, check_no_pages)

int main(void)
{
	const struct CMUnitTest tests[] = {
		CAP_TEST(test_cspace_new_empty),
		CAP_TEST(test_cspace_new_out_of_memory),
		CAP_TEST(test_bad_slot),
		CAP_TEST(test_empty_slot_lookup),
		CAP_TEST(test_wrong_type),
		CAP_TEST(test_missing_rights),
		CAP_TEST(test_peek_agrees_with_lookup),
		CAP_TEST(test_cap_null_matches_any),
		CAP_TEST(test_empty_slot_occupied),
		CAP_TEST(test_install_and_clear_refs),
		CAP_TEST(test_cspace_free_drops_every_reference),
		CAP_TEST(test_cspace_free_in_steps),
		CAP_TEST(test_copy_counts_references),
	};

	return cmocka_run_group_tests_name("cap", tests, NULL, NULL);
}
