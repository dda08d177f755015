/* test_account.c: host unit tests of kernel/object/account.c: a charge fits the limit exactly or
 * fails changing nothing; a child's limit is reserved from its parent and given back when the
 * child's last reference goes; a long chain of accounts ends without recursion; a run of pages
 * is charged whole. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "object/account.h"
#include "mm/kalloc.h"
#include "fake_kernel.h"
#include "fake_pages.h"
#include "mm/page_alloc.h"

static int check_no_objects(void **state)
{
	(void)state;
	assert_int_equal(kalloc_live(), 0);
	return 0;
}

static void test_charge_up_to_the_limit(void **state)
{
	struct account *a = account_new(NULL, 4096);

	(void)state;
	assert_non_null(a);
	assert_int_equal(account_charge(a, 4000), 0);
	assert_int_equal(account_charge(a, 97), -1);
	assert_int_equal(a->used, 4000);
	assert_int_equal(account_charge(a, 96), 0);
	assert_int_equal(account_charge(a, 1), -1);
	assert_int_equal(account_charge(a, UINT64_MAX), -1); /* no wrap-around */
	account_refund(a, 4096);
	assert_int_equal(a->used, 0);
	account_put(a);
}

static void test_child_reserves_from_parent(void **state)
{
	struct account *root = account_new(NULL, 10000), *child, *other;

	(void)state;
	child = account_new(root, 6000);
	assert_non_null(child);
	assert_int_equal(root->used, 6000);
	assert_null(account_new(root, 4001)); /* only 4000 left */
	assert_int_equal(root->used, 6000);
	other = account_new(root, 4000);
	assert_non_null(other);
	/* the child's charges are its own: the parent is full, the child is not */
	assert_int_equal(account_charge(root, 1), -1);
	assert_int_equal(account_charge(child, 6000), 0);
	assert_int_equal(account_charge(child, 1), -1);
	account_refund(child, 6000);
	account_put(child);
	assert_int_equal(root->used, 4000); /* its reservation came back */
	account_put(other);
	assert_int_equal(root->used, 0);
	account_put(root);
}

/* A child's references keep it (and its reservation) alive; the last one ends it. */
static void test_reservation_lives_with_references(void **state)
{
	struct account *root = account_new(NULL, 100), *child = account_new(root, 60);

	(void)state;
	account_get(child);
	account_put(child);
	assert_int_equal(root->used, 60);
	account_put(child);
	assert_int_equal(root->used, 0);
	account_put(root);
}

static void test_long_chain_ends_iteratively(void **state)
{
	enum { DEPTH = 100000 };
	struct account *root = account_new(NULL, DEPTH + 1), *a = root;

	(void)state;
	for (int i = 0; i < DEPTH; i++) {
		struct account *child = account_new(a, DEPTH - i);

		assert_non_null(child);
		if (a != root)
			account_put(a); /* only the child's reference keeps it now */
		a = child;
	}
	assert_int_equal(root->used, DEPTH);
	account_put(a); /* the whole chain ends here */
	assert_int_equal(root->used, 0);
	assert_int_equal(root->refs, 1);
	account_put(root);
}

/* A contiguous run charges all its pages, or nothing: over the limit, or when the machine has
 * no run (the refund then leaves the account as it was). */
static void test_pages_run_charged_whole(void **state)
{
	struct account *a = account_new(NULL, 16 * PAGE_SIZE);
	uint64_t pa;

	(void)state;
	assert_null((void *)(uintptr_t)account_pages_alloc(a, 17, false));
	assert_int_equal(a->used, 0);
	pa = account_pages_alloc(a, 16, true);
	assert_true(pa != 0);
	assert_int_equal(a->used, 16 * PAGE_SIZE);
	assert_int_equal(fake_pages_in_use(), 16);
	assert_int_equal(account_pages_alloc(a, 1, false), 0);
	account_pages_free(a, pa, 16);
	assert_int_equal(a->used, 0);
	fake_pages_set_limit(3);
	assert_int_equal(account_pages_alloc(a, 4, true), 0);
	assert_int_equal(a->used, 0);
	fake_pages_set_limit(SIZE_MAX);
	assert_int_equal(fake_pages_in_use(), 0);
	account_put(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_charge_up_to_the_limit, check_no_objects),
		cmocka_unit_test_teardown(test_child_reserves_from_parent, check_no_objects),
		cmocka_unit_test_teardown(test_reservation_lives_with_references, check_no_objects),
		cmocka_unit_test_teardown(test_long_chain_ends_iteratively, check_no_objects),
		cmocka_unit_test_teardown(test_pages_run_charged_whole, check_no_objects),
	};

	return cmocka_run_group_tests_name("account", tests, NULL, NULL);
}
