/* test_dtree.c: host unit tests of kernel/lib/dtree.c, the deadline tree: random inserts and
 * removals (of any node, the first too) against a model, checking after each the tree's shape
 * (parents, heights, balance), its order (by key, then by insertion) and its first node; and
 * 100,000 deadlines inserted in order, in reverse and alike, whose height stays within the AVL
 * bound (the sorted list it replaced walked them all). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/dtree.h"
#include "host_rng.h"

#define NODES  512
#define STEPS  20000
#define BIG    100000

struct timer {
	struct dtree_node node;
	uint64_t seq; /* when it went in: the order among equal keys */
	int in;
};

/* Checks the subtree at n: parent links, heights, balance; returns its
 * node count and appends its nodes in order to out[]. */
static size_t check_subtree(const struct dtree_node *n, const struct dtree_node *parent,
			    const struct dtree_node **out, size_t at)
{
	size_t left, right;
	int hl, hr;

	if (!n)
		return 0;
	assert_ptr_equal(n->parent, parent);
	left = check_subtree(n->left, n, out, at);
	out[at + left] = n;
	right = check_subtree(n->right, n, out, at + left + 1);
	hl = n->left ? n->left->height : 0;
	hr = n->right ? n->right->height : 0;
	assert_int_equal(n->height, 1 + (hl > hr ? hl : hr));
	assert_true(hl - hr <= 1 && hr - hl <= 1);
	return left + 1 + right;
}

/* The tree holds exactly the model's nodes, in key then insertion order, the first at hand. */
static void check_tree(const struct dtree *t, struct timer *timers, size_t n)
{
	const struct dtree_node *order[NODES];
	size_t count = check_subtree(t->root, NULL, order, 0), in = 0;

	for (size_t i = 0; i < n; i++)
		in += timers[i].in;
	assert_int_equal(count, in);
	for (size_t i = 1; i < count; i++) {
		const struct timer *a = (const struct timer *)order[i - 1];
		const struct timer *b = (const struct timer *)order[i];

		assert_true(a->node.key < b->node.key ||
			    (a->node.key == b->node.key && a->seq < b->seq));
	}
	assert_ptr_equal(dtree_first(t), count ? order[0] : NULL);
}

static void test_random_against_model(void **state)
{
	static struct timer timers[NODES];
	struct dtree t = { 0 };
	uint64_t seq = 0;

	(void)state;
	rng_state = 0xd7ee5eedULL;
	for (int step = 0; step < STEPS; step++) {
		struct timer *tm = &timers[rng_below(NODES)];

		if (tm->in) {
			dtree_remove(&t, &tm->node);
			tm->in = 0;
		} else if (rng_below(4) == 0 && dtree_first(&t)) {
			/* the first goes, as an expiry takes it */
			struct timer *first = (struct timer *)dtree_first(&t);

			dtree_remove(&t, &first->node);
			first->in = 0;
		} else {
			/* few distinct keys now and then, so that equal ones are common */
			uint64_t key = 1 + rng_below(step % 3 ? 1000000 : 8);

			dtree_insert(&t, &tm->node, key);
			tm->seq = seq++;
			tm->in = 1;
		}
		check_tree(&t, timers, NODES);
	}
}

static int tree_height(const struct dtree *t)
{
	return t->root ? t->root->height : 0;
}

/* 100,000 nodes: in rising order (each new deadline the latest, as a periodic timer's), falling
 * (each the soonest) and all alike; 1.44 log2(n + 2) bounds an AVL tree's height: 24. */
static void test_height_bounded(void **state)
{
	struct timer *timers = calloc(BIG, sizeof(*timers));

	(void)state;
	assert_non_null(timers);
	for (int pattern = 0; pattern < 3; pattern++) {
		struct dtree t = { 0 };

		for (uint64_t i = 0; i < BIG; i++) {
			uint64_t key = pattern == 0 ? i + 1 : pattern == 1 ? BIG - i : 7;

			dtree_insert(&t, &timers[i].node, key);
		}
		assert_true(tree_height(&t) <= 24);
		/* the first is the smallest key, of equal ones the first inserted */
		assert_ptr_equal(dtree_first(&t), &timers[pattern == 1 ? BIG - 1 : 0].node);
		for (uint64_t i = 0; i < BIG; i++) {
			struct dtree_node *first = dtree_first(&t);

			assert_non_null(first);
			dtree_remove(&t, first);
		}
		assert_null(t.root);
		assert_null(dtree_first(&t));
	}
	free(timers);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_against_model),
		cmocka_unit_test(test_height_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
