/* test_ilist.c: host unit tests of kernel/lib/list.h (O(1) unlinking with the node alone) and
 * kernel/lib/ilist.c (the i-th node by position, with a cursor that stays exact across appends and
 * removals): fixed cases, random operations against an array model, and a listing of 200,000
 * nodes with removals and appends between the lookups that must walk O(n) nodes in all. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/ilist.h"
#include "lib/list.h"
#include "host_rng.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

struct item {
	int id;
	struct list_node link;
	struct ilist_node inode;
};

/* --- list.h --- */

/* head holds exactly want[0..n), linked consistently both ways. */
static void check_list(const struct list_node *head, struct item *const *want, size_t n)
{
	const struct list_node *l = head->next;

	for (size_t i = 0; i < n; i++, l = l->next) {
		assert_ptr_equal(list_entry(l, struct item, link), want[i]);
		assert_ptr_equal(l->next->prev, l);
	}
	assert_ptr_equal(l, head);
	assert_ptr_equal(head->next->prev, head);
	assert_int_equal(list_empty(head), n == 0);
}

static void test_list_push_remove(void **state)
{
	struct list_node head = LIST_INIT(head);
	struct item it[4] = { { .id = 0 }, { .id = 1 }, { .id = 2 }, { .id = 3 } };

	(void)state;
	check_list(&head, NULL, 0);
	for (int i = 0; i < 4; i++)
		list_push_back(&head, &it[i].link);
	check_list(&head, (struct item *[]){ &it[0], &it[1], &it[2], &it[3] }, 4);
	list_remove(&it[1].link); /* middle */
	check_list(&head, (struct item *[]){ &it[0], &it[2], &it[3] }, 3);
	list_remove(&it[0].link); /* first */
	list_remove(&it[3].link); /* last */
	check_list(&head, (struct item *[]){ &it[2] }, 1);
	list_remove(&it[2].link);
	check_list(&head, NULL, 0);
	list_push_back(&head, &it[3].link); /* a removed node goes on a list again */
	check_list(&head, (struct item *[]){ &it[3] }, 1);
}

/* A removed node points at itself: removing it again (release_begin after process_reap_start's
 * unlinking of a child) changes nothing. */
static void test_list_remove_twice(void **state)
{
	struct list_node head = LIST_INIT(head);
	struct item a = { .id = 0 }, b = { .id = 1 };

	(void)state;
	list_push_back(&head, &a.link);
	list_push_back(&head, &b.link);
	list_remove(&a.link);
	assert_true(list_empty(&a.link));
	list_remove(&a.link);
	check_list(&head, (struct item *[]){ &b }, 1);
	list_init(&a.link); /* on no list from the start */
	list_remove(&a.link);
	check_list(&head, (struct item *[]){ &b }, 1);
}

/* --- ilist --- */

static int id_at(struct ilist *l, size_t i)
{
	struct ilist_node *n = ilist_at(l, i);

	return n ? list_entry(n, struct item, inode)->id : -1;
}

/* The cursor, if any, is on the list at cursor_index; the count is right. */
static void check_cursor(const struct ilist *l)
{
	size_t i = 0, found = SIZE_MAX;

	for (const struct list_node *n = l->head.next; n != &l->head; n = n->next, i++)
		if (l->cursor && n == &l->cursor->link)
			found = i;
	assert_int_equal(i, l->count);
	if (l->cursor)
		assert_int_equal(found, l->cursor_index);
}

static void test_ilist_order_and_end(void **state)
{
	struct ilist l = ILIST_INIT(l);
	struct item it[5];

	(void)state;
	assert_null(ilist_at(&l, 0));
	for (int i = 0; i < 5; i++) {
		it[i].id = i;
		ilist_append(&l, &it[i].inode);
	}
	for (int i = 0; i < 5; i++)
		assert_int_equal(id_at(&l, (size_t)i), i);
	assert_int_equal(id_at(&l, 5), -1);
	assert_int_equal(id_at(&l, SIZE_MAX), -1);
	/* backwards and jumping about too */
	for (int i = 4; i >= 0; i--)
		assert_int_equal(id_at(&l, (size_t)i), i);
	assert_int_equal(id_at(&l, 3), 3);
	assert_int_equal(id_at(&l, 0), 0);
	assert_int_equal(id_at(&l, 4), 4);
	check_cursor(&l);
}

/* Removing the cursor's node, one before it, one after it; appending: the next index still
 * names what a fresh walk from the head would. */
