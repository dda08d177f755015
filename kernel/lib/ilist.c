/* ilist.c: the indexed list (see ilist.h): the cursor that makes a listing linear. No locking
 * of its own: the caller holds the BKL. */
#include "lib/ilist.h"

static struct ilist_node *node_of(struct list_node *link)
{
	return list_entry(link, struct ilist_node, link);
}

void ilist_append(struct ilist *l, struct ilist_node *n)
{
	n->seq = l->next_seq++;
	list_push_back(&l->head, &n->link);
	l->count++; /* behind every other node: the cursor's position stays */
}

void ilist_remove(struct ilist *l, struct ilist_node *n)
{
	if (l->cursor == n && n->link.prev == &l->head) {
		l->cursor = NULL;
	} else if (l->cursor == n) {
		/* step back, so that asking for the next index finds n's successor at once */
		l->cursor = node_of(n->link.prev);
		l->cursor_index--;
	} else if (l->cursor && n->seq < l->cursor->seq) {
		l->cursor_index--; /* one fewer before it */
	}
	list_remove(&n->link);
	l->count--;
}

static size_t distance(size_t a, size_t b)
{
	return a > b ? a - b : b - a;
}

struct ilist_node *ilist_at(struct ilist *l, size_t index)
{
	struct ilist_node *n;
	size_t at;

	if (index >= l->count)
		return NULL;
	/* start at whichever of the first node, the last node and the cursor is nearest */
	if (index <= l->count - 1 - index) {
		n = node_of(l->head.next);
		at = 0;
	} else {
		n = node_of(l->head.prev);
		at = l->count - 1;
	}
	if (l->cursor && distance(l->cursor_index, index) < distance(at, index)) {
		n = l->cursor;
		at = l->cursor_index;
	}
	l->steps += distance(at, index);
	for (; at < index; at++)
		n = node_of(n->link.next);
	for (; at > index; at--)
		n = node_of(n->link.prev);
	l->cursor = n;
	l->cursor_index = index;
	return n;
}
