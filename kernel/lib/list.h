/* list.h: intrusive circular doubly linked lists. A list is a sentinel node; an element embeds
 * a node and leaves its list in O(1) with nothing but that node. A node that is on no list
 * points at itself, so removing it twice is harmless. No locking of their own: the caller
 * holds the BKL. */
#ifndef KERNEL_LIST_H
#define KERNEL_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct list_node {
	struct list_node *next, *prev;
};

/* A static list head: `struct list_node l = LIST_INIT(l);` */
#define LIST_INIT(name) { &(name), &(name) }

/* The element that embeds node as its member `member`. */
#define list_entry(node, type, member) ((type *)((char *)(node) - offsetof(type, member)))

/* A head, or a node that is on no list (objects come zeroed from kalloc: not yet a list). */
static inline void list_init(struct list_node *n)
{
	n->next = n->prev = n;
}

static inline bool list_empty(const struct list_node *head)
{
	return head->next == head;
}

/* Put n (on no list) at the end of head's list. */
static inline void list_push_back(struct list_node *head, struct list_node *n)
{
	n->prev = head->prev;
	n->next = head;
	head->prev->next = n;
	head->prev = n;
}

/* Take n off whatever list holds it (none: nothing happens). */
static inline void list_remove(struct list_node *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	list_init(n);
}

#endif
