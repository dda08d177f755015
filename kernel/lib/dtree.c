/* dtree.c: the deadline tree (dtree.h): an AVL tree whose nodes know their parent, so that a
 * node is removed given itself, and whose in-order sequence is by key, then by insertion (an
 * equal key goes right). Rotations and removal keep that sequence. No locking: the caller's. */
#include <stddef.h>
#include "lib/dtree.h"

static int height(const struct dtree_node *n)
{
	return n ? n->height : 0;
}

static void update(struct dtree_node *n)
{
	int l = height(n->left), r = height(n->right);

	n->height = 1 + (l > r ? l : r);
}

/* Where old hung (under parent, or the root), now hangs new (which may be NULL). */
static void replace_child(struct dtree *t, struct dtree_node *parent, struct dtree_node *old,
			  struct dtree_node *new)
{
	if (!parent)
		t->root = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
	if (new)
		new->parent = parent;
}

/* x's right child takes x's place, x becomes its left child; returns it. */
static struct dtree_node *rotate_left(struct dtree *t, struct dtree_node *x)
{
	struct dtree_node *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	replace_child(t, x->parent, x, y);
	y->left = x;
	x->parent = y;
	update(x);
	update(y);
	return y;
}

/* The mirror of rotate_left. */
static struct dtree_node *rotate_right(struct dtree *t, struct dtree_node *x)
{
	struct dtree_node *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	replace_child(t, x->parent, x, y);
	y->right = x;
	x->parent = y;
	update(x);
	update(y);
	return y;
}

/* From n up to the root: heights brought up to date, each node balanced (its subtrees'
 * heights differ by one at most) by one or two rotations. */
static void rebalance(struct dtree *t, struct dtree_node *n)
{
	while (n) {
		int balance;

		update(n);
		balance = height(n->left) - height(n->right);
		if (balance > 1) {
			if (height(n->left->left) < height(n->left->right))
				rotate_left(t, n->left);
			n = rotate_right(t, n);
		} else if (balance < -1) {
			if (height(n->right->right) < height(n->right->left))
				rotate_right(t, n->right);
			n = rotate_left(t, n);
		}
		n = n->parent;
	}
}

/* The node after n in order, or NULL. */
static struct dtree_node *next(struct dtree_node *n)
{
	if (n->right) {
		for (n = n->right; n->left; n = n->left)
			;
		return n;
	}
	while (n->parent && n->parent->right == n)
		n = n->parent;
	return n->parent;
}

void dtree_insert(struct dtree *t, struct dtree_node *n, uint64_t key)
{
	struct dtree_node *parent = NULL, **link = &t->root;

	while (*link) {
		parent = *link;
		link = key < parent->key ? &parent->left : &parent->right;
	}
	*n = (struct dtree_node){ .parent = parent, .key = key, .height = 1 };
	*link = n;
	if (!t->first || key < t->first->key)
		t->first = n;
	rebalance(t, parent);
}

void dtree_remove(struct dtree *t, struct dtree_node *n)
{
	struct dtree_node *fix;

	if (t->first == n)
		t->first = next(n);
	if (n->left && n->right) {
		struct dtree_node *s = n->right; /* n's successor, which has no left child, takes its place */

		while (s->left)
			s = s->left;
		if (s->parent != n) {
			fix = s->parent;
			fix->left = s->right;
			if (s->right)
				s->right->parent = fix;
			s->right = n->right;
			n->right->parent = s;
		} else {
			fix = s;
		}
		s->left = n->left;
		n->left->parent = s;
		replace_child(t, n->parent, n, s);
		s->height = n->height;
	} else {
		fix = n->parent;
		replace_child(t, n->parent, n, n->left ? n->left : n->right);
	}
	rebalance(t, fix);
	*n = (struct dtree_node){ 0 };
}
