/* dtree.h: a deadline tree: nodes ordered by a 64-bit key (equal keys in the order they were
 * inserted), the smallest at hand. An intrusive AVL tree with parent pointers: inserting and
 * removing any node cost O(log n) in the worst case (a height of at most 1.44 log2(n + 2)),
 * never a walk of the others; the smallest is kept, so finding it costs nothing. It replaced a
 * sorted list whose insert walked every earlier deadline (1,000 armed timers: 1,000 steps in
 * one kernel entry). No locking of its own: the caller serialises each tree (the BKL). */
#ifndef KERNEL_DTREE_H
#define KERNEL_DTREE_H

#include <stdbool.h>
#include <stdint.h>

struct dtree_node {
	struct dtree_node *left, *right, *parent;
	uint64_t key;
	int height; /* of the subtree at this node: 1 for a leaf */
};

struct dtree {
	struct dtree_node *root;
	struct dtree_node *first; /* the smallest key (of equal ones, the first inserted); NULL */
};

/* n (not in any tree) goes in with key, after the nodes already there with the same key. */
void dtree_insert(struct dtree *t, struct dtree_node *n, uint64_t key);
/* n (in t) comes out. */
void dtree_remove(struct dtree *t, struct dtree_node *n);

static inline struct dtree_node *dtree_first(const struct dtree *t)
{
	return t->first;
}

#endif