static void test_ilist_cursor_follows_removals(void **state)
{
	struct ilist l = ILIST_INIT(l);
	struct item it[8];

	(void)state;
	for (int i = 0; i < 8; i++) {
		it[i].id = i;
		ilist_append(&l, &it[i].inode);
	}
	assert_int_equal(id_at(&l, 3), 3);      /* cursor on 3 (index 3) */
	l.steps = 0;
	assert_int_equal(id_at(&l, 4), 4);      /* the next index: one step from the cursor */
	assert_int_equal(l.steps, 1);
	assert_int_equal(id_at(&l, 3), 3);
	ilist_remove(&l, &it[3].inode);          /* the cursor's own node */
	check_cursor(&l);
	assert_int_equal(id_at(&l, 3), 4);      /* the next one takes its place */
	ilist_remove(&l, &it[1].inode);          /* one before the cursor */
	check_cursor(&l);
	assert_int_equal(id_at(&l, 2), 4);
	ilist_remove(&l, &it[6].inode);          /* one after it */
	check_cursor(&l);
	assert_int_equal(id_at(&l, 3), 5);
	ilist_append(&l, &it[3].inode);          /* a new node goes last */
	check_cursor(&l);
	assert_int_equal(id_at(&l, 4), 7);
	assert_int_equal(id_at(&l, 5), 3);
	assert_int_equal(id_at(&l, 6), -1);
	/* the first node under the cursor: no node before it to step back to */
	assert_int_equal(id_at(&l, 0), 0);
	ilist_remove(&l, &it[0].inode);
	check_cursor(&l);
	assert_int_equal(id_at(&l, 0), 2);
	/* empty it */
	ilist_remove(&l, &it[2].inode);
	ilist_remove(&l, &it[4].inode);
	ilist_remove(&l, &it[5].inode);
	ilist_remove(&l, &it[7].inode);
	ilist_remove(&l, &it[3].inode);
	check_cursor(&l);
	assert_int_equal(l.count, 0);
	assert_null(ilist_at(&l, 0));
}

#define MODEL_MAX 64

/* Random appends, removals and lookups (mostly the next index, as a listing asks) checked
 * against an array of the nodes in order. */
static void test_ilist_random_against_model(void **state)
{
	static const uint64_t seeds[] = { 0x11157, 0x9e3779b97f4a7c15ULL, 7 };
	struct item it[MODEL_MAX];

	(void)state;
	for (size_t s = 0; s < ARRAY_LEN(seeds); s++) {
		struct ilist l = ILIST_INIT(l);
		struct item *model[MODEL_MAX], *free_items[MODEL_MAX];
		size_t n = 0, nfree = MODEL_MAX, next = 0;

		rng_state = seeds[s];
		for (int i = 0; i < MODEL_MAX; i++) {
			it[i].id = i;
			free_items[i] = &it[i];
		}
		for (int step = 0; step < 20000; step++) {
			uint64_t op = rng_below(10);

			if (op < 3 && nfree) {
				size_t k = rng_below(nfree);
				struct item *x = free_items[k];

				free_items[k] = free_items[--nfree];
				ilist_append(&l, &x->inode);
				model[n++] = x;
			} else if (op < 5 && n) {
				size_t k = rng_below(n);

				ilist_remove(&l, &model[k]->inode);
				free_items[nfree++] = model[k];
				memmove(&model[k], &model[k + 1], (n - k - 1) * sizeof(model[0]));
				n--;
			} else {
				size_t i = op < 8 ? next : rng_below(n + 2);

				assert_int_equal(id_at(&l, i), i < n ? model[i]->id : -1);
				next = i < n ? i + 1 : 0;
			}
			check_cursor(&l);
		}
	}
}

#define BIG 200000

/* A listing of BIG nodes where, between two lookups, the node just returned or one before it
 * is removed and a new one appended (threads dying and being born while `ps` runs). Every
 * node that stays is listed once and in order, and the lookups walk one node each (a walk
 * from the head per lookup would take some 10^10 steps). */
static void test_ilist_listing_is_linear(void **state)
{
	struct ilist l = ILIST_INIT(l);
	struct item *it = calloc(BIG + BIG / 2, sizeof(*it));
	size_t appended = BIG, seen = 0, i = 0;
	int last = -1;
	struct ilist_node *n;

	(void)state;
	assert_non_null(it);
	for (size_t k = 0; k < BIG; k++) {
		it[k].id = (int)k;
		ilist_append(&l, &it[k].inode);
	}
	while ((n = ilist_at(&l, i))) {
		struct item *x = list_entry(n, struct item, inode);

		assert_true(x->id > last); /* in order, never twice */
		assert_true(l.steps <= seen + 1); /* one node walked per lookup (the first: none) */
		last = x->id;
		seen++;
		i++;
		if (x->id % 3 == 0) { /* it dies: the next index is its successor's */
			ilist_remove(&l, n);
			i--;
		}
		if (x->id % 4 == 1 && appended < BIG + BIG / 2) {
			it[appended].id = (int)appended;
			ilist_append(&l, &it[appended++].inode);
		}
	}
	assert_int_equal(seen, appended); /* the new ones too: they go last */
	assert_int_equal(i, l.count);
	check_cursor(&l);
	free(it);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_push_remove),
		cmocka_unit_test(test_list_remove_twice),
		cmocka_unit_test(test_ilist_order_and_end),
		cmocka_unit_test(test_ilist_cursor_follows_removals),
		cmocka_unit_test(test_ilist_random_against_model),
		cmocka_unit_test(test_ilist_listing_is_linear),
	};

	return cmocka_run_group_tests_name("ilist", tests, NULL, NULL);
}
