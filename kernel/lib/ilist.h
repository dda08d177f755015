/* ilist.h: an indexed list: elements in the order they were appended, found by position (the
 * i-th of those now on it). A lookup walks from the nearest of the two ends and the element the
 * previous lookup returned (the cursor), so asking for i + 1 after i costs O(1) and a listing of
 * all n elements O(n). Appending and removing cost O(1) and keep the cursor's position exact:
 * each element carries its append sequence number, which tells whether a removed element stood
 * before the cursor. No locking of its own: the caller holds the BKL. */
#ifndef KERNEL_ILIST_H
#define KERNEL_ILIST_H

#include <stddef.h>
#include <stdint.h>
#include "lib/list.h"

struct ilist_node {
	struct list_node link;
	uint64_t seq; /* append order: never wraps, so it orders the whole list */
};

struct ilist {
	struct list_node head;
	size_t count;
	uint64_t next_seq;
	struct ilist_node *cursor; /* the last node ilist_at returned, or NULL */
	size_t cursor_index;       /* its position now */
	uint64_t steps;            /* nodes lookups walked over, ever (tests check it is O(n)) */
};

#define ILIST_INIT(name) { .head = LIST_INIT((name).head) }

void ilist_append(struct ilist *l, struct ilist_node *n);
/* n must be on l. */
void ilist_remove(struct ilist *l, struct ilist_node *n);
/* The index-th node (0 is the oldest), or NULL when there are not that many. */
struct ilist_node *ilist_at(struct ilist *l, size_t index);

#endif
